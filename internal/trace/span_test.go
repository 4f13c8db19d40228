package trace

import (
	"slices"
	"testing"

	"github.com/ananke/action/internal/capability"
)

// TestSpanScopes: a turn's scope holds the spans attributed to it, the
// test's every span, those of no turn included.
func TestSpanScopes(t *testing.T) {
	tr := &Trace{
		Turns: []Turn{{Index: 0}, {Index: 1}},
		Spans: []Span{{SpanID: "a", Turn: 0}, {SpanID: "b", Turn: 1}, {SpanID: "c", Turn: -1}, {SpanID: "d", Turn: 1}},
	}
	ids := func(s Scope) []string {
		var out []string
		for _, sp := range s.Spans() {
			out = append(out, sp.SpanID)
		}
		return out
	}
	for _, tc := range []struct {
		s    Scope
		want []string
	}{
		{tr.TurnScope(0), []string{"a"}},
		{tr.TurnScope(1), []string{"b", "d"}},
		{tr.TestScope(), []string{"a", "b", "c", "d"}},
		{Scope{}.WithSpans(tr.Spans[2:3]), []string{"c"}},
	} {
		if got := ids(tc.s); !slices.Equal(got, tc.want) {
			t.Errorf("%s: spans %v, want %v", tc.s.Name, got, tc.want)
		}
	}
}

// TestSpanCaps: spans give a trace supports_spans, and calls found in
// them its tool trace.
func TestSpanCaps(t *testing.T) {
	a2a := &Source{Adapter: "a2a", Capabilities: []string{capability.LiveRun}}
	for _, tc := range []struct {
		name string
		tr   Trace
		want []string
	}{
		{"no spans", Trace{Source: a2a, Turns: []Turn{{ToolCalls: []ToolCall{{Name: "x"}}}}}, []string{capability.LiveRun}},
		{"spans", Trace{Source: a2a, Spans: []Span{{SpanID: "a"}}}, []string{capability.LiveRun, capability.Spans}},
		{"a call found in spans", Trace{Source: a2a, Spans: []Span{{SpanID: "a"}}, Turns: []Turn{{ToolCalls: []ToolCall{{Name: "x", Source: SourceSpans}}}}},
			[]string{capability.ToolTrace, capability.LiveRun, capability.Spans}},
	} {
		if got := tc.tr.Caps(); !slices.Equal(got, tc.want) {
			t.Errorf("%s: caps %v, want %v", tc.name, got, tc.want)
		}
		if got := tc.tr.TestScope().Caps(); !slices.Equal(got, tc.want) {
			t.Errorf("%s: the test scope's caps %v, want %v", tc.name, got, tc.want)
		}
	}
}
