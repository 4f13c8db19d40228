package trace

import (
	"encoding/json"
	"strings"

	"github.com/ananke/action/internal/cost"
)

// ListToolsCall is the name of the call a tool listing (an MCP
// tools/list, the list_tools turn) is recorded as: the tools_list checks
// read it.
const ListToolsCall = "tools/list"

// Trace is everything captured for one test.
type Trace struct {
	TestStartMs int64 `json:"test_start_ts"`
	TestEndMs   int64 `json:"test_end_ts"`
	// TraceID is the W3C trace id of the attempt (32 hex digits) and
	// SpanID its root span's id (16): every request to the agent carries
	// them in traceparent, under a span per turn and per run
	// (docs/opentelemetry.md). Empty for an imported trace.
	TraceID string `json:"trace_id,omitempty"`
	SpanID  string `json:"span_id,omitempty"`
	// Spans are the agent's OpenTelemetry spans for the attempt, in the
	// order they started (docs/opentelemetry.md).
	Spans []Span `json:"spans,omitempty"`
	// History is the messages the test placed before its first turn.
	History []Message `json:"history,omitempty"`
	Turns   []Turn    `json:"turns"`
	// Source is where the trace came from; nil for an AG-UI run.
	Source *Source `json:"-"`
	// Notices are what the reader of a recorded run went past or must
	// say about what it read (a line it could not read, a subagent's
	// transcript read alone); the test reports each as a warning.
	Notices []Notice `json:"-"`
	// Doubles and Gateway say the attempt was bound to Ananke's tool
	// doubles and to its model gateway (docs/backend.md): every call the
	// agent made to a double is among the turns' ToolCalls, and every
	// request to its model among their ModelCalls (Trace.Backend).
	Doubles bool `json:"doubles,omitempty"`
	Gateway bool `json:"model_gateway,omitempty"`
	// OTelReceiver says Ananke's OTLP receiver took the agent's spans for
	// the attempt (docs/opentelemetry.md): Spans are every span the agent
	// sent under TraceID before the attempt ended, none when it sent none.
	OTelReceiver bool `json:"otel_receiver,omitempty"`
	// Mask, when set, masks each raw event when it is read for a report
	// (ReadEvents): the report sets it, since masking needs every test's
	// secrets.
	Mask func(json.RawMessage) json.RawMessage `json:"-"`
}

// Notice is one thing the reader of a recorded run noticed.
type Notice struct {
	// Turn is the turn it concerns (0 before the first).
	Turn int
	// Message says what and where ("session.jsonl:7: not a JSON object…").
	Message string
}

// Message is a history message as the test gave it.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
	// Attachments are the files the message carried.
	Attachments []Attachment `json:"attachments,omitempty"`
}

// Attachment is a file a message carried: one the user sent, or one the
// agent sent (Turn.AgentFiles). Its bytes are not kept: Bytes is their
// size (0 for a file given by its URI).
type Attachment struct {
	Name  string `json:"name"`
	MIME  string `json:"mime_type"`
	Bytes int    `json:"bytes"`
	// URI is where a file sent by reference is (an A2A file part's url);
	// empty for a file whose bytes came inline.
	URI string `json:"uri,omitempty"`
}

// KindSimulated is the kind of a turn whose user message a simulated user
// wrote (a dynamic test); the others are "user" and "agui:connect".
const KindSimulated = "simulated"

