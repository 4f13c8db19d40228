package assertion

import (
	"fmt"

	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// contextLen is how much text around a match an excerpt shows.
const contextLen = 40

func mustMatch(r *Result, re *vars.Regex, s trace.Scope) {
	text := s.Text()
	r.Expected = fmt.Sprintf("assistant text matching `%s`", re)
	r.Observed = observedText(text)
	refs := textRefs(s)
	if loc := find(re, text); loc != nil {
		r.Evidence = []Evidence{{Note: "match", Text: around(text, loc), EventRefs: refs}}
		r.set(status.Pass, "assistant text matches `%s`", re)
		return
	}
	r.Evidence = []Evidence{{Note: "assistant text", Text: shorten(text, 400), EventRefs: refs}}
	r.set(status.Fail, "assistant text in %s does not match `%s`: %s", s.Name, re, observedText(text))
}

func mustNotMatch(r *Result, re *vars.Regex, s trace.Scope) {
	text := s.Text()
	r.Expected = fmt.Sprintf("assistant text not matching `%s`", re)
	loc := find(re, text)
	if loc == nil {
		r.Observed = "no match"
		r.set(status.Pass, "assistant text does not match `%s`", re)
		return
	}
	ex := around(text, loc)
	r.Observed = fmt.Sprintf("match %s", quote(text[loc[0]:loc[1]]))
	r.Evidence = []Evidence{{Note: "forbidden match", Text: ex, EventRefs: textRefs(s)}}
	r.set(status.Fail, "assistant text in %s matches forbidden `%s`: %s", s.Name, re, quote(ex))
}

func find(re *vars.Regex, s string) []int {
	c := re.Compiled()
	if c == nil {
		return nil
	}
	return c.FindStringIndex(s)
}

func observedText(text string) string {
	if text == "" {
		return "no assistant text"
	}
	return quote(text)
}

// around returns the match with up to contextLen characters either side.
func around(s string, loc []int) string {
	start, end := loc[0], loc[1]
	for i := 0; i < contextLen && start > 0; i++ {
		start = prevRune(s, start)
	}
	for i := 0; i < contextLen && end < len(s); i++ {
		end = nextRune(s, end)
	}
	ex := s[start:end]
	if start > 0 {
		ex = "…" + ex
	}
	if end < len(s) {
		ex += "…"
	}
	return ex
}

func prevRune(s string, i int) int {
	i--
	for i > 0 && s[i]&0xC0 == 0x80 {
		i--
	}
	return i
}

func nextRune(s string, i int) int {
	i++
	for i < len(s) && s[i]&0xC0 == 0x80 {
		i++
	}
	return i
}
