package diag

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Pos is a position in a source file. Line and Col are 1-based; Col counts
// characters. The zero Pos means "no position".
type Pos struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
}

// String returns "file:line:col", the form editors and problem matchers read.
func (p Pos) String() string {
	switch {
	case p.File == "":
		return "-"
	case p.Line == 0:
		return p.File
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// IsValid reports whether p names a file.
func (p Pos) IsValid() bool { return p.File != "" }

// Diagnostic is one problem found in a file.
type Diagnostic struct {
	Pos     Pos
	Message string
}

func (d Diagnostic) String() string { return d.Pos.String() + ": " + d.Message }

// Diagnostics is every problem found while loading. It implements error so
// that a load can return all of them at once.
type Diagnostics []Diagnostic

// Error prints one diagnostic per line, sorted.
func (ds Diagnostics) Error() string {
	sorted := ds.Sorted()
	lines := make([]string, len(sorted))
	for i, d := range sorted {
		lines[i] = d.String()
	}
	return strings.Join(lines, "\n")
}

// Sorted returns the diagnostics ordered by file, line, column and message,
// without duplicates.
func (ds Diagnostics) Sorted() Diagnostics {
	out := slices.Clone(ds)
	slices.SortStableFunc(out, func(a, b Diagnostic) int {
		return cmp.Or(
			cmp.Compare(a.Pos.File, b.Pos.File),
			cmp.Compare(a.Pos.Line, b.Pos.Line),
			cmp.Compare(a.Pos.Col, b.Pos.Col),
			cmp.Compare(a.Message, b.Message),
		)
	})
	return slices.Compact(out)
}

func (ds *Diagnostics) Add(p Pos, format string, args ...any) {
	*ds = append(*ds, Diagnostic{Pos: p, Message: fmt.Sprintf(format, args...)})
}
