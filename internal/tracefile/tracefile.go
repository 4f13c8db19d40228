// Package tracefile writes and reads a test attempt's trace file
// (ananke.trace/v2): every event as received, masked, one per line, with
// the attempt's turns, runs and tool calls. The report directory holds one
// per attempt (reporters/reportdir); ananke merge and ananke trace export
// read them back.
package tracefile

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// Schema identifies the trace file format.
const Schema = "ananke.trace/v2"

// A trace file is compact JSON, one raw event per line:
//
//	{"schema":"ananke.trace/v2","test":{...},"attempt":{...},"test_start_ts":…,"test_end_ts":…,
//	 "history":[…],"turns":[{"index":0,…,"runs":[…],"events":[
//	[1,0,0,{"type":"RUN_STARTED",…}],
//	[2,12,0,{"type":"TEXT_MESSAGE_START",…}],
//	…]}]}
//
// Each event is [seq, at_ms, run, event]: its sequence number in the test,
// its receive time in ms since test_start_ts, the index of the turn's run
// it came in, and the event exactly as received (masked). An imported
// event has a fifth element, where it was read ("session.jsonl:14"). A turn
// whose events are not AG-UI's (an imported, A2A or MCP trace) also has
// "texts", its assistant messages, since no text events hold them. Events are
// written as they are read — from memory or from the run's spool — so
// writing a trace takes memory for one event, not for the whole stream.

// traceHead is the trace file's fields before its turns.
type traceHead struct {
	Schema string `json:"schema"`
	Test   struct {
		ID   string `json:"id"`
		Name string `json:"name"`
		File string `json:"file"`
	} `json:"test"`
	// Attempt names the attempt of a test run more than once.
	Attempt     *attemptRef `json:"attempt,omitempty"`
	TestStartMs int64       `json:"test_start_ts"`
	TestEndMs   int64       `json:"test_end_ts"`
	// TraceID and SpanID are the attempt's W3C trace id and root span
	// (docs/opentelemetry.md#trace-context); each turn has its span_id and
	// the spans of its requests.
	TraceID string          `json:"trace_id,omitempty"`
	SpanID  string          `json:"span_id,omitempty"`
	History []trace.Message `json:"history,omitempty"`
	// Source is where an imported or adapted trace came from: its adapter,
	// capabilities and runtime context (absent: an AG-UI run).
	Source *trace.Source `json:"source,omitempty"`
	// Doubles and Gateway say the attempt was bound to Ananke's tool
	// doubles and model gateway (docs/backend.md): its turns hold every
	// call to a double and every model call, so the trace has their
	// capabilities.
	Doubles bool `json:"doubles,omitempty"`
	Gateway bool `json:"model_gateway,omitempty"`
	// OTelReceiver says Ananke's OTLP receiver took the agent's spans for
	// the attempt, and Spans are those spans, masked
	// (docs/opentelemetry.md).
	OTelReceiver bool         `json:"otel_receiver,omitempty"`
	Spans        []trace.Span `json:"spans,omitempty"`
}

type attemptRef struct {
	Run    int           `json:"run"`
	Retry  int           `json:"retry"`
	Status status.Status `json:"status"`
}

// writers are reused across trace files: a suite writes thousands.
var writers = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 64<<10) }}

// Write writes the trace file of one attempt of a test (nil: the test
// never ran, and its trace is empty).
func Write(w io.Writer, t *report.Test, a *report.Attempt) error {
	bw := writers.Get().(*bufio.Writer)
	bw.Reset(w)
	defer func() {
		bw.Reset(nil)
		writers.Put(bw)
	}()
	tr := &trace.Trace{Turns: []trace.Turn{}}
	h := traceHead{Schema: Schema}
	if a != nil && a.Trace != nil {
		tr = a.Trace
		if len(t.Attempts) > 1 {
			h.Attempt = &attemptRef{Run: a.Run, Retry: a.Retry, Status: a.Status}
		}
	}
	h.Test.ID, h.Test.Name, h.Test.File = t.ID, t.Name, t.File
	h.TestStartMs, h.TestEndMs, h.History, h.Source = tr.TestStartMs, tr.TestEndMs, tr.History, tr.Source
	h.TraceID, h.SpanID = tr.TraceID, tr.SpanID
	h.Doubles, h.Gateway = tr.Doubles, tr.Gateway
	h.OTelReceiver, h.Spans = tr.OTelReceiver, tr.Spans
	head, err := marshal(h)
	if err != nil {
		return err
	}
	bw.Write(head[:len(head)-1]) // without its closing brace
	bw.WriteString(`,"turns":[`)
	for i := range tr.Turns {
		if i > 0 {
			bw.WriteByte(',')
		}
		if err := writeTurn(bw, tr, &tr.Turns[i]); err != nil {
			return err
		}
	}
	bw.WriteString("]}\n")
	return bw.Flush()
}

