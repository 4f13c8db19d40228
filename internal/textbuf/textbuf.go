// Package textbuf assembles streamed text — a million deltas of an
// agent's reply — without the regrowth of a single buffer: deltas go into
// chunks that are never copied to grow, and String allocates the whole text once, exactly.
// A strings.Builder doubles its buffer as the text grows, so for a long
// reply it holds up to twice the text, and three times while it copies.
package textbuf

import "strings"

// Chunks start at firstChunk, so a short text costs little, and double up
// to chunkSize: large enough that chunk headers do not matter, small
// enough that the last chunk's slack does not either.
const (
	firstChunk = 256
	chunkSize  = 64 << 10
)

// Buffer is an append-only text. The zero value is empty and ready.
type Buffer struct {
	chunks [][]byte
	n      int
	// s caches String until the next write.
	s     string
	valid bool
}

// WriteString appends s.
func (b *Buffer) WriteString(s string) {
	if s == "" {
		return
	}
	b.valid = false
	b.n += len(s)
	for len(s) > 0 {
		if len(b.chunks) == 0 || len(b.chunks[len(b.chunks)-1]) == cap(b.chunks[len(b.chunks)-1]) {
			size := firstChunk
			if k := len(b.chunks); k > 0 {
				size = min(2*cap(b.chunks[k-1]), chunkSize)
			}
			b.chunks = append(b.chunks, make([]byte, 0, max(size, min(len(s), 1<<20))))
		}
		last := &b.chunks[len(b.chunks)-1]
		k := min(cap(*last)-len(*last), len(s))
		*last = append(*last, s[:k]...)
		s = s[k:]
	}
}

// Len is the text's length in bytes.
func (b *Buffer) Len() int { return b.n }

// String returns the text. The first call after a write allocates it; the
// chunks are then let go of, so the text is held once.
func (b *Buffer) String() string {
	if b.valid {
		return b.s
	}
	if len(b.chunks) == 1 && b.s == "" {
		b.s = string(b.chunks[0])
	} else {
		var sb strings.Builder
		sb.Grow(b.n)
		sb.WriteString(b.s)
		for _, c := range b.chunks {
			sb.Write(c)
		}
		b.s = sb.String()
	}
	b.chunks, b.valid = nil, true
	return b.s
}
