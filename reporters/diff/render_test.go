package diff_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/diff"
)

// cases are the change pairs every renderer is golden-tested on.
func cases() []struct {
	name       string
	base, head *report.Report
} {
	b, h := pair()
	sb, sh := slowdowns(14)
	same := rep(900, tc("a", status.Pass, 400), tc("b", status.Fail, 500, failed("x", "y")))
	cb, ch := costPair()
	rb, rh := ratePair()
	return []struct {
		name       string
		base, head *report.Report
	}{
		{"all", b, h},
		{"slower", sb, sh},
		{"same", same, same},
		{"cost", cb, ch},
		{"rates", rb, rh},
	}
}

func TestWriteTextGolden(t *testing.T) {
	for _, tc := range cases() {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := diff.WriteText(&buf, diff.Compare(tc.base, tc.head), diff.TextOptions{Base: "main (run 41)"}); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			golden.Assert(t, "testdata/"+tc.name+".golden.txt", out)
			if strings.ContainsAny(out, "\x1b\x07") {
				t.Error("a raw control character reached the terminal")
			}
		})
	}
}

func TestMarkdownGolden(t *testing.T) {
	for _, tc := range cases() {
		t.Run(tc.name, func(t *testing.T) {
			out := diff.Markdown(diff.Compare(tc.base, tc.head), diff.MarkdownOptions{})
			golden.Assert(t, "testdata/"+tc.name+".golden.md", out)
		})
	}
	b, h := pair()
	c := diff.Compare(b, h)
	t.Run("linked", func(t *testing.T) {
		out := diff.Markdown(c, diff.MarkdownOptions{LinkBase: "https://github.com/o/r/blob/0123abc/",
			Base: "[run #41](https://github.com/o/r/actions/runs/41) on `main` (abc1234)"})
		golden.Assert(t, "testdata/linked.golden.md", out)
	})
	t.Run("trimmed", func(t *testing.T) {
		out := diff.Markdown(c, diff.MarkdownOptions{Budget: 1200})
		golden.Assert(t, "testdata/trimmed.golden.md", out)
	})
}

// TestMarkdownEscapes: nothing a test's name or an assertion's message
// holds becomes markup, a mention, a link or a raw control character.
func TestMarkdownEscapes(t *testing.T) {
	out := diff.Markdown(diff.Compare(pair()), diff.MarkdownOptions{})
	for _, bad := range []string{"<b>", "<script>", "](https://evil", "@octocat", "#12", "\x1b", "\x07", "![img]"} {
		if strings.Contains(out, bad) {
			t.Errorf("the output holds %q:\n%s", bad, out)
		}
	}
}

// TestMarkdownBudget renders with every budget up to the full size: never
// over it, whole lines of the full output only, and what is left out
// said.
func TestMarkdownBudget(t *testing.T) {
	t.Run("all", func(t *testing.T) { markdownBudget(t, diff.Compare(pair())) })
	t.Run("cost", func(t *testing.T) { markdownBudget(t, diff.Compare(costPair())) })
	t.Run("rates", func(t *testing.T) { markdownBudget(t, diff.Compare(ratePair())) })
}

func markdownBudget(t *testing.T, c *diff.Change) {
	full := diff.Markdown(c, diff.MarkdownOptions{})
	lines := map[string]bool{}
	for _, l := range strings.Split(full, "\n") {
		lines[l] = true
	}
	headline := c.Headline()
	for budget := 1; budget <= len(full)+1; budget++ {
		out := diff.Markdown(c, diff.MarkdownOptions{Budget: budget})
		if len(out) > budget {
			t.Fatalf("budget %d: %d bytes", budget, len(out))
		}
		if budget < len(headline)+5 {
			continue
		}
		for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			if !lines[l] && !strings.HasPrefix(l, "- … and ") && !strings.HasPrefix(l, "_Not shown for lack of room: ") {
				t.Fatalf("budget %d: line not in the full output: %q", budget, l)
			}
		}
		if budget >= len(full) && out != full {
			t.Fatalf("budget %d ≥ %d: trimmed", budget, len(full))
		}
		if out != full && len(out) > len(headline)+5 && !strings.Contains(out, "- … and ") && !strings.Contains(out, "_Not shown") {
			t.Fatalf("budget %d: trimmed without saying so:\n%s", budget, out)
		}
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteTextError(t *testing.T) {
	err := diff.WriteText(failWriter{}, diff.Compare(pair()), diff.TextOptions{})
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("err = %v; want the writer's", err)
	}
}
