package decode

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/diag"
)

func TestNumber(t *testing.T) {
	for _, tc := range []struct {
		yaml string
		want float64
		err  string
	}{
		{"1", 1, ""},
		{"0.15", 0.15, ""},
		{"2.5e-3", 0.0025, ""},
		{"1_000", 1000, ""},
		{"0x10", 16, ""},
		{"-3", -3, ""},
		{".nan", 0, "x must be a finite number, got .nan"},
		{".inf", 0, "x must be a finite number, got .inf"},
		{`"1"`, 0, "x must be a number, not a string"},
		{"true", 0, "x must be a number, not "},
		{"[1]", 0, "x must be a number, not a list"},
		{"~", 0, "x must be a number, not "},
	} {
		var diags diag.Diagnostics
		d := &Decoder{File: "f.yaml", Diags: &diags}
		doc := d.ParseBytes([]byte("x: " + tc.yaml))
		if doc == nil {
			t.Fatalf("%s: %v", tc.yaml, diags)
		}
		v, node, ok := d.Number(doc.Content[1], "x")
		switch {
		case tc.err == "" && (!ok || v != tc.want || node == nil):
			t.Errorf("%s: %v, %v; %v", tc.yaml, v, ok, diags)
		case tc.err != "" && (ok || len(diags) != 1 || !strings.Contains(diags[0].Message, tc.err)):
			t.Errorf("%s: %v, %v; diagnostics %v, want %q", tc.yaml, v, ok, diags, tc.err)
		}
	}
}