// Turn is what one scripted turn produced. A turn may span several runs when
// client tools are answered with follow-up runs.
type Turn struct {
	Index    int    `json:"index"`
	Kind     string `json:"type"`
	UserText string `json:"user,omitempty"`
	// UserSeq is the event the user's message was read from, in an
	// imported trace; 0 when Ananke sent the message (it is in the run's
	// request, not in an event).
	UserSeq int64 `json:"user_seq,omitempty"`
	// Attachments are the files the turn's user message carried.
	Attachments []Attachment `json:"attachments,omitempty"`
	// AgentFiles are the files the agent sent in the turn (an A2A
	// agent's file parts), in the order they arrived.
	AgentFiles []Attachment `json:"agent_files,omitempty"`
	StartMs    int64        `json:"turn_start_ts"`
	EndMs      int64        `json:"turn_end_ts"`
	// SpanID is the turn's span in the attempt's trace (TraceID), and
	// Requests the spans of the HTTP requests the turn sent the agent,
	// under it: each request's traceparent names its span, so the agent's
	// spans nest under it (docs/opentelemetry.md).
	SpanID    string        `json:"span_id,omitempty"`
	Requests  []RequestSpan `json:"requests,omitempty"`
	ToolCalls []ToolCall    `json:"tool_calls"`
	// Texts holds the assistant text messages of the turn in the order they
	// were started; Text joins them. A trace file writes them beside the
	// events only when the events are not AG-UI's (an imported or an
	// A2A or MCP trace): an AG-UI turn's text is its events' deltas.
	Texts []string `json:"-"`
	// Reasoning holds the text of the reasoning messages the agent made
	// visible in the turn (AG-UI's REASONING_* events, an imported
	// transcript's thinking blocks), in the order they started: kept
	// apart from its assistant text, which never includes it.
	Reasoning []string        `json:"reasoning,omitempty"`
	RunErrors []RunError      `json:"run_errors,omitempty"`
	State     json.RawMessage `json:"state,omitempty"`
	// Interrupts are what the turn's runs ended with to ask the client
	// something, and Resumes the answers the turn sent to the interrupts
	// pending before it (interrupt.go).
	Interrupts []Interrupt `json:"interrupts,omitempty"`
	Resumes    []Resume    `json:"resumes,omitempty"`
	// Runs are the AG-UI runs the turn took: one, plus one per follow-up
	// run that answered client tools.
	Runs []Run `json:"runs"`
	// Events are the raw events, when kept in memory (see EachEvent and
	// ReadEvents, which also read spooled ones). Trace files write them
	// after the turn's other fields (package tracefile).
	Events []Event `json:"-"`
	// FirstTextMs is when the turn's first assistant text arrived (its
	// first non-empty content), FirstTextSeq that event; 0 without text.
	FirstTextMs  int64 `json:"first_text_ms,omitempty"`
	FirstTextSeq int64 `json:"first_text_seq,omitempty"`
	// Memory are the reads and writes of the agent's memory, and Outbound
	// the messages it sent out, when the source observes them.
	Memory   []MemoryEvent `json:"memory,omitempty"`
	Outbound []Outbound    `json:"outbound,omitempty"`
	// Activities are the activity messages the agent updated in the turn
	// (AG-UI's ACTIVITY_SNAPSHOT and ACTIVITY_DELTA), and Subagents the
	// sub-agent runs it started (SUBAGENT_*): see extras.go.
	Activities []Activity `json:"activities,omitempty"`
	Subagents  []Subagent `json:"subagents,omitempty"`
	// Usage is what the agent's model calls used in the turn, summed over
	// its runs (or, in an imported trace, its assistant messages) per
	// provider and model; nil when none of them reported usage — unknown,
	// not zero (docs/cost.md).
	Usage *cost.Spend `json:"usage,omitempty"`
	// ModelCalls are the agent's requests to its model that went through
	// Ananke's model gateway in the turn, in the order they started
	// (docs/gateway.md); empty without a gateway.
	ModelCalls []ModelCall `json:"model_calls,omitempty"`

	// spooled, when set, holds the turn's events on disk; Events is then
	// empty.
	spooled *spooled
}

// EachEvent calls fn with the sequence number and type of each raw event of
// the turn, in order, whether the events are in memory or spooled.
func (t *Turn) EachEvent(fn func(seq int64, typ string)) {
	if s := t.spooled; s != nil {
		for i, c := range s.types {
			fn(s.firstSeq+int64(i), s.names.name(c))
		}
		return
	}
	for i := range t.Events {
		fn(t.Events[i].Seq, t.Events[i].Type)
	}
}

// ReadEvents calls fn with each raw event of the turn, in order. The
// *Event passed to fn is only valid until fn returns: a spooled event's
// Raw, and the Event itself, are reused for the next one.
func (t *Turn) ReadEvents(fn func(e *Event) error) error {
	return t.ReadEventsIf(nil, fn)
}

