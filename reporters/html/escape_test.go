package html_test

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/report/reporttest"
)

// TestEscaping: text that would end the data's script element, open a
// comment or start a script — in a test's name, id, reason and a turn's
// text — stays inside the data and decodes back unchanged.
func TestEscaping(t *testing.T) {
	for _, tc := range []struct{ name, text string }{
		{"script end", `</script><script>alert(1)</script>`},
		{"upper case", `</SCRIPT ><SCRIPT>alert(1)</SCRIPT>`},
		{"comment", `<!-- <script>`},
		{"comment end", `--> ]]> <![CDATA[`},
		{"line separators", "a\u2028b\u2029c"},
		{"quotes and ampersand", `"'&amp;<b>`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := reporttest.Pick(false, reporttest.Failing)
			r.Tests[0].Name, r.Tests[0].Reason = tc.text, tc.text
			r.Tests[0].Trace.Turns[0].Texts = []string{tc.text}
			page := render(t, r)
			low := strings.ToLower(page)
			if n := strings.Count(low, "</script"); n != 2 {
				t.Errorf("%d </script in the page; want 2", n)
			}
			if n := strings.Count(low, "<script"); n != 2 {
				t.Errorf("%d <script in the page; want 2", n)
			}
			if strings.Contains(page, "<!--") || strings.ContainsAny(data(t, page), "\u2028\u2029") {
				t.Error("the page holds a comment opening or a raw line separator")
			}
			p := decode(t, page)
			if p.Tests[0].Name != tc.text || p.Tests[0].Turns[0].Text != tc.text {
				t.Errorf("decoded name %q, text %q; want %q", p.Tests[0].Name, p.Tests[0].Turns[0].Text, tc.text)
			}
		})
	}
}
