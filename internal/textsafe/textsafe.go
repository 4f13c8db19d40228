// Package textsafe makes untrusted text (an agent's answer, a hook's
// stderr) safe to show in a terminal, a CI log or a GitHub annotation:
// an escape sequence in an agent's output must not recolour, hide or
// rewrite what the reader sees.
package textsafe

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Visible replaces control characters with visible escapes (\x1b), invalid
// UTF-8 with U+FFFD, and — unless keepNewlines — newlines with ⏎, so the
// text stays on one line. Tabs are kept.
func Visible(s string, keepNewlines bool) string {
	if utf8.ValidString(s) && !strings.ContainsFunc(s, func(r rune) bool { return unsafe(r, keepNewlines) }) {
		return s
	}
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case r == '\n' && !keepNewlines:
			b.WriteString("⏎")
		case unsafe(r, keepNewlines):
			fmt.Fprintf(&b, "\\x%02x", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// unsafe reports a C0 or C1 control character other than tab (and newline
// when kept).
func unsafe(r rune, keepNewlines bool) bool {
	if r == '\t' || (r == '\n' && keepNewlines) {
		return false
	}
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0)
}
