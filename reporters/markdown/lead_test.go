package markdown_test

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/markdown"
)

// TestLead: the lead comes right under the heading, before the totals,
// inside the budget; a budget that cannot hold it beside the heading and
// the totals drops the lead, never the totals.
func TestLead(t *testing.T) {
	r := reporttest.Report()
	lead := "**1 new failure, 1 fixed**\n\nCompared with [run #41](https://example.com/41)."
	plain := markdown.Render(r, markdown.Options{Marker: "<!-- m -->"})
	heading, rest, _ := strings.Cut(plain, "\n\n")
	out := markdown.Render(r, markdown.Options{Marker: "<!-- m -->", Lead: "\n" + lead + "\n"})
	if want := heading + "\n\n" + lead + "\n\n" + rest; out != want {
		t.Errorf("the lead is not between the heading and the totals:\n%s", out)
	}
	if got := markdown.Render(r, markdown.Options{Marker: "<!-- m -->", Lead: " \n"}); got != plain {
		t.Errorf("a blank lead changed the output:\n%s", got)
	}
	// The totals table ends at the first blank line after the heading.
	withTotals := len(heading) + 2
	withTotals += strings.Index(plain[withTotals:], "\n\n") + 1
	for _, tc := range []struct {
		name     string
		budget   int
		wantLead bool
	}{
		{"roomy", len(out), true},
		{"just enough", withTotals + len(lead) + 2, true},
		{"one byte short", withTotals + len(lead) + 1, false},
		{"totals only", withTotals, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := markdown.Render(r, markdown.Options{Marker: "<!-- m -->", Lead: lead, Budget: tc.budget})
			if len(got) > tc.budget {
				t.Errorf("len = %d; want ≤ %d", len(got), tc.budget)
			}
			if strings.Contains(got, lead) != tc.wantLead {
				t.Errorf("lead shown = %v; want %v:\n%s", !tc.wantLead, tc.wantLead, got)
			}
			if !strings.Contains(got, plain[len(heading)+2:withTotals]) {
				t.Errorf("the totals are not whole:\n%s", got)
			}
		})
	}
}
