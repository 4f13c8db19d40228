package markdown

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// wordJoiner (U+2060) is invisible but splits "@user", "#12", "GH-12",
// "www." and "://", so that GitHub neither notifies the user, links the
// issue nor autolinks the URL, while the reader still sees the same text.
const wordJoiner = "\u2060"

// hidden reports a character that must not reach the output raw: C0 and C1
// controls (ESC would survive into logs, CR and NEL end lines), line and
// paragraph separators, and the bidirectional overrides that can make text
// read differently from what it is. Tab is kept: it is plain whitespace.
func hidden(r rune) bool {
	switch {
	case r == '\t':
		return false
	case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
		return true
	case r == 0x2028, r == 0x2029, r == 0x200e, r == 0x200f, r == 0xfeff:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// visible returns s as valid UTF-8 with every hidden character shown as an
// escape (\x1b, \u202e). Line breaks become "\n" when keepLines is set (in
// a code block) and "⏎" otherwise, so that one-line contexts stay one line.
func visible(s string, keepLines bool) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if !strings.ContainsFunc(s, hidden) {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n' && keepLines:
			b.WriteByte('\n')
		case r == '\n':
			b.WriteString("⏎")
		case hidden(r) && r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		case hidden(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// text escapes untrusted text for a markdown paragraph, list item or table
// cell, on one line. HTML's & < > become entities; markdown punctuation
// that could start emphasis, code, links, images, tables, strikethrough or
// math is backslash-escaped ("(" only after "]", which is all a link
// needs; "_" only where it could emphasize, so snake_case stays readable);
// mentions, references and autolinks are broken by a word joiner.
func text(s string) string {
	return escape(s, func(b *strings.Builder, rs []rune, i int) {
		r := rs[i]
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '\\', '*', '`', '~', '|', '$', '[', ']':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '_':
			if !(wordRune(rs, i-1) && wordRune(rs, i+1)) {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		case '(':
			if i > 0 && rs[i-1] == ']' {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	})
}

// html escapes untrusted text for raw HTML such as <summary>, where a
// backslash would show as is. GitHub does not parse markdown there, but
// markdown punctuation becomes numeric entities all the same, which read
// the same in HTML and are inert in markdown, should a renderer parse it.
func html(s string) string {
	return escape(s, func(b *strings.Builder, rs []rune, i int) {
		switch r := rs[i]; r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '"', '\\', '*', '`', '~', '|', '$', '[', ']':
			fmt.Fprintf(b, "&#%d;", r)
		case '_':
			if wordRune(rs, i-1) && wordRune(rs, i+1) {
				b.WriteRune(r)
			} else {
				fmt.Fprintf(b, "&#%d;", r)
			}
		default:
			b.WriteRune(r)
		}
	})
}

// escape makes s one visible line, then writes each rune with write and
// breaks GitHub's mentions, references and autolinks.
func escape(s string, write func(b *strings.Builder, rs []rune, i int)) string {
	rs := []rune(visible(s, false))
	var b strings.Builder
	b.Grow(len(s))
	for i := range rs {
		if autolinkBefore(rs, i) {
			b.WriteString(wordJoiner)
		}
		write(&b, rs, i)
		if autolinkAfter(rs, i) {
			b.WriteString(wordJoiner)
		}
	}
	return b.String()
}

// autolinkAfter reports a rune after which GitHub would start a mention
// (@user, also e-mail addresses), an issue reference (#12, GH-12) or a
// URL (http://).
func autolinkAfter(rs []rune, i int) bool {
	switch rs[i] {
	case '@', '#':
		return true
	case ':':
		return at(rs, i+1) == '/' && at(rs, i+2) == '/'
	case '-':
		return i >= 2 && unicode.ToLower(rs[i-2]) == 'g' && unicode.ToLower(rs[i-1]) == 'h' && unicode.IsDigit(at(rs, i+1))
	}
	return false
}

// autolinkBefore reports the "." of "www.", which GitHub autolinks.
func autolinkBefore(rs []rune, i int) bool {
	return rs[i] == '.' && i >= 3 && strings.EqualFold(string(rs[i-3:i]), "www")
}

func at(rs []rune, i int) rune {
	if i < 0 || i >= len(rs) {
		return 0
	}
	return rs[i]
}

func wordRune(rs []rune, i int) bool {
	r := at(rs, i)
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// code renders s as a code span, which GitHub shows verbatim: no markdown,
// HTML, mentions or links inside. The delimiter is one backtick longer than
// any run in s. In a table cell "|" still splits cells, even in code, so
// cell escapes it as "\|", the one escape GFM honours there. Empty s gives
// "".
func code(s string, cell bool) string {
	s = visible(s, false)
	if s == "" {
		return ""
	}
	delim := strings.Repeat("`", longestRun(s, '`')+1)
	// A span that starts or ends with a backtick, or with a space on both
	// sides, loses one space on each side: pad so nothing of s is lost.
	pad := ""
	if s[0] == '`' || s[len(s)-1] == '`' || (s[0] == ' ' && s[len(s)-1] == ' ' && strings.Trim(s, " ") != "") {
		pad = " "
	}
	if cell {
		s = strings.ReplaceAll(s, "|", `\|`)
	}
	return delim + pad + s + pad + delim
}

// inline renders an Ananke message, where `…` marks code (the user's
// patterns, tool names), as text with code spans. Unpaired backticks stay
// text. Whatever the split, each part is escaped for where it lands, so a
// message quoting the agent is safe even when it misleads the split.
func inline(s string) string {
	parts := strings.Split(s, "`")
	var b strings.Builder
	for i, p := range parts {
		switch {
		case i%2 == 0:
			b.WriteString(text(p))
		case i == len(parts)-1: // an opening backtick that is never closed
			b.WriteString(text("`" + p))
		case p == "":
			b.WriteString(text("``"))
		default:
			b.WriteString(code(p, false))
		}
	}
	return b.String()
}

// fence renders s in a fenced code block, lines kept. The fence is longer
// than any run of backticks in s, so nothing in s can close it.
func fence(s string) string {
	s = strings.TrimRight(visible(s, true), "\n")
	f := strings.Repeat("`", max(3, longestRun(s, '`')+1))
	return f + "text\n" + s + "\n" + f + "\n"
}

func longestRun(s string, c byte) int {
	longest, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			longest = max(longest, n)
		} else {
			n = 0
		}
	}
	return longest
}

// truncate cuts s to at most n bytes on a rune boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
