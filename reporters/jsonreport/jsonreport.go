// Package jsonreport writes the machine-readable files of the report
// directory: summary.json (the whole run, schema ananke.report/v1) and one
// result file per test. Trace files are internal/tracefile's.
package jsonreport

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/ananke/action/internal/report"
)

// WriteSummary writes summary.json. Its tests (the last field) are
// encoded one at a time, so the file never sits in memory whole: a suite
// of thousands of tests has a summary of megabytes.
func WriteSummary(w io.Writer, r *report.Report) error {
	head := *r
	head.Tests = nil
	var b bytes.Buffer
	if err := encode(&b, &head); err != nil {
		return err
	}
	// The head ends with the tests' key: `"tests": null` and the closing brace.
	const tail = "null\n}\n"
	if !bytes.HasSuffix(b.Bytes(), []byte(tail)) {
		return fmt.Errorf("encode summary: unexpected end %q", b.Bytes()[max(0, b.Len()-20):])
	}
	b.Truncate(b.Len() - len(tail))
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.Write(b.Bytes())
	if len(r.Tests) == 0 {
		bw.WriteString("[]\n}\n")
		return bw.Flush()
	}
	bw.WriteByte('[')
	for i := range r.Tests {
		if i > 0 {
			bw.WriteByte(',')
		}
		bw.WriteString("\n    ")
		if err := encodeIndented(bw, &r.Tests[i], "    "); err != nil {
			return err
		}
	}
	bw.WriteString("\n  ]\n}\n")
	return bw.Flush()
}

// WriteResult writes one test's result file: its entry of summary.json.
func WriteResult(w io.Writer, t *report.Test) error { return encode(w, t) }

// buffers are reused across files: a suite writes thousands.
var buffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// encode writes indented JSON without HTML escaping, so agent text reads
// as the agent sent it. It encodes compactly, then indents, through
// pooled buffers: json.Encoder's own indenting allocates per encoder.
func encode(w io.Writer, v any) error {
	if err := encodeIndented(w, v, ""); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// encodeIndented writes v indented, each line after the first starting
// with prefix, without a trailing newline.
func encodeIndented(w io.Writer, v any, prefix string) error {
	compact, indented := buffers.Get().(*bytes.Buffer), buffers.Get().(*bytes.Buffer)
	defer func() {
		for _, b := range []*bytes.Buffer{compact, indented} {
			if b.Cap() <= 1<<20 { // keep no huge buffer alive
				b.Reset()
				buffers.Put(b)
			}
		}
	}()
	enc := json.NewEncoder(compact)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	if err := json.Indent(indented, bytes.TrimSuffix(compact.Bytes(), []byte("\n")), prefix, "  "); err != nil {
		return err
	}
	_, err := w.Write(indented.Bytes())
	return err
}
