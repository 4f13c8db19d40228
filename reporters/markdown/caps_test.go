package markdown_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/markdown"
)

// TestRenderCaps checks that one test's block stays bounded: evidence,
// failing assertions and an error's detail are cut with a count of what
// was left out, and skipped and passing assertions are not listed.
func TestRenderCaps(t *testing.T) {
	r := reporttest.Report()
	fail := &r.Tests[0]
	a := fail.Failed()[0]
	call := *a.Evidence[0].Call
	a.Evidence = nil
	for i := range 12 {
		c := call
		c.ID = fmt.Sprintf("call-%d", i)
		a.Evidence = append(a.Evidence, report.Evidence{Note: "matches", Call: &c})
	}
	fail.Assertions = nil
	for i := range 30 {
		b := a
		b.ID = fmt.Sprintf("turn[1].tools.forbid_calls[%d]", i)
		fail.Assertions = append(fail.Assertions, b)
	}
	fail.Assertions = append(fail.Assertions, report.Assertion{ID: "skipped-one", Status: "skip", Scope: "test", Message: "not evaluated"},
		report.Assertion{ID: "passing-one", Status: "pass", Scope: "test", Message: "fine"})
	var lines []string
	for i := range 100 {
		lines = append(lines, fmt.Sprintf("log line %d", i))
	}
	r.Tests[2].Detail = strings.Join(lines, "\n")

	r.Tests = r.Tests[:4] // not the repeated tests, whose failures would count too
	out := markdown.Render(r, markdown.Options{})
	checkStructure(t, out)
	for _, want := range []string{
		"… 4 more in the report\n",
		"_… 10 more failed assertions; see the report directory._",
		"log line 39\n… 60 more lines\n",
		"— 30 failed assertions (process, outcome)</summary>",
		"| ✗ | checkout declines the card | `tests/checkout.ananke.yaml` | 1.6s | 30 |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	for _, unwanted := range []string{"call-8 ", "forbid_calls[20]", "log line 40", "skipped-one", "passing-one"} {
		if strings.Contains(out, unwanted) {
			t.Errorf("output shows %q", unwanted)
		}
	}
	if n := strings.Count(out, "- ✗ "); n != 20 {
		t.Errorf("%d failing assertions listed; want 20", n)
	}
	if n := strings.Count(out, "**turn\\[1\\]**"); n != 1 {
		t.Errorf("turn[1] heads %d groups; want 1 (consecutive assertions share it)", n)
	}
}

// TestRenderOpenBlocks checks that blocks start open only for a handful of
// failing tests, and that a passing test's block, for its warning, is
// always closed.
func TestRenderOpenBlocks(t *testing.T) {
	for _, tc := range []struct {
		failing  int
		wantOpen bool
	}{{1, true}, {3, true}, {4, false}, {50, false}} {
		out := markdown.Render(many(tc.failing, 1), markdown.Options{})
		open, closed := strings.Count(out, "<details open>\n<summary>✗"), strings.Count(out, "<details>\n<summary>✗")
		if tc.wantOpen && (open != tc.failing || closed != 0) || !tc.wantOpen && (open != 0 || closed != tc.failing) {
			t.Errorf("%d failing tests: %d open and %d closed blocks; want all open = %v", tc.failing, open, closed, tc.wantOpen)
		}
		if n := strings.Count(out, "<details>\n<summary>✓"); n != 1 || strings.Contains(out, "<details open>\n<summary>✓") {
			t.Errorf("%d failing tests: %d closed blocks for the passing test with a warning; want 1, and none open", tc.failing, n)
		}
	}
}
