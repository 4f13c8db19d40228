package otlpfile

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
)

// lines maps byte offsets of a document to line numbers of its file.
type lines struct {
	base   int   // the line the document starts at
	starts []int // offsets of the document's line starts after the first
}

func newLines(doc []byte, base int) lines {
	l := lines{base: base}
	for i, c := range doc {
		if c == '\n' {
			l.starts = append(l.starts, i+1)
		}
	}
	return l
}

// at is the line of offset off.
func (l lines) at(off int) int {
	return l.base + sort.SearchInts(l.starts, off+1)
}

// spanOffsets lists where each span object of an OTLP JSON document
// starts, in document order (resourceSpans, scopeSpans, spans: the order
// pdata reads them in); nil when the document is not shaped so.
func spanOffsets(doc []byte) []int {
	dec := json.NewDecoder(bytes.NewReader(doc))
	var out []int
	spans := func() bool {
		return array(dec, func() bool {
			out = append(out, next(doc, int(dec.InputOffset())))
			return skip(dec)
		})
	}
	scopes := func() bool {
		return array(dec, func() bool { return object(dec, map[string]func() bool{"spans": spans}) })
	}
	resources := func() bool {
		return array(dec, func() bool {
			return object(dec, map[string]func() bool{"scopeSpans": scopes, "scope_spans": scopes})
		})
	}
	if !object(dec, map[string]func() bool{"resourceSpans": resources, "resource_spans": resources}) {
		return nil
	}
	return out
}

// next is the offset of the next value after off: past whitespace and
// the separators a decoder has not consumed yet.
func next(doc []byte, off int) int {
	for off < len(doc) && strings.IndexByte(" \t\r\n,:", doc[off]) >= 0 {
		off++
	}
	return off
}

// object reads an object, reading the value of each key fields names
// with its function and skipping the others; false when the value is
// not an object or a field's function failed.
func object(dec *json.Decoder, fields map[string]func() bool) bool {
	t, err := dec.Token()
	if d, ok := t.(json.Delim); err != nil || !ok || d != '{' {
		return false
	}
	for dec.More() {
		t, err := dec.Token()
		k, ok := t.(string)
		if err != nil || !ok {
			return false
		}
		read := skip
		if f, ok := fields[k]; ok {
			read = func(*json.Decoder) bool { return f() }
		}
		if !read(dec) {
			return false
		}
	}
	_, err = dec.Token()
	return err == nil
}

// array reads an array, calling elem with the decoder at each element;
// false when the value is not an array, or elem failed.
func array(dec *json.Decoder, elem func() bool) bool {
	t, err := dec.Token()
	if d, ok := t.(json.Delim); err != nil || !ok || d != '[' {
		return false
	}
	for dec.More() {
		if !elem() {
			return false
		}
	}
	_, err = dec.Token()
	return err == nil
}

func skip(dec *json.Decoder) bool {
	var v json.RawMessage
	return dec.Decode(&v) == nil
}

// errorOffset finds where pdata's JSON reader stopped, from its message
// ("… error found in #N byte of ...|NEAR|..., bigger context
// ...|AROUND|..."), and returns the message without the context. ok is
// false when the message has no such context or it cannot be found.
func errorOffset(doc []byte, msg string) (int, string, bool) {
	const (
		found  = ", error found in #"
		of     = " byte of ...|"
		bigger = "|..., bigger context ...|"
	)
	i := strings.Index(msg, found)
	if i < 0 {
		return 0, msg, false
	}
	short, rest := msg[:i], msg[i+len(found):]
	j := strings.Index(rest, of)
	if j < 0 {
		return 0, short, false
	}
	n, err := strconv.Atoi(rest[:j])
	rest = rest[j+len(of):]
	k := strings.Index(rest, bigger)
	if err != nil || k < 0 || !strings.HasSuffix(rest, "|...") {
		return 0, short, false
	}
	near, around := rest[:k], strings.TrimSuffix(rest[k+len(bigger):], "|...")
	for from := 0; ; {
		p := bytes.Index(doc[from:], []byte(near))
		if p < 0 {
			return 0, short, false
		}
		head := from + p + n
		lo, hi := max(head-50, 0), min(head+50, len(doc))
		if string(doc[lo:hi]) == around {
			return head, short, true
		}
		from += p + 1
	}
}
