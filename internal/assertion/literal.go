package assertion

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// contains passes when the scope's assistant text contains t.Text
// literally, ignoring case unless t.CaseSensitive (docs/files.md).
func contains(r *Result, t *TextCheck, s trace.Scope) {
	text := s.Text()
	r.Expected = fmt.Sprintf("assistant text containing %s%s", quote(t.Text), caseNote(t))
	refs := textRefs(s)
	if loc := findLiteral(text, t); loc != nil {
		r.Observed = fmt.Sprintf("contains %s at char %d", quote(text[loc[0]:loc[1]]), runeOffset(text, loc[0]))
		r.Evidence = []Evidence{{Note: "match", Text: around(text, loc), EventRefs: refs}}
		r.set(status.Pass, "assistant text contains %s", quote(t.Text))
		return
	}
	r.Observed = observedText(text)
	r.Evidence = []Evidence{{Note: "assistant text", Text: shorten(text, 400), EventRefs: refs}}
	r.set(status.Fail, "assistant text in %s does not contain %s%s: %s", s.Name, quote(t.Text), sensitiveNote(t), observedText(text))
}

// omits passes when the scope's assistant text does not contain t.Text,
// with contains' case rule. A failure shows the text around the first
// occurrence.
func omits(r *Result, t *TextCheck, s trace.Scope) {
	text := s.Text()
	r.Expected = fmt.Sprintf("assistant text without %s%s", quote(t.Text), caseNote(t))
	loc := findLiteral(text, t)
	if loc == nil {
		r.Observed = "not found"
		r.set(status.Pass, "assistant text does not contain %s", quote(t.Text))
		return
	}
	ex := around(text, loc)
	r.Observed = fmt.Sprintf("contains %s at char %d", quote(text[loc[0]:loc[1]]), runeOffset(text, loc[0]))
	r.Evidence = []Evidence{{Note: "text it must omit", Text: ex, EventRefs: textRefs(s)}}
	r.set(status.Fail, "assistant text in %s contains %s, which it must omit: %s", s.Name, quote(t.Text), quote(ex))
}

// equals passes when the scope's whole assistant text, trimmed of leading
// and trailing white space, equals t.Text (trimmed too), with contains'
// case rule. A failure says where the two first differ.
func equals(r *Result, t *TextCheck, s trace.Scope) {
	got, want := strings.TrimSpace(s.Text()), strings.TrimSpace(t.Text)
	r.Expected = fmt.Sprintf("assistant text equal to %s%s, ignoring surrounding white space", quote(want), caseNote(t))
	r.Observed = observedText(got)
	if same(got, want, t.CaseSensitive) {
		r.set(status.Pass, "assistant text equals %s", quote(want))
		return
	}
	r.Evidence = []Evidence{{Note: "assistant text", Text: shorten(got, 400), EventRefs: textRefs(s)}}
	if got == "" {
		r.set(status.Fail, "assistant text in %s is empty, expected %s", s.Name, quote(want))
		return
	}
	r.set(status.Fail, "assistant text in %s is %s, expected %s%s (%s)", s.Name, quote(got), quote(want), sensitiveNote(t), difference(got, want, t.CaseSensitive))
}

// difference says briefly how got differs from want, in characters.
func difference(got, want string, caseSensitive bool) string {
	g, w := []rune(got), []rune(want)
	i := 0
	for i < len(g) && i < len(w) && same(string(g[i]), string(w[i]), caseSensitive) {
		i++
	}
	switch {
	case i == len(w):
		return fmt.Sprintf("the reply goes on after char %d: %s", i, quote(string(g[i:])))
	case i == len(g):
		return fmt.Sprintf("the reply stops at char %d, before %s", i, quote(string(w[i:])))
	}
	return fmt.Sprintf("they first differ at char %d: %s vs %s", i, quote(string(g[i])), quote(string(w[i])))
}

func same(a, b string, caseSensitive bool) bool {
	if caseSensitive {
		return a == b
	}
	return strings.EqualFold(a, b)
}

// findLiteral returns the byte span of the first occurrence of t.Text in
// text, or nil. Case-insensitive search goes through a quoted regexp so
// that the span is in text's own bytes even where case folding changes a
// character's length.
func findLiteral(text string, t *TextCheck) []int {
	if t.CaseSensitive {
		if i := strings.Index(text, t.Text); i >= 0 {
			return []int{i, i + len(t.Text)}
		}
		return nil
	}
	return regexp.MustCompile("(?i)" + regexp.QuoteMeta(t.Text)).FindStringIndex(text)
}

func caseNote(t *TextCheck) string {
	if t.CaseSensitive {
		return " (case-sensitive)"
	}
	return " (ignoring case)"
}

// sensitiveNote reminds a failure message that case mattered.
func sensitiveNote(t *TextCheck) string {
	if t.CaseSensitive {
		return " (case-sensitive)"
	}
	return ""
}

// runeOffset converts a byte offset in s to characters.
func runeOffset(s string, i int) int { return utf8.RuneCountInString(s[:i]) }
