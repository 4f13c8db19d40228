package console_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/console"
)

// TestBackend: a run whose agent took its tools from the doubles and its
// model from the gateway. Without -v, the test says it called a double
// the test gave no answer, and the run's summary shows the requests no
// test took; with -v, each served call is marked as the double's, the
// unanswered one says so, and each model call shows its outcome
// (backend.golden.txt, backend-verbose.golden.txt).
func TestBackend(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts console.Options
		want []string
	}{
		{"backend.golden.txt", console.Options{}, []string{"1 call to a tool double with no answer for this test", "was attributed to no test"}},
		{"backend-verbose.golden.txt", console.Options{Verbose: true}, []string{"⇄ double (match[0])", "⇄ double: no answer for this test",
			"model gpt-4o-mini → 429 fault 429 injected", "warning: turn[0]: reserve was called"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := console.Write(&b, reporttest.BackendReport(), tc.opts); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			golden.Assert(t, "testdata/"+tc.name, out)
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("the output lacks %q", w)
				}
			}
			if strings.Contains(out, reporttest.Secret) {
				t.Error("the console shows the secret")
			}
		})
	}
}
