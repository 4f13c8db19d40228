package hooks

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Kind says what went wrong with a hook.
type Kind string

const (
	KindStart     Kind = "start"     // could not start (not found, not executable, bad dir)
	KindExit      Kind = "exit"      // non-zero exit status (or killed by a signal)
	KindTimeout   Kind = "timeout"   // exceeded Timeout; the whole process group was killed
	KindOutput    Kind = "output"    // stdout is not one JSON object of string/number/bool values, or too large
	KindCancelled Kind = "cancelled" // ctx was cancelled (e.g. the user pressed Ctrl-C); process group killed
)

// Error is a hook failure. Run and RunAfter return *Error for every failure
// of the hook itself, and Exec for every failure its exit status cannot
// judge, so the engine can report it as a test error with the stderr tail
// as evidence.
type Error struct {
	Kind     Kind   // what went wrong
	ExitCode int    // for KindExit; -1 when the hook was killed by a signal
	Stderr   string // last <= 4 KiB of stderr (UTF-8 safe cut, trimmed), may be ""
	Detail   string // e.g. the JSON parse error, the offending key, stdout excerpt

	name    string        // the command, shortened, for Error
	label   string        // Command.Label: "" means defaultLabel
	timeout time.Duration // for KindTimeout
}

// defaultLabel is what a command is called in messages when its
// Command.Label is empty.
const defaultLabel = "hook"

const (
	// maxNameLen bounds the command shown in a message: enough to recognise
	// it, short enough that the message stays one readable line.
	maxNameLen = 80
	// maxStderrInMessage bounds the stderr quoted in Error(); the full tail
	// is in Error.Stderr.
	maxStderrInMessage = 300
	// stderrLinesInMessage is how many of the last stderr lines Error()
	// quotes.
	stderrLinesInMessage = 3
)

// Error returns one lowercase line naming the command, what happened and the
// last lines of stderr.
func (e *Error) Error() string {
	var b strings.Builder
	if e.label != "" {
		b.WriteString(e.label)
	} else {
		b.WriteString(defaultLabel)
	}
	if e.name != "" {
		fmt.Fprintf(&b, " %q", e.name)
	}
	switch e.Kind {
	case KindStart:
		b.WriteString(" could not start")
	case KindExit:
		if e.ExitCode >= 0 {
			fmt.Fprintf(&b, " exited with status %d", e.ExitCode)
		} else {
			b.WriteString(" was killed")
		}
	case KindTimeout:
		b.WriteString(" timed out")
		if e.timeout > 0 {
			fmt.Fprintf(&b, " after %v", e.timeout)
		}
		b.WriteString(" (process group killed)")
	case KindOutput:
		b.WriteString(" printed unusable output")
	case KindCancelled:
		b.WriteString(" was cancelled (process group killed)")
	default:
		fmt.Fprintf(&b, " failed (%s)", e.Kind)
	}
	if e.Detail != "" {
		b.WriteString(": ")
		b.WriteString(oneLine(e.Detail))
	}
	if s := lastLines(e.Stderr, stderrLinesInMessage, maxStderrInMessage); s != "" {
		b.WriteString("; stderr: ")
		b.WriteString(s)
	}
	return b.String()
}

// commandName is argv joined with spaces, shortened to about maxNameLen.
func commandName(argv []string) string {
	s := oneLine(strings.Join(argv, " "))
	if len(s) <= maxNameLen {
		return s
	}
	cut := maxNameLen - 3
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

// lastLines returns the last n non-blank lines of s joined with " | ",
// keeping at most max bytes from their end.
func lastLines(s string, n, max int) string {
	var keep []string
	lines := strings.Split(s, "\n")
	for i := len(lines) - 1; i >= 0 && len(keep) < n; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" {
			keep = append(keep, l)
		}
	}
	for i, j := 0, len(keep)-1; i < j; i, j = i+1, j-1 {
		keep[i], keep[j] = keep[j], keep[i]
	}
	out := oneLine(strings.Join(keep, " | "))
	if len(out) > max {
		out = "..." + tail(out, max-3)
	}
	return out
}

// oneLine replaces line breaks and tabs so a message stays on one line.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '\n', '\r', '\t', '\v', '\f':
			return ' '
		}
		return r
	}, s)
}
