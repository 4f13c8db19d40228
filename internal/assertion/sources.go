package assertion

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/ananke/action/internal/trace"
)

// sourceNumberRes find the numbers a source supports: every substring that
// spells a number with thousands separators, and every one that spells it
// without, so that "[3,500]" supports 3, 500 and 3500. Permissive on
// purpose: a source supports a number written anywhere in it, identifiers
// and JSON included ("A-100" supports 100, {"temp_c":21} supports 21).
var sourceNumberRes = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		regexp.MustCompile(`\d{1,3}(?:,\d{3})+(?:\.\d+)?`),
		regexp.MustCompile(`\d+(?:\.\d+)?`),
	}
})

// support is what the test supplied so far, as grounded sees it.
type support struct {
	texts   []string
	numbers map[string]bool
	// urls caches supports' answer per URL: a reply may repeat one many
	// times, and each answer scans every source.
	urls map[string]bool
}

// supportOf gathers the sources of the scope's claims: the user messages,
// tool arguments and tool results (errors included) of the scope's turns
// and of the turns before it, and the history the test placed before its
// first turn. The assistant's own earlier text is not a source.
func supportOf(s trace.Scope) *support {
	sup := &support{numbers: map[string]bool{}, urls: map[string]bool{}}
	for _, turns := range [][]trace.Turn{s.Prior, s.Turns} {
		for i := range turns {
			sup.add(turns[i].UserText)
			for _, c := range turns[i].ToolCalls {
				sup.add(c.Args)
				if c.Result != nil {
					sup.add(c.Result.Content)
					sup.add(c.Result.Error)
				}
			}
		}
	}
	for _, m := range s.History {
		sup.add(m.Content)
	}
	return sup
}

// add records a source text. A JSON text also contributes its string
// values, unescaped ("https:\/\/x" is https://x; a string holding JSON is
// read in turn), and its numbers in canonical form (1e3 is 1000).
func (sup *support) add(text string) {
	if text == "" {
		return
	}
	sup.texts = append(sup.texts, text)
	for _, re := range sourceNumberRes() {
		for _, m := range re.FindAllString(text, -1) {
			if v, ok := normalizeNumber(m); ok {
				sup.numbers[v] = true
			}
		}
	}
	if !json.Valid([]byte(text)) {
		return
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(text)))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) == nil {
		sup.addJSON(v)
	}
}

func (sup *support) addJSON(v any) {
	switch v := v.(type) {
	case string:
		sup.add(v)
	case json.Number:
		if f, err := v.Float64(); err == nil {
			sup.numbers[strconv.FormatFloat(f, 'f', -1, 64)] = true
		}
	case map[string]any:
		for k, e := range v {
			sup.add(k)
			sup.addJSON(e)
		}
	case []any:
		for _, e := range v {
			sup.addJSON(e)
		}
	}
}

// supports reports whether a claim appears in the sources. A number is
// supported when some source holds the same normalized value. A URL is
// supported when its normalized form occurs in a source text and the
// occurrence does not run on into a longer name: the next character is
// not a letter, digit, '-', '_', '~' or '%', nor a '.' followed by a letter
// or digit. So https://x.example/a is supported by https://x.example/a/,
// https://x.example/a?id=1 or "https://x.example/a." but not by
// https://x.example/api or https://x.example.evil.test. The comparison is
// case-sensitive.
func (sup *support) supports(c claim) bool {
	if !c.URL {
		return sup.numbers[c.Value]
	}
	ok, known := sup.urls[c.Value]
	if !known {
		ok = slices.ContainsFunc(sup.texts, func(t string) bool { return occursWhole(t, c.Value) })
		sup.urls[c.Value] = ok
	}
	return ok
}

// occursWhole reports whether name occurs in t without running on.
func occursWhole(t, name string) bool {
	for off := 0; ; {
		i := strings.Index(t[off:], name)
		if i < 0 {
			return false
		}
		if !runsOn(t[off+i+len(name):]) {
			return true
		}
		off += i + 1
	}
}

// runsOn reports whether rest continues the name before it.
func runsOn(rest string) bool {
	r, n := utf8.DecodeRuneInString(rest)
	switch {
	case n == 0:
		return false
	case r == '.':
		next, _ := utf8.DecodeRuneInString(rest[n:])
		return unicode.IsLetter(next) || unicode.IsDigit(next)
	}
	return wordRune(r) || strings.ContainsRune("-~%", r)
}
