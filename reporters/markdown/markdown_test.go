package markdown_test

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/markdown"
)

func TestRenderGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts markdown.Options
	}{
		{"default.golden.md", markdown.Options{}},
		{"linked.golden.md", markdown.Options{
			LinkBase: "https://github.com/o/r/blob/0123abc/",
			Marker:   "<!-- ananke:report:ananke -->",
			Title:    "ananke / e2e",
			Artifact: "the `ananke-report` artifact",
		}},
		// Room for the heading, the totals and the failed test, not the
		// errored one: the rest is named in the note.
		{"trimmed.golden.md", markdown.Options{Budget: 1700, Artifact: "the `ananke-report` artifact"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := markdown.Render(reporttest.Report(), tc.opts)
			golden.Assert(t, "testdata/"+tc.name, out)
			if tc.opts.Budget > 0 && len(out) > tc.opts.Budget {
				t.Errorf("len(out) = %d; want ≤ %d", len(out), tc.opts.Budget)
			}
			if strings.Contains(out, reporttest.Secret) {
				t.Error("the output shows the secret")
			}
			checkStructure(t, out)
		})
	}
}

// TestFooter: the footer comes last, inside the budget, and is dropped
// when the budget cannot hold it.
func TestFooter(t *testing.T) {
	r := reporttest.Report()
	footer := "Full report: the [`ananke-report` artifact](https://example.com/a)"
	out := markdown.Render(r, markdown.Options{Footer: footer})
	if !strings.HasSuffix(out, "\n"+footer+"\n") {
		t.Errorf("no footer at the end:\n%s", out)
	}
	for _, budget := range []int{600, 1000, 2000, len(out), len(out) - 1} {
		got := markdown.Render(r, markdown.Options{Footer: footer, Budget: budget})
		if len(got) > budget {
			t.Errorf("budget %d: %d bytes", budget, len(got))
		}
		if budget >= 512+len(footer)+2 && !strings.HasSuffix(got, footer+"\n") {
			t.Errorf("budget %d: footer dropped although it fits", budget)
		}
	}
	if got := markdown.Render(r, markdown.Options{Footer: footer, Budget: 300}); strings.Contains(got, footer) {
		t.Error("footer kept in a tiny budget")
	}
}
