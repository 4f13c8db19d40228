package markdown_test

import (
	"fmt"
	"strings"
	"testing"
)

// checkStructure fails when out leaves a code fence or a <details> block
// open, or closes a block it did not open. It reads fences the way
// CommonMark does — a closing fence is a line of at least as many
// backticks as the opening one — so backticks inside code do not count,
// and it counts <details> lines only outside code.
func checkStructure(t *testing.T, out string) {
	t.Helper()
	if msg := structure(out); msg != "" {
		t.Errorf("%s in:\n%s", msg, out)
	}
}

func structure(out string) string {
	open, depth := "", 0
	for i, line := range strings.Split(out, "\n") {
		switch {
		case open != "":
			if closes(line, open) {
				open = ""
			}
		case opens(line) != "":
			open = opens(line)
		case strings.HasPrefix(line, "<details"):
			depth++
		case strings.HasPrefix(line, "</details>"):
			depth--
			if depth < 0 {
				return fmt.Sprintf("</details> without <details> at line %d", i+1)
			}
		}
	}
	switch {
	case open != "":
		return "unclosed code fence " + open
	case depth != 0:
		return "unclosed <details>"
	}
	return ""
}

// opens returns the fence a line opens, as CommonMark reads it: up to
// three spaces, three or more backticks, an info string without
// backticks; "" if the line opens none.
func opens(line string) string {
	run, rest := fenceRun(line)
	if len(run) < 3 || strings.Contains(rest, "`") {
		return ""
	}
	return run
}

// closes reports whether line closes a fence: at least as many backticks,
// nothing after them but spaces.
func closes(line, open string) bool {
	run, rest := fenceRun(line)
	return len(run) >= len(open) && strings.TrimSpace(rest) == ""
}

func fenceRun(line string) (run, rest string) {
	trimmed := strings.TrimLeft(line, " ")
	if len(line)-len(trimmed) > 3 {
		return "", line
	}
	rest = strings.TrimLeft(trimmed, "`")
	return trimmed[:len(trimmed)-len(rest)], rest
}
