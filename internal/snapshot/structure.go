package snapshot

import (
	"strconv"
	"strings"

	"github.com/ananke/action/internal/plural"
)

// The shape of a reply (TextStructure): its markdown blocks in order, one
// line each, without their words —
//
//	heading 2
//	2 paragraphs
//	list of 3 items
//	numbered list of 2 items
//	code block (go)
//	table of 2 rows × 3 columns
//	quote
//
// Paragraphs in a row are counted on one line; the items of a list
// include its nested items; a table's rows are those below its header.

var (
	headingRE   = lazyRE(`^ {0,3}(#{1,6})(?:[ \t]|$)`)
	fenceRE     = lazyRE("^ {0,3}(```+|~~~+)[ \t]*([^`\\s]*)")
	itemRE      = lazyRE(`^\s*(?:[-*+]|(\d{1,9})[.)])(?:[ \t]|$)`)
	quoteRE     = lazyRE(`^ {0,3}>`)
	ruleRE      = lazyRE(`^ {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$`)
	setext1RE   = lazyRE(`^ {0,3}=+[ \t]*$`)
	setext2RE   = lazyRE(`^ {0,3}-+[ \t]*$`)
	tableSepRE  = lazyRE(`^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$`)
	indentedRE  = lazyRE(`^(?: {2,}|\t)\S`)
	blankLineRE = lazyRE(`^\s*$`)
)

// structure returns the shape of a markdown text.
func structure(text string) []string {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	s := &shaper{out: []string{}}
	for i := 0; i < len(lines); {
		i = s.block(lines, i)
	}
	s.flush()
	return s.out
}

type shaper struct {
	out        []string
	paragraphs int
}

func (s *shaper) emit(line string) {
	s.flush()
	s.out = append(s.out, line)
}

// flush writes the paragraphs counted so far.
func (s *shaper) flush() {
	if s.paragraphs > 0 {
		s.out = append(s.out, plural.Count(s.paragraphs, "paragraph"))
		s.paragraphs = 0
	}
}

// block reads the block starting at line i and returns the line after it.
func (s *shaper) block(lines []string, i int) int {
	line := lines[i]
	switch {
	case blankLineRE().MatchString(line):
		return i + 1
	case fenceRE().MatchString(line):
		return s.code(lines, i)
	case headingRE().MatchString(line):
		s.emit("heading " + strconv.Itoa(len(headingRE().FindStringSubmatch(line)[1])))
		return i + 1
	case ruleRE().MatchString(line):
		return i + 1
	case itemRE().MatchString(line):
		return s.list(lines, i)
	case quoteRE().MatchString(line):
		for i < len(lines) && !blankLineRE().MatchString(lines[i]) {
			i++
		}
		s.emit("quote")
		return i
	case i+1 < len(lines) && strings.Contains(line, "|") && tableSepRE().MatchString(lines[i+1]) && strings.Contains(lines[i+1], "-"):
		return s.table(lines, i)
	}
	return s.paragraph(lines, i)
}

// code reads a fenced code block.
func (s *shaper) code(lines []string, i int) int {
	m := fenceRE().FindStringSubmatch(lines[i])
	fence, lang := m[1], m[2]
	name := "code block"
	if lang != "" {
		name += " (" + lang + ")"
	}
	s.emit(name)
	for i++; i < len(lines); i++ {
		if t := strings.TrimSpace(lines[i]); strings.HasPrefix(t, fence[:3]) && strings.Trim(t, fence[:1]) == "" && len(t) >= len(fence) {
			return i + 1
		}
	}
	return i
}

// list reads a list: its items, nested ones included, and the lines that
// continue them, up to a blank line followed by something else.
func (s *shaper) list(lines []string, i int) int {
	first := itemRE().FindStringSubmatch(lines[i])
	items := 0
	for i < len(lines) {
		line := lines[i]
		switch {
		case itemRE().MatchString(line):
			items++
		case blankLineRE().MatchString(line):
			if i+1 >= len(lines) || !(itemRE().MatchString(lines[i+1]) || indentedRE().MatchString(lines[i+1])) {
				s.emitList(first[1] != "", items)
				return i + 1
			}
		case indentedRE().MatchString(line), !blankLineRE().MatchString(lines[i-1]) && !headingRE().MatchString(line) && !fenceRE().MatchString(line):
			// a continuation of the item
		default:
			s.emitList(first[1] != "", items)
			return i
		}
		i++
	}
	s.emitList(first[1] != "", items)
	return i
}

func (s *shaper) emitList(numbered bool, items int) {
	name := "list of "
	if numbered {
		name = "numbered list of "
	}
	s.emit(name + plural.Count(items, "item"))
}

// table reads a table: its header, the separator, then its rows.
func (s *shaper) table(lines []string, i int) int {
	cols := len(cells(lines[i]))
	rows := 0
	for i += 2; i < len(lines) && strings.Contains(lines[i], "|") && !blankLineRE().MatchString(lines[i]); i++ {
		rows++
	}
	s.emit("table of " + plural.Count(rows, "row") + " × " + plural.Count(cols, "column"))
	return i
}

// cells splits a table row into its cells.
func cells(row string) []string {
	row = strings.TrimSpace(row)
	row = strings.TrimPrefix(row, "|")
	row = strings.TrimSuffix(row, "|")
	return strings.Split(row, "|")
}

// paragraph reads a paragraph, or a setext heading (a line underlined
// with = or -).
func (s *shaper) paragraph(lines []string, i int) int {
	for i++; i < len(lines); i++ {
		line := lines[i]
		switch {
		case setext1RE().MatchString(line):
			s.emit("heading 1")
			return i + 1
		case setext2RE().MatchString(line):
			s.emit("heading 2")
			return i + 1
		case blankLineRE().MatchString(line), fenceRE().MatchString(line), headingRE().MatchString(line), quoteRE().MatchString(line),
			ruleRE().MatchString(line), itemRE().MatchString(line):
			s.paragraphs++
			return i
		}
	}
	s.paragraphs++
	return i
}
