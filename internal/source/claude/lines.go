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

// line is one non-empty line of a transcript with its envelope read.
type line struct {
	file    string // the file as the user names it, for origins and messages
	n       int    // 1-based line number in the file
	raw     []byte
	typ     string
	ms      int64 // Unix ms of its timestamp, or the previous line's
	session string
	agent   string // the subagent whose line it is (its agentId)
	// bad says why the line cannot be read, when it cannot: read
	// leniently, it is reported and left out (raw is then nil).
	bad string
}

// where is the line's place, "file:line".
func (l *line) where() string { return fmt.Sprintf("%s:%d", l.file, l.n) }

// head is what every line is read for.
type head struct {
	Type      json.RawMessage `json:"type"`
	Timestamp json.RawMessage `json:"timestamp"`
	SessionID json.RawMessage `json:"sessionId"`
	AgentID   json.RawMessage `json:"agentId"`
}

// errTooLong is a line over maxLine bytes.
var errTooLong = errors.New("line too long")

// readLines reads the non-empty lines of r, the transcript file names. A
// line without a timestamp takes the previous line's; the lines before the
// first timestamp take that one. A line that cannot be read is an error
// when strict, else a line with bad set.
func readLines(r io.Reader, file string, strict bool) ([]line, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var lines []line
	n, timed := 0, -1 // timed: index of the first line with a timestamp
	var last int64
	for {
		b, err := readLine(br)
		if err == io.EOF {
			break
		}
		n++
		l := line{file: file, n: n}
		switch {
		case errors.Is(err, errTooLong):
			l.bad = fmt.Sprintf("line longer than %d bytes", maxLine)
		case err != nil:
			return nil, fmt.Errorf("read %s: %w", file, err)
		default:
			if n == 1 {
				b = bytes.TrimPrefix(b, bom)
			}
			if len(bytes.TrimSpace(b)) == 0 {
				continue
			}
			l.raw = bytes.Clone(b)
			ms, ok, bad := readHead(&l)
			switch {
			case bad != "":
				l.raw, l.bad = nil, bad
			case ok:
				last = ms
				if timed < 0 {
					timed = len(lines)
				}
			}
		}
		if l.bad != "" && strict {
			return nil, fmt.Errorf("%s: %s", l.where(), l.bad)
		}
		l.ms = last
		lines = append(lines, l)
	}
	for i := 0; i < timed; i++ {
		lines[i].ms = lines[timed].ms
	}
	return lines, nil
}

// readLine reads one line without its "\n" or "\r\n"; a line over maxLine
// bytes is read to its end and reported as errTooLong. It returns io.EOF
// after the last line.
func readLine(br *bufio.Reader) ([]byte, error) {
	var buf []byte
	long := false
	for {
		chunk, err := br.ReadSlice('\n')
		if !long {
			buf = append(buf, chunk...)
			if len(buf) > maxLine+2 { // room for "\r\n"
				long, buf = true, nil
			}
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF && len(chunk) == 0 && !long && len(buf) == 0:
			return nil, io.EOF
		case err != nil && err != io.EOF:
			return nil, err
		}
		if long {
			return nil, errTooLong
		}
		buf = bytes.TrimSuffix(buf, []byte("\n"))
		buf = bytes.TrimSuffix(buf, []byte("\r"))
		if len(buf) > maxLine {
			return nil, errTooLong
		}
		return buf, nil
	}
}

// readHead checks that l is a JSON object and reads its type, session and
// agent; it returns the line's timestamp in Unix ms and whether it had
// one, or why the line cannot be read.
func readHead(l *line) (ms int64, ok bool, bad string) {
	t := bytes.TrimSpace(l.raw)
	if t[0] != '{' {
		return 0, false, fmt.Sprintf("not a JSON object: %q", clip(t))
	}
	var h head
	if err := json.Unmarshal(t, &h); err != nil {
		return 0, false, fmt.Sprintf("not a JSON object: %v", err)
	}
	if !isNull(h.Type) {
		if json.Unmarshal(h.Type, &l.typ) != nil {
			return 0, false, fmt.Sprintf("type %s is not a string", clip(h.Type))
		}
	}
	var s string
	if json.Unmarshal(h.SessionID, &s) == nil {
		l.session = s
	}
	if json.Unmarshal(h.AgentID, &s) == nil {
		l.agent = s
	}
	if isNull(h.Timestamp) {
		return 0, false, ""
	}
	if json.Unmarshal(h.Timestamp, &s) != nil {
		return 0, false, fmt.Sprintf("timestamp %s is not a string", clip(h.Timestamp))
	}
	ts, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return 0, false, fmt.Sprintf("timestamp: %v", err)
	}
	return ts.UnixMilli(), true, ""
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
