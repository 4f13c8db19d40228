package markdown

// The escapes below are exported for the reporters that write markdown
// of their own beside this package's (reporters/diff), so that untrusted
// text is made safe one way everywhere.

// Text escapes untrusted text for a paragraph, list item or table cell, on
// one line: no emphasis, links, HTML, mentions or issue references.
func Text(s string) string { return text(s) }

// Code renders untrusted text as a code span, shown verbatim; cell escapes
// "|" for a table cell. Empty s gives "".
func Code(s string, cell bool) string { return code(s, cell) }

// Inline renders an Ananke message, where `…` marks code, as escaped text
// with code spans.
func Inline(s string) string { return inline(s) }

// Href is base + file + "#L" + line, the file percent-encoded: the link to
// a line of a file in the repository.
func Href(base, file string, line int) string { return href(base, file, line) }
