package tracefile_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/internal/tracefile"
)

// TestBackendRoundTrip: a trace file keeps what Ananke served behind the
// agent — each served call's record, each model call, and what the
// attempt was bound to — so a trace read back has the same turns and the
// same capabilities (ananke merge reports them as the run did).
func TestBackendRoundTrip(t *testing.T) {
	r := reporttest.BackendReport()
	tt := &r.Tests[0]
	var b bytes.Buffer
	if err := tracefile.Write(&b, tt, &tt.Attempts[0]); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), reporttest.Secret) {
		t.Error("the trace file shows the secret")
	}
	back, err := tracefile.Read(&b)
	if err != nil {
		t.Fatal(err)
	}
	want := tt.Attempts[0].Trace
	js := func(v any) string {
		out, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	for i := range want.Turns {
		if got, w := js(back.Turns[i].ToolCalls), js(want.Turns[i].ToolCalls); got != w {
			t.Errorf("turn %d calls read back\n%s\nwant\n%s", i, got, w)
		}
		if got, w := js(back.Turns[i].ModelCalls), js(want.Turns[i].ModelCalls); got != w || len(back.Turns[i].ModelCalls) != 3 {
			t.Errorf("turn %d model calls read back\n%s\nwant\n%s", i, got, w)
		}
	}
	if !back.Doubles || !back.Gateway || !slices.Equal(back.Caps(), want.Caps()) {
		t.Errorf("read back: doubles %v, gateway %v, capabilities %v; want %v", back.Doubles, back.Gateway, back.Caps(), want.Caps())
	}
}
