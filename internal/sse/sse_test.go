package sse

import (
	"bufio"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/tmaxmax/go-sse"
)

// sseEvents reads a stream with the reader, through r, and returns each
// event's data and how the stream ended: "eof", "truncated", "too long".
func sseEvents(r io.Reader, max int) ([]string, string) {
	return read(NewReader(r, max))
}

func read(sr *Reader) ([]string, string) {
	defer sr.Release()
	var out []string
	for {
		data, err := sr.Next()
		switch {
		case err == io.EOF:
			return out, "eof"
		case errors.Is(err, ErrTruncated):
			return out, "truncated"
		case errors.Is(err, bufio.ErrTooLong):
			return out, "too long"
		case err != nil:
			return out, err.Error()
		}
		out = append(out, string(data))
	}
}

// goSSEEvents is the same through go-sse's sse.Read, the reader the
// stream was read with before.
func goSSEEvents(body string, max int) ([]string, string) {
	var out []string
	for e, err := range sse.Read(strings.NewReader(body), &sse.ReadConfig{MaxEventSize: max}) {
		switch {
		case errors.Is(err, sse.ErrUnexpectedEOF):
			return out, "truncated"
		case errors.Is(err, bufio.ErrTooLong):
			return out, "too long"
		case err != nil:
			return out, err.Error()
		}
		out = append(out, e.Data)
	}
	return out, "eof"
}

// TestSSEReader: framing variants deliver the same events; one over the
// limit, and a stream cut in the middle of a line, are told apart.
func TestSSEReader(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       []string
		end        string
	}{
		{"lf", "data: a\n\ndata: b\n\n", []string{"a", "b"}, "eof"},
		{"crlf", "data: a\r\n\r\ndata: b\r\n\r\n", []string{"a", "b"}, "eof"},
		{"cr", "data: a\r\rdata: b\r\r", []string{"a", "b"}, "eof"},
		{"no space, two spaces", "data:a\n\ndata:  b\n\n", []string{"a", " b"}, "eof"},
		{"multi-line data", "data: a\ndata:\ndata: b\n\n", []string{"a\n\nb"}, "eof"},
		{"comments and other fields", ": hi\nretry: 10\nfoo: x\ndata: a\n\n", []string{"a"}, "eof"},
		{"an event without data", "event: ping\n\ndata: a\n\n", []string{"", "a"}, "eof"},
		{"an id with NUL is no event", "id: a\x00b\n\ndata: a\n\n", []string{"a"}, "eof"},
		{"retry alone is no event", "retry: 5\n\ndata: a\n\n", []string{"a"}, "eof"},
		{"a byte order mark", "\xEF\xBB\xBFdata: a\n\n", []string{"a"}, "eof"},
		{"a field without a colon", "data\n\n", []string{""}, "eof"},
		{"the last event without its blank line", "data: a\n\ndata: b\n", []string{"a", "b"}, "eof"},
		{"cut in the middle of a line", "data: a\n\ndata: b", []string{"a"}, "truncated"},
		{"cut after a line of an event", "data: a\n\ndata: b\ndata: c", []string{"a"}, "truncated"},
		{"over the limit", "data: a\n\ndata: " + strings.Repeat("x", 100) + "\n\n", []string{"a"}, "too long"},
		{"a line over the limit, unended", "data: a\n\ndata: " + strings.Repeat("x", 100), []string{"a"}, "too long"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// One byte at a time too: a CRLF split across reads is one
			// line end.
			for _, r := range []io.Reader{strings.NewReader(tc.body), iotest.OneByteReader(strings.NewReader(tc.body))} {
				got, end := sseEvents(r, 64)
				if !slices.Equal(got, tc.want) || end != tc.end {
					t.Errorf("got %q, %s; want %q, %s", got, end, tc.want, tc.end)
				}
			}
		})
	}
}

// TestUnendedLastLine: with UnendedLastLine, a line the stream ends
// without a line end is read as a line; what came before, and a line over
// the limit, are read as without it.
func TestUnendedLastLine(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       []string
		end        string
	}{
		{"cut in the middle of a line", "data: a\n\ndata: b", []string{"a", "b"}, "eof"},
		{"cut after a line of an event", "data: a\n\ndata: b\ndata: c", []string{"a", "b\nc"}, "eof"},
		{"a field that is no data", "data: a\n\n{\"jsonrpc\": \"2.0\"}", []string{"a"}, "eof"},
		{"ended", "data: a\n\ndata: b\n\n", []string{"a", "b"}, "eof"},
		{"a line over the limit, unended", "data: a\n\ndata: " + strings.Repeat("x", 100), []string{"a"}, "too long"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, r := range []io.Reader{strings.NewReader(tc.body), iotest.OneByteReader(strings.NewReader(tc.body))} {
				sr := NewReader(r, 64)
				sr.UnendedLastLine = true
				got, end := read(sr)
				if !slices.Equal(got, tc.want) || end != tc.end {
					t.Errorf("got %q, %s; want %q, %s", got, end, tc.want, tc.end)
				}
			}
		})
	}
}

// TestSSEReaderBigEvent: an event larger than the buffer is read whole.
func TestSSEReaderBigEvent(t *testing.T) {
	big := strings.Repeat("x", 3*bufferSize+17)
	got, end := sseEvents(strings.NewReader("data: a\n\ndata: "+big+"\n\ndata: b\n\n"), 1<<20)
	if !slices.Equal(got, []string{"a", big, "b"}) || end != "eof" {
		t.Errorf("got %d events (%s), want 3", len(got), end)
	}
}

// FuzzSSEReader: the reader delivers what go-sse's sse.Read delivers for
// any stream within the limit — the same events, the same end — whatever
// the reads' sizes.
func FuzzSSEReader(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "agui", "testdata", "streams", "*.sse"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(string(b))
		}
	}
	for _, s := range []string{"data: a\r\n\r\ndata: b\r\rdata: c\n\n", "\n\n\xEF\xBB\xBFdata: a\n\n", ": c\nid\nevent\n\n", "data: a\ndata: b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		const max = 1 << 20 // no event of a fuzzed body comes near it
		want, wantEnd := goSSEEvents(body, max)
		got, end := sseEvents(iotest.HalfReader(strings.NewReader(body)), max)
		if !slices.Equal(got, want) || end != wantEnd {
			t.Fatalf("body %q\ngot  %q, %s\nwant %q, %s", body, got, end, want, wantEnd)
		}
	})
}
