package trace

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

// Spool keeps a test attempt's raw events on disk as they arrive, so that
// a run's memory follows what assertions and reports need — tool calls,
// text, a byte per event for its type — and not the number of events. The
// file is private (the events are not masked yet: masking needs every
// test's secrets, known when the report is built) and removed with the
// spool's directory once the report is written.
//
// Each event is framed as uvarints — sequence number, receive time (Unix
// ms), run index, length — followed by the event's bytes.
type Spool struct {
	path string
	f    *os.File
	w    *bufio.Writer
	off  int64
	err  error
	buf  [4 * binary.MaxVarintLen64]byte
}

// NewSpool creates a spool file in dir.
func NewSpool(dir string) (*Spool, error) {
	f, err := os.CreateTemp(dir, "events-*.spool")
	if err != nil {
		return nil, fmt.Errorf("create event spool: %w", err)
	}
	return &Spool{path: f.Name(), f: f, w: bufio.NewWriterSize(f, 64<<10)}, nil
}

// append writes one event and returns the offset after it.
func (s *Spool) append(seq, at int64, run int, raw []byte) int64 {
	if s.err != nil {
		return s.off
	}
	n := binary.PutUvarint(s.buf[:], uint64(seq))
	n += binary.PutUvarint(s.buf[n:], uint64(at))
	n += binary.PutUvarint(s.buf[n:], uint64(run))
	n += binary.PutUvarint(s.buf[n:], uint64(len(raw)))
	if _, err := s.w.Write(s.buf[:n]); err != nil {
		s.err = err
		return s.off
	}
	if _, err := s.w.Write(raw); err != nil {
		s.err = err
		return s.off
	}
	s.off += int64(n + len(raw))
	return s.off
}

// Close flushes the spool; its events stay readable until Remove.
func (s *Spool) Close() error {
	if s.f == nil {
		return s.err
	}
	err := errors.Join(s.err, s.w.Flush(), s.f.Close())
	s.f, s.w = nil, nil
	if err != nil {
		return fmt.Errorf("write event spool: %w", err)
	}
	return nil
}

// read calls fn with each event in [from, to) of the spool that keep
// accepts (nil: every event); the others are skipped unread. raw is reused
// for the next event.
func (s *Spool) read(from, to int64, keep func(seq int64) bool, fn func(seq, at int64, run int, raw []byte) error) error {
	if s.w != nil {
		if err := s.w.Flush(); err != nil {
			return err
		}
	}
	f, err := os.Open(s.path)
	if err != nil {
		return fmt.Errorf("read event spool: %w", err)
	}
	defer f.Close()
	r := bufio.NewReaderSize(io.NewSectionReader(f, from, to-from), 64<<10)
	var raw []byte
	for {
		seq, err := binary.ReadUvarint(r)
		if err == io.EOF {
			return nil
		}
		at, err2 := binary.ReadUvarint(r)
		run, err3 := binary.ReadUvarint(r)
		n, err4 := binary.ReadUvarint(r)
		if err := errors.Join(err, err2, err3, err4); err != nil {
			return fmt.Errorf("read event spool: %w", err)
		}
		if keep != nil && !keep(int64(seq)) {
			if _, err := r.Discard(int(n)); err != nil {
				return fmt.Errorf("read event spool: %w", err)
			}
			continue
		}
		if uint64(cap(raw)) < n {
			raw = make([]byte, n)
		}
		raw = raw[:n]
		if _, err := io.ReadFull(r, raw); err != nil {
			return fmt.Errorf("read event spool: %w", err)
		}
		if err := fn(int64(seq), int64(at), int(run), raw); err != nil {
			return err
		}
	}
}

// spooled is where a turn's events are when a spool holds them.
type spooled struct {
	spool    *Spool
	from, to int64
	firstSeq int64
	// types holds each event's type as an index into names.
	types []uint8
	names *typeNames
}

// typeNames interns event types: a byte per event in memory.
type typeNames struct {
	index map[string]uint8
	names []string
}

// code is the byte standing for type name (255 once 255 types were seen:
// no AG-UI stream has that many).
func (n *typeNames) code(name string) uint8 {
	if c, ok := n.index[name]; ok {
		return c
	}
	if len(n.names) == 255 {
		return 255
	}
	c := uint8(len(n.names))
	n.index[name] = c
	n.names = append(n.names, name)
	return c
}

func (n *typeNames) name(c uint8) string {
	if int(c) < len(n.names) {
		return n.names[c]
	}
	return ""
}
