// Package sse reads Server-Sent Events streams in place: the AG-UI client's
// runs and the A2A 0.3 client's streams.
package sse

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"sync"
)

// ErrTruncated is a stream that ended in the middle of a line: the event
// it belonged to is lost.
var ErrTruncated = errors.New("the stream ended in the middle of an event")

// Reader reads the events of a Server-Sent Events stream as the
// event-stream format defines them, and as go-sse's sse.Read delivers them:
// lines end in LF, CRLF or CR; a blank line ends an event; "data" lines are
// joined with "\n" (one space after the colon dropped); comments, "retry"
// and unknown fields are skipped; "event" and a valid "id" make an event of
// their own even without data; a byte order mark before the first field is
// dropped. It reads in place: an event's data is a slice of its buffer,
// valid until the next call, so reading costs no allocation per event.
type Reader struct {
	src  io.Reader
	buf  []byte // input: buf[r:w] is unread
	r, w int
	eof  error // the source's error, once it returned one
	max  int   // the largest event, in bytes of its lines

	data    []byte // the current event's data lines, each followed by "\n"
	size    int    // bytes of the current event's lines
	dirty   bool   // the current event has a data, event or id field
	started bool   // a non-blank line was read: no byte order mark after it
	skipLF  bool   // the last line ended in CR: an LF first is its end
	sawCR   bool   // a line ended in CR or CRLF

	// UnendedLastLine reads a last line that the stream ends without a
	// line end as a line, as bufio.Scanner does (the A2A SDKs read their
	// streams so), where the event-stream format drops it, and its event,
	// with ErrTruncated.
	UnendedLastLine bool
}

const bufferSize = 64 << 10

// buffers are the readers' buffers, reused from stream to stream: a
// suite of a thousand short runs would otherwise allocate 64 MB of them.
var buffers = sync.Pool{New: func() any { return new([bufferSize]byte) }}

// NewReader reads src, whose events may take up to max bytes of lines
// each. Release gives back its buffer.
func NewReader(src io.Reader, max int) *Reader {
	return &Reader{src: src, buf: buffers.Get().(*[bufferSize]byte)[:], max: max}
}

// Release gives the reader's buffer to the next stream's reader (unless
// an event too large for it replaced it). The reader is done with.
func (s *Reader) Release() {
	if len(s.buf) == bufferSize {
		buffers.Put((*[bufferSize]byte)(s.buf))
	}
	s.buf = nil
}

// SawCR says whether a line ended in CR or CRLF.
func (s *Reader) SawCR() bool { return s.sawCR }

// Next returns the data of the next event (empty for an event without
// data), valid until the next call; io.EOF at the end of the stream;
// ErrTruncated when it ended in the middle of a line; bufio.ErrTooLong for
// an event larger than max; or the source's error.
func (s *Reader) Next() ([]byte, error) {
	for {
		line, err := s.line()
		if err == io.EOF && s.dirty {
			return s.dispatch(), nil // the last event, without its blank line
		}
		if err != nil {
			return nil, err
		}
		if len(line) == 0 {
			if s.dirty {
				return s.dispatch(), nil
			}
			s.size = 0
			continue
		}
		if !s.started {
			s.started = true
			line = bytes.TrimPrefix(line, []byte("\xEF\xBB\xBF"))
		}
		name, value := line, []byte(nil)
		if i := bytes.IndexByte(line, ':'); i >= 0 {
			name, value = line[:i], line[i+1:]
			if len(value) > 0 && value[0] == ' ' {
				value = value[1:]
			}
		}
		switch string(name) {
		case "data":
			s.data = append(append(s.data, value...), '\n')
			s.dirty = true
		case "event":
			s.dirty = true
		case "id":
			s.dirty = s.dirty || bytes.IndexByte(value, 0) < 0
		}
	}
}

// dispatch ends the current event and returns its data.
func (s *Reader) dispatch() []byte {
	d := s.data
	if len(d) > 0 {
		d = d[:len(d)-1]
	}
	s.data, s.size, s.dirty = s.data[:0], 0, false
	return d
}

// line returns the next line without its end, valid until the next call;
// io.EOF at the end of the stream, ErrTruncated when the stream ends in the
// middle of a line.
func (s *Reader) line() ([]byte, error) {
	for scanned := 0; ; {
		if s.skipLF && s.r < s.w {
			s.skipLF = false
			if s.buf[s.r] == '\n' {
				s.r++
			}
		}
		b := s.buf[s.r:s.w]
		end := lineEnd(b, scanned, s.sawCR)
		if end < len(b) {
			if s.size += end + 1; s.size > s.max {
				return nil, bufio.ErrTooLong
			}
			line := b[:end]
			s.r += end + 1
			if b[end] == '\r' {
				s.sawCR, s.skipLF = true, true
			}
			return line, nil
		}
		// No line end in what is buffered: read more.
		scanned = len(b)
		if s.size+scanned > s.max {
			return nil, bufio.ErrTooLong
		}
		if s.eof != nil {
			if scanned > 0 {
				s.r = s.w
				if s.eof == io.EOF {
					if s.UnendedLastLine {
						s.size += scanned
						return b, nil
					}
					return nil, ErrTruncated
				}
			}
			return nil, s.eof
		}
		s.fill()
	}
}

// lineEnd is the index of the first CR or LF in b from from, or len(b).
// An LF-framed stream (no CR seen yet) is searched for LF and the line
// checked for a CR; after a CR both are searched at once.
func lineEnd(b []byte, from int, crSeen bool) int {
	if crSeen {
		if i := bytes.IndexAny(b[from:], "\r\n"); i >= 0 {
			return from + i
		}
		return len(b)
	}
	end := len(b)
	if i := bytes.IndexByte(b[from:], '\n'); i >= 0 {
		end = from + i
	}
	if i := bytes.IndexByte(b[from:end], '\r'); i >= 0 {
		end = from + i
	}
	return end
}

// fill reads more input, keeping the unread bytes (moved to the front, or
// into a larger buffer when they fill it).
func (s *Reader) fill() {
	if s.r > 0 {
		s.w = copy(s.buf, s.buf[s.r:s.w])
		s.r = 0
	}
	if s.w == len(s.buf) {
		s.buf = append(s.buf, make([]byte, len(s.buf))...)
	}
	for range 100 { // a reader returning nothing forever is an error
		n, err := s.src.Read(s.buf[s.w:])
		s.w += n
		if err != nil {
			s.eof = err
			return
		}
		if n > 0 {
			return
		}
	}
	s.eof = io.ErrNoProgress
}
