package html

import (
	"bufio"
	_ "embed"
	"fmt"
	"io"
	"strings"

	"github.com/ananke/action/internal/report"
)

// The page's parts, kept as files so that each reads as what it is.
var (
	//go:embed assets/page.html
	pageHTML string
	//go:embed assets/style.css
	styleCSS string
	//go:embed assets/app.js
	appJS string
)

// Markers in page.html where the style, the data and the script go.
const (
	styleMark  = "/*STYLE*/"
	dataMark   = "/*DATA*/"
	scriptMark = "/*SCRIPT*/"
)

// Write writes the report as one self-contained HTML page: its style,
// script and data inline, nothing loaded from anywhere.
func Write(w io.Writer, r *report.Report) error {
	head, rest, _ := strings.Cut(pageHTML, styleMark)
	mid, rest, _ := strings.Cut(rest, dataMark)
	between, tail, _ := strings.Cut(rest, scriptMark)
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString(head)
	bw.WriteString(styleCSS)
	bw.WriteString(mid)
	if err := writeData(bw, r); err != nil {
		return fmt.Errorf("write html report data: %w", err)
	}
	bw.WriteString(between)
	bw.WriteString(appJS)
	bw.WriteString(tail)
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write html report: %w", err)
	}
	return nil
}
