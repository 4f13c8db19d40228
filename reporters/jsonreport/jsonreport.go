// Package jsonreport writes the machine-readable files of the report
// directory: summary.json (the whole run, schema ananke.report/v1), one
// result file and one trace file per test.
package jsonreport

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/trace"
)

// TraceSchema identifies the trace file format.
const TraceSchema = "ananke.trace/v1"

// WriteSummary writes summary.json.
func WriteSummary(w io.Writer, r *report.Report) error { return encode(w, r) }

// WriteResult writes one test's result file: its entry of summary.json.
func WriteResult(w io.Writer, t *report.Test) error { return encode(w, t) }

// traceFile is a test's trace file: every raw event with its sequence
// number and receive time, the request bodies sent, and the captured turns
// (all masked when the report was built).
type traceFile struct {
	Schema string `json:"schema"`
	Test   struct {
		ID   string `json:"id"`
		Name string `json:"name"`
		File string `json:"file"`
	} `json:"test"`
	// Attempt names the attempt of a test run more than once.
	Attempt *attemptRef `json:"attempt,omitempty"`
	*trace.Trace
}

type attemptRef struct {
	Run    int    `json:"run"`
	Retry  int    `json:"retry"`
	Status string `json:"status"`
}

// WriteTrace writes the trace file of one attempt of a test (nil: the test
// never ran, and its trace is empty).
func WriteTrace(w io.Writer, t *report.Test, a *report.Attempt) error {
	f := traceFile{Schema: TraceSchema}
	if a != nil {
		f.Trace = a.Trace
		if len(t.Attempts) > 1 {
			f.Attempt = &attemptRef{Run: a.Run, Retry: a.Retry, Status: a.Status}
		}
	}
	if f.Trace == nil {
		f.Trace = &trace.Trace{Turns: []trace.Turn{}}
	}
	f.Test.ID, f.Test.Name, f.Test.File = t.ID, t.Name, t.File
	return encode(w, f)
}

// encode writes indented JSON without HTML escaping, so agent text reads
// as the agent sent it.
func encode(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// ReadTrace reads a trace file back (for ananke merge).
func ReadTrace(r io.Reader) (*trace.Trace, error) {
	var f traceFile
	if err := json.NewDecoder(r).Decode(&f); err != nil {
		return nil, fmt.Errorf("decode trace: %w", err)
	}
	if f.Schema != TraceSchema {
		return nil, fmt.Errorf("trace schema %q, want %q", f.Schema, TraceSchema)
	}
	if f.Trace == nil {
		f.Trace = &trace.Trace{}
	}
	if f.Turns == nil {
		f.Turns = []trace.Turn{}
	}
	return f.Trace, nil
}