// ReadEventsIf is ReadEvents for the events keep accepts: keep is called
// with each event's sequence number, in order, and an event it refuses is
// skipped without being read into memory. A nil keep accepts every event.
func (t *Turn) ReadEventsIf(keep func(seq int64) bool, fn func(e *Event) error) error {
	if s := t.spooled; s != nil {
		var e Event
		return s.spool.read(s.from, s.to, keep, func(seq, at int64, run int, raw []byte) error {
			e = Event{Seq: seq, ReceivedMs: at, Run: run, Raw: raw}
			if i := seq - s.firstSeq; i >= 0 && i < int64(len(s.types)) {
				e.Type = s.names.name(s.types[i])
			}
			return fn(&e)
		})
	}
	for i := range t.Events {
		if keep != nil && !keep(t.Events[i].Seq) {
			continue
		}
		if err := fn(&t.Events[i]); err != nil {
			return err
		}
	}
	return nil
}

// Run is one request/response exchange of a turn.
type Run struct {
	RunID   string          `json:"run_id"`
	Request json.RawMessage `json:"request"`
	StartMs int64           `json:"start_ms"`
	EndMs   int64           `json:"end_ms"`
	// FirstSeq is the sequence number of the run's first event, so that a
	// frame index reported by the client maps to a sequence number.
	FirstSeq int64 `json:"first_seq"`
	Frames   int   `json:"frames"`
	// FirstEventMs is when the run's first event arrived (0: none did).
	FirstEventMs int64 `json:"first_event_ms,omitempty"`
	// Usage is the usage the run reported (AG-UI's RUN_FINISHED or
	// RUN_ERROR usage, what an A2A exchange's metadata reported); nil when
	// it reported none. The recorder sums a turn's runs into Turn.Usage.
	Usage *cost.Spend `json:"usage,omitempty"`
}

// Text is the turn's assistant text: every assistant message joined by "\n".
func (t *Turn) Text() string { return strings.Join(t.Texts, "\n") }

// DurationMs is the time from the turn's start to its end.
func (t *Turn) DurationMs() int64 { return t.EndMs - t.StartMs }

// ToolCall is one call the agent made, backend or client.
type ToolCall struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Turn int    `json:"turn"`
	// Args is the concatenated TOOL_CALL_ARGS text. ArgsJSON is true when it
	// parsed as JSON; an unparseable string is kept as is and flagged.
	Args     string `json:"args"`
	ArgsJSON bool   `json:"args_json"`
	// Result is nil when no result arrived (a pending client call, or a
	// truncated stream).
	Result *Result `json:"result,omitempty"`
	// Client is true for calls to client tools that Ananke answered itself.
	Client bool `json:"client,omitempty"`
	// Agent is the subagent that made the call: in an imported session
	// whose agent delegated work its id (e.g. "a3f9c2e1"), in an AG-UI
	// run the name its SUBAGENT_STARTED gave; empty for the main agent's
	// calls. SubagentRunID is the sub-agent run the call belongs to, when
	// the protocol names one (AG-UI's subagentRunId).
	Agent         string `json:"agent,omitempty"`
	SubagentRunID string `json:"subagent_run_id,omitempty"`
	// Served, when set, says Ananke's tool doubles answered the call
	// (docs/doubles.md).
	Served *Served `json:"served,omitempty"`
	// Source says where a call the agent did not stream was found:
	// SourceSpans for a call known only from the agent's OpenTelemetry
	// spans (docs/opentelemetry.md); empty for a streamed call, and for
	// one the doubles served (Served).
	Source string `json:"source,omitempty"`

	StartedMs int64 `json:"started_ms"`
	EndedMs   int64 `json:"ended_ms,omitempty"`
	// TimestampMs is when the call completed: its result arrived or, with no
	// result, its TOOL_CALL_END.
	TimestampMs int64 `json:"timestamp"`

	StartSeq  int64 `json:"start_seq"`
	EndSeq    int64 `json:"end_seq,omitempty"`
	ResultSeq int64 `json:"result_seq,omitempty"`
}

// SourceSpans is the Source of a tool call found in the agent's spans.
const SourceSpans = "spans"

