package jsonpath

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// parseJSONPath reads s, which starts with $: a root and its segments.
func parseJSONPath(s string) ([]step, error) {
	p := parser{s: s, i: 1}
	var steps []step
	for p.i < len(s) {
		st, err := p.segment()
		if err != nil {
			return nil, err
		}
		steps = append(steps, st)
	}
	return steps, nil
}

type parser struct {
	s string
	i int // the next byte
}

func (p *parser) fail(at int, format string, args ...any) error {
	return &Error{Offset: at, Msg: fmt.Sprintf(format, args...)}
}

// segment reads .name, .* or [selector].
func (p *parser) segment() (step, error) {
	at := p.i
	switch p.s[p.i] {
	case '.':
		p.i++
		if p.i == len(p.s) {
			return step{}, p.fail(at, "a path ends with a dot: write a member name after it ($.reply)")
		}
		switch c := p.s[p.i]; {
		case c == '.':
			return step{}, p.fail(at, "recursive descent (..) is not supported: write each step ($.a.b)")
		case c == '*':
			p.i++
			return step{kind: wildcard}, nil
		case c == '[':
			return step{}, p.fail(at, "a dot before [ is not JSONPath: write $.a[0] or $.a['b']")
		}
		return p.name()
	case '[':
		return p.bracket()
	}
	return step{}, p.fail(at, "%s cannot follow a step: write .name, ['name'], [0] or [*]", quoteByte(p.s, at))
}

