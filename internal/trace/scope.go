package trace

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Scope is the slice of a trace one set of assertions is evaluated over: a
// single turn, or the whole test.
type Scope struct {
	// Name is "turn[N]" (0-based) or "test".
	Name  string
	Turns []Turn
	// Before holds the calls made in earlier turns of the test, so that
	// ordering constraints ("after") can look back across turns.
	Before []ToolCall
	// Prior holds the turns before the scope and History the messages the
	// test placed before its first turn: what the agent was told so far,
	// for groundedness.
	Prior   []Turn
	History []Message
	StartMs int64
	EndMs   int64
	// Source is the trace's source (nil: an AG-UI run).
	Source *Source
	// UsageReported: some turn of the trace reported usage, so the trace
	// has capability.Usage whatever its source (Trace.Caps).
	UsageReported bool
	// Backend are the capabilities the trace has from Ananke's backend
	// (Trace.Backend).
	Backend []string
	// spans are the agent's spans in scope (Spans).
	spans []Span
}

// Spans are the agent's OpenTelemetry spans in scope: those attributed to
// the turn (Span.Turn), or every span of the attempt for the whole test,
// those of no turn included.
func (s Scope) Spans() []Span { return s.spans }

// WithSpans returns the scope with spans as its spans.
func (s Scope) WithSpans(spans []Span) Scope {
	s.spans = spans
	return s
}

// Caps returns the capabilities of the scope's trace.
func (s Scope) Caps() []string { return withCaps(s.Source.Caps(), s.UsageReported, s.Backend) }

// ModelCalls is every model call in the scope, in order.
func (s Scope) ModelCalls() []ModelCall {
	var out []ModelCall
	for i := range s.Turns {
		out = append(out, s.Turns[i].ModelCalls...)
	}
	return out
}

// TurnScope is turn i of the trace, with the calls of earlier turns as
// history.
func (t *Trace) TurnScope(i int) Scope {
	s := Scope{Name: TurnName(i), Turns: t.Turns[i : i+1], Prior: t.Turns[:i], History: t.History, StartMs: t.Turns[i].StartMs, EndMs: t.Turns[i].EndMs, Source: t.Source, UsageReported: t.UsageReported(), Backend: t.Backend()}
	for _, prev := range t.Turns[:i] {
		s.Before = append(s.Before, prev.ToolCalls...)
	}
	for j := range t.Spans {
		if t.Spans[j].Turn == t.Turns[i].Index {
			s.spans = append(s.spans, t.Spans[j])
		}
	}
	return s
}

// TestScope is the whole test: from the first turn's start to the last
// turn's end (hooks excluded).
func (t *Trace) TestScope() Scope {
	s := Scope{Name: "test", Turns: t.Turns, History: t.History, Source: t.Source, UsageReported: t.UsageReported(), Backend: t.Backend(), spans: t.Spans}
	if n := len(t.Turns); n > 0 {
		s.StartMs, s.EndMs = t.Turns[0].StartMs, t.Turns[n-1].EndMs
	}
	return s
}

// TurnName is the scope name of turn i.
func TurnName(i int) string { return "turn[" + strconv.Itoa(i) + "]" }

// ToolCalls is every call in the scope, in order.
func (s Scope) ToolCalls() []ToolCall {
	var calls []ToolCall
	for _, t := range s.Turns {
		calls = append(calls, t.ToolCalls...)
	}
	return calls
}

// Text is the scope's assistant text: each turn's text joined by "\n".
func (s Scope) Text() string {
	texts := make([]string, 0, len(s.Turns))
	for i := range s.Turns {
		if txt := s.Turns[i].Text(); txt != "" {
			texts = append(texts, txt)
		}
	}
	return strings.Join(texts, "\n")
}

// DurationMs is the scope's duration.
func (s Scope) DurationMs() int64 { return s.EndMs - s.StartMs }

// State is the agent state after the scope: after its last turn (nil when
// the scope has no turns).
func (s Scope) State() json.RawMessage {
	if n := len(s.Turns); n > 0 {
		return s.Turns[n-1].State
	}
	return nil
}
