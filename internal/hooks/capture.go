package hooks

import (
	"strings"
	"unicode/utf8"
)

const (
	// maxStdout bounds what a hook may print: variables are small, and a hook
	// that floods stdout is broken; buffering it all would let one test
	// exhaust the runner's memory.
	maxStdout = 1 << 20
	// maxStderr is how much of the end of stderr is kept for the report; the
	// reason a script failed is almost always in its last lines.
	maxStderr = 4 << 10
)

// limitedBuffer keeps the first max bytes written to it and discards the
// rest, remembering that it did. It never returns an error, so the copying
// goroutine in os/exec keeps draining the pipe and the child never blocks on
// a full pipe. onOverflow is called once, when the limit is first exceeded.
type limitedBuffer struct {
	max        int
	buf        []byte
	overflow   bool
	onOverflow func()
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if b.overflow {
		return len(p), nil
	}
	if room := b.max - len(b.buf); len(p) > room {
		b.buf = append(b.buf, p[:room]...)
		b.overflow = true
		if b.onOverflow != nil {
			b.onOverflow()
		}
		return len(p), nil
	}
	b.buf = append(b.buf, p...)
	return len(p), nil
}

// tailBuffer keeps (at least) the last max bytes written to it. It trims
// only when it holds twice that, so trimming costs amortised O(1) per byte.
type tailBuffer struct {
	max     int
	buf     []byte
	dropped bool // bytes before buf were discarded
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	if len(p) >= b.max {
		b.buf = append(b.buf[:0], p[len(p)-b.max:]...)
		b.dropped = true
		return len(p), nil
	}
	b.buf = append(b.buf, p...)
	if len(b.buf) >= 2*b.max {
		b.buf = append(b.buf[:0], b.buf[len(b.buf)-b.max:]...)
		b.dropped = true
	}
	return len(p), nil
}

// String returns the last max bytes, starting at a rune boundary, with
// invalid UTF-8 replaced and surrounding whitespace trimmed, ready to be put
// into a report.
func (b *tailBuffer) String() string {
	s := string(b.buf)
	if len(s) > b.max || b.dropped {
		s = dropPartialRune(s[max(0, len(s)-b.max):])
	}
	return clean(s)
}

// tail returns the end of s, at most n bytes, cut at a rune boundary, made
// valid UTF-8 and trimmed.
func tail(s string, n int) string {
	if len(s) > n {
		s = dropPartialRune(s[len(s)-n:])
	}
	return clean(s)
}

// clean makes s valid UTF-8 and trims surrounding whitespace.
func clean(s string) string {
	return strings.TrimSpace(strings.ToValidUTF8(s, "\uFFFD"))
}

// dropPartialRune removes the continuation bytes a cut left at the start of
// s (at most three).
func dropPartialRune(s string) string {
	for i := 0; i < utf8.UTFMax-1 && len(s) > 0 && !utf8.RuneStart(s[0]); i++ {
		s = s[1:]
	}
	return s
}
