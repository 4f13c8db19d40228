package historytable

import (
	"fmt"
	"strings"

	"github.com/ananke/action/reporters/markdown"
)

// Markdown renders the table as GitHub-flavoured markdown: the headline in
// bold, then a table per non-empty section. Names and places are escaped
// as reporters/markdown escapes them.
func Markdown(t *Table) string {
	var b strings.Builder
	b.WriteString("**History: " + markdown.Text(t.Headline()) + "**\n")
	secs := t.sections()
	if len(secs) == 0 && len(t.Runs) > 0 {
		b.WriteString("\nNo test was flaky or failing, and no duration or usage is known.\n")
	}
	legend := false
	for _, s := range secs {
		fmt.Fprintf(&b, "\n**%s (%d)**\n\n|", markdown.Text(s.title), len(s.sec.Facts)+s.sec.More)
		for _, c := range s.cols {
			b.WriteString(" " + markdown.Text(c.head) + " |")
			legend = legend || c.head == "runs, oldest first"
		}
		b.WriteString(" test |\n|" + strings.Repeat(" --- |", len(s.cols)+1) + "\n")
		for i := range s.sec.Facts {
			f := &s.sec.Facts[i]
			b.WriteString("|")
			for _, c := range s.cols {
				cell := c.cell(f)
				if c.head == "runs, oldest first" {
					cell = markdown.Code(cell, true)
				} else {
					cell = markdown.Text(cell)
				}
				b.WriteString(" " + cell + " |")
			}
			b.WriteString(" " + markdown.Text(clean(f.Test.Name)))
			if p := place(f.Test); p != "" {
				b.WriteString(" " + markdown.Code(clean(p), true))
			}
			b.WriteString(" |\n")
		}
		if s.sec.More > 0 {
			fmt.Fprintf(&b, "\n… and %d more\n", s.sec.More)
		}
	}
	if legend {
		b.WriteString("\n" + markdown.Text(Legend) + "\n")
	}
	return b.String()
}
