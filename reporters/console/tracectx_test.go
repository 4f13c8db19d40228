package console_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/console"
)

// TestTraceIDVerbose: with -v each test says its shown attempt's trace id
// under its header, above its turns, and without -v it does not.
func TestTraceIDVerbose(t *testing.T) {
	r := reporttest.Report()
	const id = "0af7651916cd43dd8448eb211c80319c"
	r.Tests[0].TraceID = id
	for _, verbose := range []bool{true, false} {
		var b bytes.Buffer
		if err := console.Write(&b, r, console.Options{Verbose: verbose}); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(b.String(), "\n")
		at, head := -1, -1
		for i, l := range lines {
			switch {
			case l == "  trace "+id:
				at = i
			case head < 0 && strings.Contains(l, r.Tests[0].Name):
				head = i
			}
		}
		if !verbose {
			if strings.Contains(b.String(), id) {
				t.Errorf("the trace id without -v:\n%s", b.String())
			}
			continue
		}
		// Under the test's header, above its turns.
		if at <= head || head < 0 || !strings.HasPrefix(lines[at+1], "  ├─ turn[0]") {
			t.Errorf("-v: the trace id is not between the test's header and its turns:\n%s", b.String())
		}
	}
}
