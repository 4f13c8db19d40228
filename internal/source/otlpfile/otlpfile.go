// Package otlpfile imports OTLP JSON trace files — what an OpenTelemetry
// Collector's file exporter writes, one ExportTraceServiceRequest a line,
// or one such document — as a trace, so that a production run's spans
// are checked with the same assertions offline (docs/opentelemetry.md,
// "OTLP files as a source"). The data is read with the Collector's pdata
// (internal/otel/otlp); tool calls and usage come from the spans by the
// GenAI conventions (internal/otel/genai).
package otlpfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"unicode/utf8"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/ananke/action/internal/otel/otlp"
	"github.com/ananke/action/internal/trace"
)

// The adapter's name and version, as the trace's source reports them.
const (
	Adapter = "otlp"
	Version = "1"
)

// MaxFileBytes bounds a file: a trace file is read whole.
const MaxFileBytes = 256 << 20

// Read reads the OTLP JSON file at path. display is the path as the test
// wrote it; errors and events' origins name it ("traces.json:12").
func Read(path, display string) (*trace.Trace, error) {
	f, err := os.Open(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // said with the path as the test wrote it
		}
		return nil, fmt.Errorf("%s: %w", display, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", display, err)
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("%s: over %d MiB; an OTLP file is read whole", display, MaxFileBytes>>20)
	}
	return Parse(data, display)
}

// read is a span with the line it was read at.
type read struct {
	trace.Span
	line int
}

// Parse reads OTLP JSON trace data: JSON lines of export requests, or one
// request. Data that is not OTLP, a span without ids and a span over the
// limits of internal/otel/otlp are errors at their file:line, never a
// trace with less in it.
func Parse(data []byte, display string) (*trace.Trace, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var all []read
	for _, d := range documents(data) {
		spans, err := decode(d.data, d.line, display)
		if err != nil {
			return nil, err
		}
		all = append(all, spans...)
	}
	if len(all) == 0 {
		return nil, fmt.Errorf("%s: no spans (an OTLP JSON trace file holds resourceSpans, their scopeSpans and spans)", display)
	}
	return build(all, display)
}

type document struct {
	data []byte
	line int
}

// documents splits the file: JSON lines when its first line is a JSON
// value of its own, else one document (an export request written over
// several lines).
func documents(data []byte) []document {
	var lines []document
	for i, ln := 0, 1; i < len(data); ln++ {
		j := bytes.IndexByte(data[i:], '\n')
		end := len(data)
		if j >= 0 {
			end = i + j
		}
		if l := bytes.TrimSpace(data[i:end]); len(l) > 0 {
			lines = append(lines, document{data: l, line: ln})
		}
		i = end + 1
	}
	if len(lines) == 0 {
		return nil
	}
	if !json.Valid(lines[0].data) {
		return []document{{data: data, line: 1}}
	}
	return lines
}

// decode reads one export request.
func decode(doc []byte, line int, display string) ([]read, error) {
	at := newLines(doc, line)
	td, err := otlp.Decode(doc, false)
	if err != nil {
		off, msg, ok := errorOffset(doc, err.Error())
		if ok {
			line = at.at(off)
		}
		return nil, fmt.Errorf("%s:%d: not OTLP JSON trace data: %s", display, line, msg)
	}
	offsets := spanOffsets(doc)
	if len(offsets) != td.SpanCount() {
		offsets = nil // the document's shape is not what pdata read; say its start
	}
	lineOf := func(n int) int {
		if n < len(offsets) {
			return at.at(offsets[n])
		}
		return line
	}
	n := 0
	for _, rs := range td.ResourceSpans().All() {
		for _, ss := range rs.ScopeSpans().All() {
			for _, s := range ss.Spans().All() {
				if err := check(s); err != nil {
					return nil, fmt.Errorf("%s:%d: span %q: %w", display, lineOf(n), short(s.Name()), err)
				}
				n++
			}
		}
	}
	spans, err := otlp.Spans(td)
	if err != nil {
		return nil, fmt.Errorf("%s:%d: %w", display, line, err)
	}
	out := make([]read, len(spans))
	for i, s := range spans {
		out[i] = read{Span: s, line: lineOf(i)}
	}
	return out, nil
}

// check refuses a span without ids and one over the limits: a file is
// read as it was written or not at all.
func check(s ptrace.Span) error {
	switch {
	case s.TraceID().IsEmpty():
		return fmt.Errorf("no traceId")
	case s.SpanID().IsEmpty():
		return fmt.Errorf("no spanId")
	case s.Events().Len() > otlp.MaxEvents:
		return fmt.Errorf("%d events, over the limit of %d", s.Events().Len(), otlp.MaxEvents)
	}
	if err := limits("attribute", s.Attributes()); err != nil {
		return err
	}
	for i, e := range s.Events().All() {
		if err := limits(fmt.Sprintf("event %d (%s): attribute", i, short(e.Name())), e.Attributes()); err != nil {
			return err
		}
	}
	return nil
}

// limits checks attributes against internal/otel/otlp's limits, nested
// values included.
func limits(what string, m pcommon.Map) error {
	if m.Len() > otlp.MaxAttributes {
		return fmt.Errorf("%d attributes, over the limit of %d", m.Len(), otlp.MaxAttributes)
	}
	for k, v := range m.All() {
		if err := limit(v); err != nil {
			return fmt.Errorf("%s %q: %w", what, short(k), err)
		}
	}
	return nil
}

func limit(v pcommon.Value) error {
	switch v.Type() {
	case pcommon.ValueTypeStr:
		if n := len(v.Str()); n > otlp.MaxAttributeBytes {
			return fmt.Errorf("%d bytes, over the limit of %d", n, otlp.MaxAttributeBytes)
		}
	case pcommon.ValueTypeBytes:
		if n := v.Bytes().Len(); n > otlp.MaxAttributeBytes {
			return fmt.Errorf("%d bytes, over the limit of %d", n, otlp.MaxAttributeBytes)
		}
	case pcommon.ValueTypeSlice:
		if v.Slice().Len() > otlp.MaxAttributes {
			return fmt.Errorf("%d values, over the limit of %d", v.Slice().Len(), otlp.MaxAttributes)
		}
		for _, e := range v.Slice().All() {
			if err := limit(e); err != nil {
				return err
			}
		}
	case pcommon.ValueTypeMap:
		return limits("key", v.Map())
	}
	return nil
}

// short cuts a name for a message.
func short(s string) string {
	if len(s) <= 80 {
		return s
	}
	end := 80
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end] + "…"
}
