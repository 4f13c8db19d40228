package html_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ananke/action/internal/report"
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

// TestEscapingJudges: a judge's criterion and reasoning that would end the
// data's script element, open a comment or close a quoted attribute stay
// inside the data and decode back unchanged, with the judge's model,
// prompt hash and why it was reported as a warning; the secret in a
// reasoning is masked. (A reviewer's note never enters the page's markup:
// TestBrowserLabels types one.)
func TestEscapingJudges(t *testing.T) {
	page := render(t, reporttest.JudgesReport())
	low := strings.ToLower(page)
	if strings.Count(low, "</script") != 2 || strings.Count(low, "<script") != 2 || strings.Contains(page, "<!--") {
		t.Errorf("the page holds %d </script, %d <script and %d <!--; want 2, 2 and 0",
			strings.Count(low, "</script"), strings.Count(low, "<script"), strings.Count(page, "<!--"))
	}
	if strings.Contains(page, reporttest.Secret) {
		t.Error("the page holds the secret planted in a judge's reasoning")
	}
	var p struct {
		Run   string `json:"run"`
		Tests []struct {
			Assertions []struct {
				ID    string        `json:"id"`
				Judge *report.Judge `json:"judge"`
			} `json:"assertions"`
		} `json:"tests"`
	}
	if err := json.Unmarshal([]byte(data(t, page)), &p); err != nil {
		t.Fatal(err)
	}
	j := p.Tests[0].Assertions[1].Judge
	if p.Run != "2026-11-22T09:30:00Z" || p.Tests[0].Assertions[1].ID != "test.judge" || j == nil {
		t.Fatalf("the page's run is %q, its second assertion %+v", p.Run, p.Tests[0].Assertions[1])
	}
	want := report.JudgeCriterion{Criterion: "apologises with " + reporttest.Awkward, Verdict: "false", Reasoning: "It never apologises: " + reporttest.Awkward + " key " + report.Mask}
	if j.Model != reporttest.JudgeModel || j.PromptHash != reporttest.JudgePromptHash || j.Demoted != reporttest.Demoted || len(j.Criteria) != 2 || j.Criteria[0] != want {
		t.Errorf("the judge decodes as %+v; want its first criterion %+v", j, want)
	}
}
