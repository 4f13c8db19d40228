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

// TestLiveNoSecret feeds the live observer the fixture's engine results,
// which are not masked yet: the live line must show nothing of the agent's
// text.
func TestLiveNoSecret(t *testing.T) {
	for _, opts := range []console.Options{{}, {Color: true, Verbose: true, Progress: true, Total: 6}} {
		var b bytes.Buffer
		live := console.NewLive(&b, opts)
		for _, r := range reporttest.Outcome().Tests {
			live.TestStarted(r.Test)
			live.TestFinished(r)
		}
		live.Close()
		if strings.Contains(b.String(), reporttest.Secret) {
			t.Errorf("with %+v, the live output shows the secret:\n%s", opts, b.String())
		}
	}
}

var (
	_ engine.Observer      = (*console.Live)(nil)
	_ engine.StartObserver = (*console.Live)(nil)
)