// name reads a member name shorthand: a letter, _ or a non-ASCII
// character, then those or digits (RFC 9535 §2.5.1.1).
func (p *parser) name() (step, error) {
	start := p.i
	for p.i < len(p.s) {
		r, size := utf8.DecodeRuneInString(p.s[p.i:])
		if r == utf8.RuneError && size == 1 {
			return step{}, p.fail(p.i, "a path must be valid UTF-8")
		}
		if !nameChar(r) || p.i == start && r >= '0' && r <= '9' {
			break
		}
		p.i += size
	}
	if p.i == start {
		return step{}, p.fail(start, "%s cannot start a member name: write ['%s'] for a name of any characters",
			quoteByte(p.s, start), strings.ReplaceAll(strings.ReplaceAll(p.rest(start), `\`, `\\`), `'`, `\'`))
	}
	if p.i < len(p.s) && p.s[p.i] != '.' && p.s[p.i] != '[' {
		return step{}, p.fail(p.i, "%s cannot be in a member name shorthand: write ['%s'] for a name of any characters",
			quoteByte(p.s, p.i), strings.ReplaceAll(strings.ReplaceAll(p.rest(start), `\`, `\\`), `'`, `\'`))
	}
	return step{kind: member, name: p.s[start:p.i]}, nil
}

// rest is the text from start to the next dot or bracket: the name the
// user meant.
func (p *parser) rest(start int) string {
	end := start + strings.IndexAny(p.s[start:]+".", ".[")
	return p.s[start:end]
}

func nameChar(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r >= 0x80
}

// bracket reads [selector]: a quoted name, an index or *.
func (p *parser) bracket() (step, error) {
	open := p.i
	p.i++
	p.space()
	if p.i == len(p.s) {
		return step{}, p.fail(open, "[ is not closed: write [0], ['name'] or [*]")
	}
	var st step
	at := p.i
	switch c := p.s[p.i]; {
	case c == '\'' || c == '"':
		name, err := p.quoted()
		if err != nil {
			return step{}, err
		}
		st = step{kind: member, name: name}
	case c == '*':
		p.i++
		st = step{kind: wildcard}
	case c == '-' || c >= '0' && c <= '9':
		n, err := p.integer()
		if err != nil {
			return step{}, err
		}
		st = step{kind: index, index: n}
	case c == '?':
		return step{}, p.fail(at, "filters ([?...]) are not supported: select by index or name")
	case c == ':':
		return step{}, p.fail(at, "slices ([start:end]) are not supported: write [*] or one index")
	case c == ']':
		return step{}, p.fail(at, "[] is empty: write [0], ['name'] or [*]")
	default:
		return step{}, p.fail(at, "%s cannot start a selector: write [0], ['name'] or [*]", quoteByte(p.s, at))
	}
	p.space()
	if p.i == len(p.s) {
		return step{}, p.fail(open, "[ is not closed: write ] after the selector")
	}
	switch p.s[p.i] {
	case ']':
		p.i++
		return st, nil
	case ',':
		return step{}, p.fail(p.i, "unions ([a,b]) are not supported: write one selector per step")
	case ':':
		return step{}, p.fail(p.i, "slices ([start:end]) are not supported: write [*] or one index")
	}
	return step{}, p.fail(p.i, "%s cannot follow a selector: close it with ]", quoteByte(p.s, p.i))
}

// space skips blank space, which may surround a selector.
func (p *parser) space() {
	for p.i < len(p.s) && strings.IndexByte(" \t\n\r", p.s[p.i]) >= 0 {
		p.i++
	}
}

// integer reads an index: an optional minus and digits, without leading
// zeros, that fits in an int.
func (p *parser) integer() (int, error) {
	start := p.i
	if p.s[p.i] == '-' {
		p.i++
	}
	digits := p.i
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		p.i++
	}
	text := p.s[start:p.i]
	switch {
	case p.i == digits:
		return 0, p.fail(start, "a minus must be followed by digits: write [-1] for the last element")
	case p.s[digits] == '0' && p.i-digits > 1:
		return 0, p.fail(start, "index %s has a leading zero", text)
	case text == "-0":
		return 0, p.fail(start, "index -0 is not an index: write [0]")
	}
	n, err := strconv.Atoi(text)
	if err != nil {
		return 0, p.fail(start, "index %s is too large", text)
	}
	return n, nil
}

// quoted reads a name in single or double quotes, with the escapes of a
// JSON string (and \' in single quotes).
func (p *parser) quoted() (string, error) {
	open := p.i
	q := p.s[p.i]
	p.i++
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == q:
			p.i++
			return b.String(), nil
		case c == '\\':
			if err := p.escape(&b, q); err != nil {
				return "", err
			}
		case c < 0x20:
			return "", p.fail(p.i, "a control character must be escaped in a quoted name")
		default:
			r, size := utf8.DecodeRuneInString(p.s[p.i:])
			if r == utf8.RuneError && size == 1 {
				return "", p.fail(p.i, "a path must be valid UTF-8")
			}
			b.WriteString(p.s[p.i : p.i+size])
			p.i += size
		}
	}
	return "", p.fail(open, "the quoted name is not closed: end it with %c", q)
}

// escape reads one escape sequence into b.
func (p *parser) escape(b *strings.Builder, q byte) error {
	at := p.i
	p.i++
	if p.i == len(p.s) {
		return p.fail(at, `a backslash ends the path: write \\ for a backslash`)
	}
	c := p.s[p.i]
	p.i++
	switch c {
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 'n':
		b.WriteByte('\n')
	case 'r':
		b.WriteByte('\r')
	case 't':
		b.WriteByte('\t')
	case '/', '\\':
		b.WriteByte(c)
	case '\'', '"':
		if c != q {
			return p.fail(at, `\%c is not an escape inside %c quotes: write %c`, c, q, c)
		}
		b.WriteByte(c)
	case 'u':
		r, err := p.hex4(at)
		if err != nil {
			return err
		}
		if r >= 0xD800 && r < 0xDC00 { // a high surrogate: its low one follows
			if !strings.HasPrefix(p.s[p.i:], `\u`) {
				return p.fail(at, "\\u%04X is half a surrogate pair: its low half must follow", r)
			}
			p.i += 2
			lo, err := p.hex4(at)
			if err != nil {
				return err
			}
			if lo < 0xDC00 || lo > 0xDFFF {
				return p.fail(at, "\\u%04X is half a surrogate pair: \\u%04X is not its low half", r, lo)
			}
			r = (r-0xD800)<<10 + (lo - 0xDC00) + 0x10000
		} else if r >= 0xDC00 && r <= 0xDFFF {
			return p.fail(at, "\\u%04X is the low half of a surrogate pair alone", r)
		}
		b.WriteRune(r)
	default:
		return p.fail(at, `\%s is not an escape: write \\ for a backslash`, string(rune(c)))
	}
	return nil
}

// hex4 reads the four hex digits of a \u escape that starts at at.
func (p *parser) hex4(at int) (rune, error) {
	if len(p.s)-p.i < 4 {
		return 0, p.fail(at, `\u takes four hex digits`)
	}
	n, err := strconv.ParseUint(p.s[p.i:p.i+4], 16, 32)
	if err != nil {
		return 0, p.fail(at, `\u takes four hex digits`)
	}
	p.i += 4
	return rune(n), nil
}

// parsePointer reads a JSON Pointer: each token after a slash, ~1 read as
// "/" and ~0 as "~" (RFC 6901). A token selects an object's member by
// name, or an array's element by its index.
func parsePointer(s string) ([]step, error) {
	var steps []step
	for i := 0; i < len(s); {
		i++ // the slash
		end := i + strings.IndexByte(s[i:]+"/", '/')
		tok := s[i:end]
		if !utf8.ValidString(tok) {
			return nil, &Error{i, "a path must be valid UTF-8"}
		}
		if strings.Contains(tok, "~") {
			var err error
			if tok, err = unescapeToken(tok, i); err != nil {
				return nil, err
			}
		}
		steps = append(steps, step{kind: pointer, name: tok})
		i = end
	}
	return steps, nil
}

// unescapeToken reads ~0 and ~1 in a pointer's token that starts at
// offset at.
func unescapeToken(tok string, at int) (string, error) {
	var b strings.Builder
	for i := 0; i < len(tok); i++ {
		if tok[i] != '~' {
			b.WriteByte(tok[i])
			continue
		}
		if i+1 == len(tok) || tok[i+1] != '0' && tok[i+1] != '1' {
			return "", &Error{at + i, "~ must be followed by 0 (for ~) or 1 (for /) in a JSON Pointer"}
		}
		if tok[i+1] == '0' {
			b.WriteByte('~')
		} else {
			b.WriteByte('/')
		}
		i++
	}
	return b.String(), nil
}

// quoteByte names the character at offset i of s for a message.
func quoteByte(s string, i int) string {
	r, _ := utf8.DecodeRuneInString(s[i:])
	return strconv.QuoteRune(r)
}
