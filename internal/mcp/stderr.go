package mcp

import (
	"io"
	"strings"
	"sync"
)

// Limits of the server's stderr that errors quote.
const (
	stderrLines    = 10  // the last lines of stderr an error quotes
	stderrLineSize = 300 // bytes of each line kept
)

// stderrTail keeps the last lines a stdio server wrote to stderr and passes
// everything on to w (nil: nowhere).
type stderrTail struct {
	w io.Writer

	mu    sync.Mutex
	part  strings.Builder // the line being written
	lines []string
}

func (t *stderrTail) Write(p []byte) (int, error) {
	t.mu.Lock()
	for _, b := range p {
		switch {
		case b == '\n':
			t.push()
		case t.part.Len() < stderrLineSize:
			t.part.WriteByte(b)
		}
	}
	t.mu.Unlock()
	if t.w != nil {
		t.w.Write(p) // the log is a courtesy: its failure is not the server's
	}
	return len(p), nil
}

func (t *stderrTail) push() {
	line := strings.TrimRight(t.part.String(), "\r")
	t.part.Reset()
	if strings.TrimSpace(line) == "" {
		return
	}
	t.lines = append(t.lines, strings.ToValidUTF8(line, "\uFFFD"))
	if len(t.lines) > stderrLines {
		t.lines = t.lines[len(t.lines)-stderrLines:]
	}
}

// quote returns the last lines for an error message: "; stderr: a | b",
// or "" when the server wrote nothing.
func (t *stderrTail) quote() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := t.lines
	if s := strings.TrimSpace(t.part.String()); s != "" {
		lines = append(lines[:len(lines):len(lines)], s)
	}
	if len(lines) == 0 {
		return ""
	}
	return "; stderr: " + strings.Join(lines, " | ")
}
