package console_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/console"
)

// TestWriteBlame: read against the base branch's history, each failing
// test's tree says the history's verdict with its runs on main, and the
// summary counts the failures by verdict; a test that did not fail, and a
// report without a history, say nothing of it.
func TestWriteBlame(t *testing.T) {
	var b bytes.Buffer
	if err := console.Write(&b, reporttest.HistoryReport(), console.Options{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"FAIL checkout declines the card  tests/checkout.ananke.yaml\n  history: known flaky on main (fails 4 of the last 20); p = 0.24, within noise  ✓✓✗✓✓✓✗✓✓✓✓✗✓✓✓✓✓✗✓✓\n",
		"  history: already failing on main since run #39  ✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓!!!\n",
		"  history: new failure (passed the last 20 runs on main)  ✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓\n",
		"History (last 20 runs on main): 1 new failure, 1 known flaky on main, 1 already failing on main\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "\n  history: "); n != 3 {
		t.Errorf("%d history lines, want one per failing test:\n%s", n, out)
	}
	b.Reset()
	console.Write(&b, reporttest.Report(), console.Options{Verbose: true})
	if strings.Contains(b.String(), "\n  history: ") || strings.Contains(b.String(), "History (") {
		t.Errorf("without a history:\n%s", b.String())
	}
}
