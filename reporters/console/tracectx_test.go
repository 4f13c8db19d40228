package console_test

import (
	"bytes"
	"fmt"
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

// TestAttemptTraceIDsVerbose: with -v a test run more than once says each
// attempt's trace id under its attempts.
func TestAttemptTraceIDsVerbose(t *testing.T) {
	r := reporttest.Report()
	ft := &r.Tests[reporttest.Flips]
	var want []string
	for i := range ft.Attempts {
		ft.Attempts[i].TraceID = fmt.Sprintf("%032x", i+1)
		want = append(want, "    "+ft.Attempts[i].Label()+": trace "+ft.Attempts[i].TraceID)
	}
	var b bytes.Buffer
	if err := console.Write(&b, r, console.Options{Verbose: true}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	head := strings.Index(out, ft.Name+"  ")
	at := strings.Index(out[max(head, 0):], "  attempts: ") + max(head, 0)
	if head < 0 || at < head {
		t.Fatalf("no attempts line:\n%s", out)
	}
	end := strings.Index(out[at:], "\n") + at + 1
	if got := strings.Join(strings.Split(out[end:], "\n")[:len(want)], "\n"); got != strings.Join(want, "\n") {
		t.Errorf("under the attempts:\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}
	b.Reset()
	console.Write(&b, r, console.Options{})
	if strings.Contains(b.String(), ": trace ") {
		t.Errorf("trace ids without -v:\n%s", b.String())
	}
}
