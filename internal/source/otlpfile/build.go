package otlpfile

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/otel/genai"
	"github.com/ananke/action/internal/trace"
)

// SpanEvent is the type of the events an imported trace holds: one per
// span, its JSON the span as the trace model has it.
const SpanEvent = "otlp.span"

// build makes the trace: one turn per trace id when the file holds
// several traces, else one per root span (a span whose parent is not in
// the file); each span belongs to its turn.
func build(all []read, display string) (*trace.Trace, error) {
	tr := &trace.Trace{Turns: []trace.Turn{}}
	seen := map[[2]string]bool{}
	var spans []read
	for _, s := range all {
		k := [2]string{s.TraceID, s.SpanID}
		if seen[k] {
			tr.Notices = append(tr.Notices, trace.Notice{Message: fmt.Sprintf("%s:%d: span %s of trace %s is written twice; the first is kept", display, s.line, s.SpanID, s.TraceID)})
			continue
		}
		seen[k] = true
		spans = append(spans, s)
	}
	slices.SortStableFunc(spans, func(a, b read) int {
		switch {
		case a.StartNs < b.StartNs:
			return -1
		case a.StartNs > b.StartNs:
			return 1
		}
		return 0
	})
	turnOf, err := turns(spans, display)
	if err != nil {
		return nil, err
	}
	n := 0
	for _, t := range turnOf {
		n = max(n, t+1)
	}
	byTurn := make([][]trace.Span, n)
	for i := range spans {
		spans[i].Turn = turnOf[i]
		byTurn[turnOf[i]] = append(byTurn[turnOf[i]], spans[i].Span)
	}
	seq := int64(0)
	for t := range n {
		turn := trace.Turn{Index: t, Kind: "user", ToolCalls: []trace.ToolCall{}}
		for i := range spans {
			s := &spans[i]
			if s.Turn != t {
				continue
			}
			if len(turn.Events) == 0 || s.StartNs/1e6 < turn.StartMs {
				turn.StartMs = s.StartNs / 1e6
			}
			turn.EndMs = max(turn.EndMs, s.EndNs/1e6)
			raw, _ := json.Marshal(s.Span) // a span of strings, numbers and maps always encodes
			seq++
			turn.Events = append(turn.Events, trace.Event{Seq: seq, ReceivedMs: s.StartNs / 1e6, Type: SpanEvent, Raw: raw, Origin: fmt.Sprintf("%s:%d", display, s.line)})
		}
		texts(&turn, byTurn[t], tr)
		genai.Fill(&turn, byTurn[t])
		tr.Turns = append(tr.Turns, turn)
	}
	tr.Spans = make([]trace.Span, len(spans))
	for i := range spans {
		tr.Spans[i] = spans[i].Span
	}
	tr.TestStartMs, tr.TestEndMs = tr.Turns[0].StartMs, tr.Turns[0].EndMs
	for _, t := range tr.Turns {
		tr.TestEndMs = max(tr.TestEndMs, t.EndMs)
	}
	caps := []string{capability.Spans, capability.Replay}
	if toolTrace(tr) {
		caps = append(caps, capability.ToolTrace)
	}
	tr.Source = &trace.Source{Adapter: Adapter, Version: Version, Mode: "import", Capabilities: caps, Path: display}
	return tr, nil
}

// turns gives each span (sorted by start) its turn; a span whose
// parents form a cycle is an error.
func turns(spans []read, display string) ([]int, error) {
	out := make([]int, len(spans))
	var traces []string
	for _, s := range spans {
		if !slices.Contains(traces, s.TraceID) {
			traces = append(traces, s.TraceID)
		}
	}
	if len(traces) > 1 {
		for i, s := range spans {
			out[i] = slices.Index(traces, s.TraceID)
		}
		return out, nil
	}
	index := make(map[string]int, len(spans))
	for i, s := range spans {
		index[s.SpanID] = i
	}
	parent := func(i int) (int, bool) {
		p, ok := index[spans[i].ParentID]
		return p, ok && spans[i].ParentID != ""
	}
	turn := map[int]int{} // a root span's position → its turn
	for i := range spans {
		if _, ok := parent(i); !ok {
			turn[i] = len(turn)
		}
	}
	const (
		unseen = iota
		walking
		done
	)
	state, root := make([]int, len(spans)), make([]int, len(spans))
	for i := range spans {
		var path []int
		r := -1
		for j := i; r < 0; {
			switch state[j] {
			case done:
				r = root[j]
				continue
			case walking:
				return nil, fmt.Errorf("%s:%d: span %s: its parents form a cycle", display, spans[j].line, spans[j].SpanID)
			}
			state[j] = walking
			path = append(path, j)
			p, ok := parent(j)
			if !ok {
				r = j
				continue
			}
			j = p
		}
		for _, k := range path {
			state[k], root[k] = done, r
		}
		out[i] = turn[r]
	}
	return out, nil
}

// toolTrace: the trace holds tool calls, or spans of tool executions the
// GenAI conventions describe.
func toolTrace(tr *trace.Trace) bool {
	for _, t := range tr.Turns {
		if len(t.ToolCalls) > 0 {
			return true
		}
	}
	for _, s := range tr.Spans {
		if s.Attributes["gen_ai.operation.name"] == "execute_tool" {
			return true
		}
	}
	return false
}
