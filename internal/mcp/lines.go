package mcp

import (
	"bytes"
	"errors"
	"io"
	"syscall"
)

// maxLine bounds a line the taps and the stderr tail hold; the SDK has its
// own, larger limit for the messages it decodes (DefaultMaxLineLength). A
// longer line is dropped from the tap, not from the session.
const maxLine = 16 << 20

// lineTap calls fn with each complete line of what passes through it.
type lineTap struct {
	buf  []byte
	skip bool // the current line passed maxLine
	fn   func([]byte)
}

func (t *lineTap) feed(p []byte) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			t.add(p)
			return
		}
		t.add(p[:i])
		if !t.skip {
			t.fn(t.buf)
		}
		t.buf, t.skip, p = t.buf[:0], false, p[i+1:]
	}
}

func (t *lineTap) add(p []byte) {
	if t.skip || len(t.buf)+len(p) > maxLine {
		t.buf, t.skip = t.buf[:0], true
		return
	}
	t.buf = append(t.buf, p...)
}

// tapReader passes a stream on and taps its lines.
type tapReader struct {
	r   io.ReadCloser
	tap lineTap
	// eof, when set, is called when the stream ends, before its reader
	// hears of it.
	eof func()
}

func (r *tapReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	r.tap.feed(p[:n])
	if errors.Is(err, io.EOF) && r.eof != nil {
		r.eof()
	}
	return n, err
}

func (r *tapReader) Close() error { return r.r.Close() }

// tapWriter taps the lines written to a stream. The SDK serializes its
// writes, so the tap needs no lock.
type tapWriter struct {
	w   io.WriteCloser
	tap lineTap
	// broken, when set, is called when a write finds that the reader
	// closed the stream (EPIPE), before the writer hears of it.
	broken func()
}

// Write taps p before writing it: a fast server can answer a request
// before the write returns, and the wire must know the request by then.
// (A failed write leaves a request the wire waits on in vain: the turn
// fails on the write's error anyway.)
func (w *tapWriter) Write(p []byte) (int, error) {
	w.tap.feed(p)
	n, err := w.w.Write(p)
	if errors.Is(err, syscall.EPIPE) && w.broken != nil {
		w.broken()
	}
	return n, err
}

func (w *tapWriter) Close() error { return w.w.Close() }
