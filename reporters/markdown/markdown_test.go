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
		{"trimmed.golden.md", markdown.Options{Budget: 1600, Artifact: "the `ananke-report` artifact"}},
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
