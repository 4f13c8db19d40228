package console

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// clean makes text from agents, hooks and files safe to print on one line
// of a terminal: an escape sequence in an agent's answer must not recolour
// or rewrite the user's terminal or CI log. Control characters become
// visible escapes (\x1b), newlines ⏎, invalid UTF-8 U+FFFD. Ananke's own
// colours are added after cleaning, by paint.
func clean(s string) string {
	if utf8.ValidString(s) && !strings.ContainsFunc(s, unsafe) {
		return s
	}
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case r == '\n':
			b.WriteString("⏎")
		case unsafe(r):
			fmt.Fprintf(&b, "\\x%02x", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// unsafe reports a C0 or C1 control character other than tab.
func unsafe(r rune) bool {
	return r != '\t' && (r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0))
}
