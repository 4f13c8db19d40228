package snapshot

import (
	"strings"
	"testing"
)

// TestStructure: a reply's shape is its blocks, without their words.
func TestStructure(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"empty", "", []string{}},
		{"one paragraph", "Hello there.\nStill the same paragraph.", []string{"1 paragraph"}},
		{"paragraphs in a row", "One.\n\nTwo.\n\n\nThree.", []string{"3 paragraphs"}},
		{"headings", "# Title\n### Sub\n####### not one", []string{"heading 1", "heading 3", "1 paragraph"}},
		{"setext headings", "Title\n=====\nSub\n---\nText.", []string{"heading 1", "heading 2", "1 paragraph"}},
		{"a list and its nested items", "Items:\n- one\n- two\n  - two a\n- three\n\nAfter.", []string{"1 paragraph", "list of 4 items", "1 paragraph"}},
		{"a numbered list with a lazy line", "1. first\ncontinued\n2) second", []string{"numbered list of 2 items"}},
		{"a list spread over blank lines", "* a\n\n* b\n\n  more of b\n\nEnd.", []string{"list of 2 items", "1 paragraph"}},
		{"code blocks", "```go\nfunc main() {}\n# not a heading\n```\n~~~\nplain\n~~~\n````\nunclosed", []string{"code block (go)", "code block", "code block"}},
		{"a table", "| a | b | c |\n|---|:-:|--:|\n| 1 | 2 | 3 |\n| 4 | 5 | 6 |\n\nDone.", []string{"table of 2 rows × 3 columns", "1 paragraph"}},
		{"a table without edges", "a | b\n--|--\n1 | 2", []string{"table of 1 row × 2 columns"}},
		{"a quote and a rule", "> quoted\n> more\n\n***\n\nText.", []string{"quote", "1 paragraph"}},
		{"paragraphs around other blocks", "A.\n\n## H\n\nB.\n\nC.", []string{"1 paragraph", "heading 2", "2 paragraphs"}},
		{"windows line ends", "# T\r\n\r\nx\r\n", []string{"heading 1", "1 paragraph"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := structure(tc.text)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") || got == nil {
				t.Errorf("structure(%q) = %q, want %q", tc.text, got, tc.want)
			}
		})
	}
}