// Result is a tool call's result as received.
type Result struct {
	// Content is the TOOL_CALL_RESULT content exactly as received: the string
	// itself, or the JSON text of a content-part list.
	Content string `json:"content"`
	// JSON is true when Content is valid JSON.
	JSON bool `json:"json"`
	// Error is set when the tool message reported a failure.
	Error string `json:"error,omitempty"`
}

// RunError is a RUN_ERROR the agent sent.
type RunError struct {
	Message string `json:"message"`
	Code    string `json:"code,omitempty"`
	Seq     int64  `json:"seq"`
}

// Event is one raw protocol event as received.
type Event struct {
	Seq        int64  `json:"seq"`
	ReceivedMs int64  `json:"received_ms"`
	Run        int    `json:"run"`
	Type       string `json:"type"`
	// Timestamp is the producer's own timestamp, when it sent one.
	Timestamp int64           `json:"timestamp,omitempty"`
	Raw       json.RawMessage `json:"raw"`
	// Origin is where an imported event was read ("session.jsonl:14");
	// empty for events received from an agent.
	Origin string `json:"origin,omitempty"`
}

// Served says that a tool call was answered by Ananke's tool doubles
// (docs/doubles.md): the agent called an MCP tool Ananke served in its
// backend's place. A call the agent also streamed keeps its streamed
// name and gains this record; one it did not stream is known only from
// it.
type Served struct {
	// By is what served the call: "doubles".
	By string `json:"by"`
	// Tool is the double's name (the streamed name may carry a prefix the
	// agent's MCP client added, e.g. "inventory_check_stock").
	Tool string `json:"tool"`
	// Answer is the answer that was chosen: "result", "match[1]",
	// "turn[2]", "fault:timeout", … ; empty when the call had none.
	Answer string `json:"answer,omitempty"`
	// Unanswered is set when the test gave the tool no answer: the agent
	// got an MCP error, and the report marks the call.
	Unanswered bool `json:"unanswered,omitempty"`
	// LatencyMs is the delay the answer was held for.
	LatencyMs int64 `json:"latency_ms,omitempty"`
	// TraceParent is the W3C traceparent the agent's call carried, when
	// it sent one: its client span, in the attempt's trace when the agent
	// continued it (docs/opentelemetry.md#trace-context).
	TraceParent string `json:"traceparent,omitempty"`
}

// ModelCall is one request the agent made to its model through Ananke's
// model gateway (docs/gateway.md).
type ModelCall struct {
	// Turn is the turn it was made in.
	Turn int `json:"turn"`
	// TraceParent is the W3C traceparent the agent's request carried,
	// when it sent one (docs/opentelemetry.md#trace-context).
	TraceParent string `json:"traceparent,omitempty"`
	// Model is the model the request asked for; Response the one the
	// response named (they differ when a provider routes).
	Model         string `json:"model"`
	ResponseModel string `json:"response_model,omitempty"`
	Stream        bool   `json:"stream,omitempty"`
	// Messages is how many messages the request carried, and Tools the
	// names of the tools it offered.
	Messages int      `json:"messages"`
	Tools    []string `json:"tools,omitempty"`
	// Usage is what the response reported (nil: none): prompt tokens
	// are its input.
	Usage *cost.Usage `json:"usage,omitempty"`
	// Status is the HTTP status the agent got; Fault the fault Ananke
	// injected instead of forwarding ("429", "500", "timeout",
	// "truncate"), and Error why the gateway could not answer as the
	// test meant (a request with no recording in replay, an upstream it
	// could not reach): the attempt errors with it. Note is what happened
	// that the agent is judged on, not an error of the run: the upstream
	// (or the recording) answered with an HTTP error, the agent closed
	// the stream early.
	Status int    `json:"status"`
	Fault  string `json:"fault,omitempty"`
	Error  string `json:"error,omitempty"`
	Note   string `json:"note,omitempty"`
	// Mode is how the gateway answered: "record", "replay" or
	// "passthrough".
	Mode string `json:"mode"`
	// FinishReason is the response's finish_reason ("stop",
	// "tool_calls", "length").
	FinishReason string `json:"finish_reason,omitempty"`
	// ToolCalls are the names of the tools the response called.
	ToolCalls []string `json:"tool_calls,omitempty"`
	StartedMs int64    `json:"started_ms"`
	EndedMs   int64    `json:"ended_ms"`
}