// writeTurn writes a turn's fields, then its events one per line.
func writeTurn(w *bufio.Writer, tr *trace.Trace, t *trace.Turn) error {
	head, err := marshal(t)
	if err != nil {
		return err
	}
	w.WriteString("\n")
	w.Write(head[:len(head)-1])
	if tr.Source != nil && tr.Source.Adapter != "ag-ui" {
		texts := t.Texts
		if texts == nil {
			texts = []string{}
		}
		b, err := marshal(texts)
		if err != nil {
			return err
		}
		w.WriteString(`,"texts":`)
		w.Write(b)
	}
	w.WriteString(`,"events":[`)
	first := true
	var num []byte
	err = t.ReadEvents(func(e *trace.Event) error {
		raw := json.RawMessage(e.Raw)
		if tr.Mask != nil {
			raw = tr.Mask(raw)
		}
		if !first {
			w.WriteByte(',')
		}
		first = false
		w.WriteString("\n[")
		num = strconv.AppendInt(num[:0], e.Seq, 10)
		num = append(num, ',')
		num = strconv.AppendInt(num, e.ReceivedMs-tr.TestStartMs, 10)
		num = append(num, ',')
		num = strconv.AppendInt(num, int64(e.Run), 10)
		num = append(num, ',')
		w.Write(num)
		w.Write(raw)
		if e.Origin != "" {
			w.WriteByte(',')
			b, _ := marshal(e.Origin) // a string always encodes
			w.Write(b)
		}
		return w.WriteByte(']')
	})
	if err != nil {
		return fmt.Errorf("write trace events: %w", err)
	}
	w.WriteString("]}")
	return nil
}

// marshal is compact JSON without HTML escaping and without the trailing
// newline.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// traceIn is a trace file as read back.
type traceIn struct {
	traceHead
	Turns []turnIn `json:"turns"`
}

type turnIn struct {
	trace.Turn
	// Texts are the assistant's messages of a turn whose events are not
	// AG-UI's (nil: rebuilt from the text events when needed).
	Texts  []string  `json:"texts"`
	Events []eventIn `json:"events"`
}

// eventIn is one [seq, at_ms, run, event(, origin)] element.
type eventIn struct {
	seq, at int64
	run     int
	raw     json.RawMessage
	origin  string
}

func (e *eventIn) UnmarshalJSON(b []byte) error {
	var parts []json.RawMessage
	if err := json.Unmarshal(b, &parts); err != nil || len(parts) < 4 || len(parts) > 5 {
		return fmt.Errorf("an event is [seq, at_ms, run, event], not %.60s", b)
	}
	if len(parts) == 5 {
		if err := json.Unmarshal(parts[4], &e.origin); err != nil {
			return fmt.Errorf("event origin: %w", err)
		}
	}
	if err := json.Unmarshal(parts[0], &e.seq); err != nil {
		return fmt.Errorf("event seq: %w", err)
	}
	if err := json.Unmarshal(parts[1], &e.at); err != nil {
		return fmt.Errorf("event at_ms: %w", err)
	}
	if err := json.Unmarshal(parts[2], &e.run); err != nil {
		return fmt.Errorf("event run: %w", err)
	}
	e.raw = parts[3]
	return nil
}

// Read reads a trace file back (for ananke merge): its events into
// memory, each with the type and producer timestamp its raw form names.
func Read(r io.Reader) (*trace.Trace, error) {
	var f traceIn
	if err := json.NewDecoder(r).Decode(&f); err != nil {
		return nil, fmt.Errorf("decode trace: %w", err)
	}
	if f.Schema != Schema {
		return nil, fmt.Errorf("trace schema %q, want %q", f.Schema, Schema)
	}
	tr := &trace.Trace{TestStartMs: f.TestStartMs, TestEndMs: f.TestEndMs, History: f.History, Source: f.Source, Doubles: f.Doubles, Gateway: f.Gateway,
		OTelReceiver: f.OTelReceiver, Spans: f.Spans,
		Turns: make([]trace.Turn, 0, len(f.Turns))}
	tr.TraceID, tr.SpanID = f.TraceID, f.SpanID
	for _, ti := range f.Turns {
		t := ti.Turn
		t.Texts = ti.Texts
		t.Events = make([]trace.Event, 0, len(ti.Events))
		for _, e := range ti.Events {
			var head struct {
				Type      string          `json:"type"`
				Timestamp json.RawMessage `json:"timestamp"`
			}
			_ = json.Unmarshal(e.raw, &head) // an event that is not an object keeps no type
			ts, _ := strconv.ParseInt(string(head.Timestamp), 10, 64)
			t.Events = append(t.Events, trace.Event{Seq: e.seq, ReceivedMs: f.TestStartMs + e.at, Run: e.run, Type: head.Type, Timestamp: ts, Raw: e.raw, Origin: e.origin})
		}
		tr.Turns = append(tr.Turns, t)
	}
	return tr, nil
}
