package markdown_test

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/markdown"
)

// TestRenderVariants: under the totals, the pair verdicts first, each
// variant's totals, then the matrix with the significantly worse cell
// marked and the difference in its row; each test's row names its
// variant.
func TestRenderVariants(t *testing.T) {
	md := markdown.Render(reporttest.VariantsReport(), markdown.Options{})
	golden.Assert(t, "testdata/variants.golden.md", md)
	verdict := strings.Index(md, "- careful passes 1 fewer test than baseline")
	matrix := strings.Index(md, "| Test | baseline | careful | broken | Significant |")
	if verdict < 0 || matrix < 0 || verdict > matrix {
		t.Errorf("the pair verdicts (at %d) do not come before the matrix (at %d):\n%s", verdict, matrix, md)
	}
}

// TestRenderVariantsFolded: a budget that holds the comparison's verdicts
// and some of its rows folds the others into a note; one that holds no
// row says how many tests the report has; the output keeps to the budget.
func TestRenderVariantsFolded(t *testing.T) {
	r := reporttest.VariantsReport()
	full := markdown.Render(r, markdown.Options{})
	last := strings.Index(full, "| search finds shoes |")
	if last < 0 {
		t.Fatalf("no search row in\n%s", full)
	}
	for _, c := range []struct {
		budget int
		want   string
		rows   int
	}{
		{last + 260, "_… 1 test more in the report directory._", 2},
		{strings.Index(full, "| Test |") + 60, "_… 3 tests more in the report directory._", 0},
	} {
		md := markdown.Render(r, markdown.Options{Budget: c.budget})
		if len(md) > c.budget {
			t.Errorf("budget %d: %d bytes", c.budget, len(md))
		}
		if !strings.Contains(md, c.want) {
			t.Errorf("budget %d: no %q in\n%s", c.budget, c.want, md)
		}
		rows := strings.Count(md, " ▼** |") + strings.Count(md, "| greets the user |") + strings.Count(md, "| refund an order |")
		if c.rows == 0 && strings.Contains(md, "| Test |") || c.rows > 0 && rows != c.rows {
			t.Errorf("budget %d: %d matrix rows, want %d:\n%s", c.budget, rows, c.rows, md)
		}
		if !strings.Contains(md, "- careful passes 1 fewer test than baseline") {
			t.Errorf("budget %d: the verdict is missing:\n%s", c.budget, md)
		}
	}
}
