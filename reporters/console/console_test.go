package console_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/console"
)

func TestWrite(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts console.Options
	}{
		{"console.golden.txt", console.Options{}},
		{"console-verbose.golden.txt", console.Options{Verbose: true}},
		{"console-color.golden.txt", console.Options{Color: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			live := console.NewLive(&b, tc.opts)
			for _, r := range reporttest.Outcome().Tests {
				live.TestFinished(r)
			}
			if err := console.Write(&b, reporttest.Report(), tc.opts); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			golden.Assert(t, "testdata/"+tc.name, out)
			if strings.Contains(out, reporttest.Secret) {
				t.Error("the console shows the secret")
			}
			if hasColor := strings.Contains(out, "\x1b[3"); hasColor != tc.opts.Color {
				t.Errorf("colour escapes present = %v; want %v", hasColor, tc.opts.Color)
			}
		})
	}
}

var _ engine.Observer = (*console.Live)(nil)
