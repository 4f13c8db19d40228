package html

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/reporters/internal/format"
)

// writeData writes the page's data, a test at a time: each test's data is
// built when it is written and its raw events are read from its trace as
// they are written, so the page takes memory for one test's data, not for
// the run's. The JSON is what encoding/json makes of the model, fields in
// its order, with <, > and & escaped so that no text can end the page's
// script element.
func writeData(bw *bufio.Writer, r *report.Report) error {
	w := &jsonWriter{w: bw}
	w.open(build(r))
	w.raw(`,"tests":[`)
	withUsage, base := format.ShowsUsage(r), historyBase(r)
	for i := range r.Tests {
		if i > 0 {
			w.byte(',')
		}
		if err := writeTest(w, &r.Tests[i], withUsage, base); err != nil {
			return err
		}
	}
	w.raw(`],"caps":`)
	w.value(pageCaps)
	w.raw("}\n")
	return w.err
}

// writeTest writes one test, its turns' events within EventsCap.
func writeTest(w *jsonWriter, rt *report.Test, withUsage bool, base string) error {
	t, tr := buildTest(rt, withUsage, base)
	pins := pinned(rt, tr)
	budget := EventsCap
	w.open(t)
	w.raw(`,"turns":[`)
	for i := range t.Turns {
		tu := &t.Turns[i]
		if i > 0 {
			w.byte(',')
		}
		w.open(tu)
		w.raw(`,"events":[`)
		n, gaps := 0, []leftOut(nil)
		if tu.events != nil {
			var err error
			if n, gaps, err = writeEvents(w, tr, tu.events, pins, &budget); err != nil {
				return err
			}
		}
		w.raw(`],"event_count":`)
		w.int(int64(n))
		if len(gaps) > 0 {
			w.raw(`,"left_out":`)
			w.value(gaps)
		}
		w.byte('}')
	}
	w.raw("]}")
	return w.err
}

// jsonWriter writes JSON to a buffered writer, keeping its first error.
type jsonWriter struct {
	w   *bufio.Writer
	buf bytes.Buffer
	enc *json.Encoder
	num []byte
	err error
}

func (w *jsonWriter) raw(s string) { w.w.WriteString(s) }
func (w *jsonWriter) byte(c byte)  { w.w.WriteByte(c) }

func (w *jsonWriter) int(n int64) {
	w.num = strconv.AppendInt(w.num[:0], n, 10)
	w.w.Write(w.num)
}

// value writes v as encoding/json does (HTML characters escaped).
func (w *jsonWriter) value(v any) { w.w.Write(w.encode(v)) }

func (w *jsonWriter) string(s string) { w.value(s) }

// open writes the object v without its closing brace, for the fields
// that follow it.
func (w *jsonWriter) open(v any) {
	if b := w.encode(v); len(b) > 0 {
		w.w.Write(b[:len(b)-1])
	}
}

// encode is v's JSON, valid until the next call (nothing after an error).
func (w *jsonWriter) encode(v any) []byte {
	if w.err != nil {
		return nil
	}
	if w.enc == nil {
		w.enc = json.NewEncoder(&w.buf)
	}
	w.buf.Reset()
	if w.err = w.enc.Encode(v); w.err != nil {
		return nil
	}
	return bytes.TrimSuffix(w.buf.Bytes(), []byte("\n"))
}
