package claude

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"
	"unicode/utf8"
)

// maxLine bounds a line's length (a variable, so tests can lower it).
var maxLine = 64 << 20

var bom = []byte("\xef\xbb\xbf")

// line is one non-empty line of the transcript with its envelope read.
type line struct {
	n       int // 1-based line number in the file
	raw     []byte
	typ     string
	ms      int64 // Unix ms of its timestamp, or the previous line's
	session string
}

// head is what every line is read for.
type head struct {
	Type      json.RawMessage `json:"type"`
	Timestamp json.RawMessage `json:"timestamp"`
	SessionID json.RawMessage `json:"sessionId"`
}

// readLines reads the non-empty lines of r. A line without a timestamp takes
// the previous line's; the lines before the first timestamp take that one.
func readLines(r io.Reader, display string) ([]line, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, maxLine+2) // room for CRLF
	var lines []line
	n, timed := 0, -1 // timed: index of the first line with a timestamp
	var last int64
	for sc.Scan() {
		n++
		b := sc.Bytes()
		if n == 1 {
			b = bytes.TrimPrefix(b, bom)
		}
		if len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		if len(b) > maxLine {
			return nil, tooLong(display, n)
		}
		l := line{n: n, raw: bytes.Clone(b)}
		ms, ok, err := readHead(&l, display)
		if err != nil {
			return nil, err
		}
		if ok {
			last = ms
			if timed < 0 {
				timed = len(lines)
			}
		}
		l.ms = last
		lines = append(lines, l)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, tooLong(display, n+1)
		}
		return nil, fmt.Errorf("read %s: %w", display, err)
	}
	for i := 0; i < timed; i++ {
		lines[i].ms = lines[timed].ms
	}
	return lines, nil
}

func tooLong(display string, n int) error {
	return fmt.Errorf("%s:%d: line longer than %d bytes", display, n, maxLine)
}

// readHead checks that l is a JSON object and reads its type and session id;
// it returns the line's timestamp in Unix ms and whether it had one.
func readHead(l *line, display string) (int64, bool, error) {
	at := func(format string, args ...any) error {
		return fmt.Errorf("%s:%d: "+format, append([]any{display, l.n}, args...)...)
	}
	t := bytes.TrimSpace(l.raw)
	if t[0] != '{' {
		return 0, false, at("not a JSON object: %q", clip(t))
	}
	var h head
	if err := json.Unmarshal(t, &h); err != nil {
		return 0, false, at("not a JSON object: %w", err)
	}
	if !isNull(h.Type) {
		if json.Unmarshal(h.Type, &l.typ) != nil {
			return 0, false, at("type %s is not a string", clip(h.Type))
		}
	}
	var s string
	if json.Unmarshal(h.SessionID, &s) == nil {
		l.session = s
	}
	if isNull(h.Timestamp) {
		return 0, false, nil
	}
	if json.Unmarshal(h.Timestamp, &s) != nil {
		return 0, false, at("timestamp %s is not a string", clip(h.Timestamp))
	}
	ts, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return 0, false, at("timestamp: %w", err)
	}
	return ts.UnixMilli(), true, nil
}

func isNull(raw json.RawMessage) bool { return len(raw) == 0 || string(raw) == "null" }

// clip shortens b for an error message.
func clip(b []byte) string {
	const max = 40
	if len(b) <= max {
		return string(b)
	}
	n := max
	for n > 0 && !utf8.RuneStart(b[n]) {
		n--
	}
	return string(b[:n]) + "…"
}
