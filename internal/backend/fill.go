package backend

import (
	"bytes"
	"cmp"
	"encoding/json"
	"reflect"
	"slices"
	"strings"

	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/trace"
)

// Fill moves what the backend served during a turn into the turn, once
// the turn has ended (trace.Recorder.EndTurn) and before it is priced and
// checked.
//
// A call a double served that the agent also streamed in the turn — the
// same tool (the streamed name is the double's, or ends in it after a
// separator its MCP client added: "inventory_check_stock",
// "inventory__check_stock", "inventory.check_stock",
// "inventory/check_stock", "inventory-check_stock"), arguments equal as
// JSON, and not matched to another served call — keeps its streamed
// record and gains Served (and the served result when the stream had
// none). Any other served call is added to the turn: the trace then
// shows what an agent that streams no tool calls did. The turn's calls
// are ordered by start time, streamed calls keeping their order.
//
// The model calls go to Turn.ModelCalls, in the order they started. When
// the agent reported no usage for the turn (Turn.Usage nil), or only
// usage that says nothing (every count it knows zero, no cost: some
// agents report {totalTokens: 0} when their model calls reported none),
// and some model call reported usage, the turn's usage is the model
// calls', in place of the agent's: one part per call that was answered
// (a call Ananke faulted, or that failed, used nothing and counts for
// none), summed per provider and model.
func Fill(turn *trace.Turn, calls []trace.ToolCall, models []trace.ModelCall) {
	if len(calls) > 0 {
		fillCalls(turn, calls)
	}
	if len(models) > 0 {
		turn.ModelCalls = append(turn.ModelCalls, models...)
		slices.SortStableFunc(turn.ModelCalls, func(a, b trace.ModelCall) int { return cmp.Compare(a.StartedMs, b.StartedMs) })
		if SaysNothing(turn.Usage) {
			if u := ModelUsage(turn.ModelCalls); u != nil {
				turn.Usage = u
			}
		}
	}
}

// SaysNothing reports whether an agent's usage tells nothing the model
// calls could not (the gateway's, or those the agent's spans describe:
// internal/otel/genai): none reported, or every count it knows zero and
// no cost above zero.
func SaysNothing(s *cost.Spend) bool {
	if s == nil {
		return true
	}
	for _, m := range s.Models {
		if !m.Tokens.Zero() || (m.CostUSD != nil && *m.CostUSD != 0) {
			return false
		}
	}
	return true
}

func fillCalls(turn *trace.Turn, calls []trace.ToolCall) {
	streamed := len(turn.ToolCalls)
	matched := make([]bool, streamed)
	for _, c := range calls {
		c.Turn = turn.Index
		c.ArgsJSON = json.Valid([]byte(c.Args))
		if c.TimestampMs == 0 {
			c.TimestampMs = max(c.EndedMs, c.StartedMs)
		}
		tool := servedTool(c)
		if c.Name == "" {
			c.Name = tool
		}
		i := -1
		for j := range streamed {
			if s := turn.ToolCalls[j]; !matched[j] && s.Served == nil && SameTool(s.Name, tool) && SameArgs(s.Args, c.Args) {
				i = j
				break
			}
		}
		if i < 0 {
			turn.ToolCalls = append(turn.ToolCalls, c)
			continue
		}
		matched[i] = true
		s := &turn.ToolCalls[i]
		s.Served = c.Served
		if s.Result == nil && c.Result != nil {
			s.Result = c.Result
		}
	}
	slices.SortStableFunc(turn.ToolCalls, func(a, b trace.ToolCall) int { return cmp.Compare(a.StartedMs, b.StartedMs) })
}

// separators are what an agent's MCP client puts between a server's name
// and its tool's.
var separators = []string{"_", "__", ".", "/", "-", ":"}

// SameTool reports whether a streamed call's name is the double's tool
// (or the tool a span names, internal/otel/genai): the same, or the tool
// prefixed by a server name and a separator.
func SameTool(streamed, tool string) bool {
	if streamed == tool {
		return true
	}
	for _, sep := range separators {
		if strings.HasSuffix(streamed, sep+tool) && len(streamed) > len(sep+tool) {
			return true
		}
	}
	return false
}

// SameArgs reports whether two calls' arguments are equal as JSON (an
// empty text is an empty object); text that is not JSON must be equal
// as is.
func SameArgs(a, b string) bool {
	va, oka := jsonValue(a)
	vb, okb := jsonValue(b)
	if !oka || !okb {
		return strings.TrimSpace(a) == strings.TrimSpace(b)
	}
	return reflect.DeepEqual(va, vb)
}

func jsonValue(s string) (any, bool) {
	if strings.TrimSpace(s) == "" {
		return map[string]any{}, true
	}
	d := json.NewDecoder(bytes.NewReader([]byte(s)))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil || d.More() {
		return nil, false
	}
	return normalNumbers(v), true
}

// normalNumbers writes numbers the same way whatever their text (1, 1.0,
// 1e0), so that equal arguments compare equal.
func normalNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if f, err := x.Float64(); err == nil {
			return f
		}
		return x.String()
	case map[string]any:
		for k, e := range x {
			x[k] = normalNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = normalNumbers(e)
		}
	}
	return v
}

// ModelUsage is what model calls used: one part per call that was
// answered, its usage summed per provider and model (named by the
// response's model, else the request's); nil when none reported usage.
// A call Ananke faulted, or that failed, used nothing and is no part; an
// answered call that reported no usage (a stream without usage) is a
// part unreported.
func ModelUsage(models []trace.ModelCall) *cost.Spend {
	if !slices.ContainsFunc(models, func(m trace.ModelCall) bool { return m.Usage != nil }) {
		return nil
	}
	s := &cost.Spend{}
	for _, m := range models {
		switch {
		case m.Usage != nil:
			u := *m.Usage
			if u.Model == "" {
				u.Model = m.ResponseModel
			}
			if u.Model == "" {
				u.Model = m.Model
			}
			s.Add(u)
		case m.Fault == "" && m.Error == "" && m.Status >= 200 && m.Status < 300:
			s.Missing()
		}
	}
	return s
}

// Served reports whether the doubles answered, in turn i, a call of the
// tool the agent names name (a double's name, or it prefixed by a server
// name) with these arguments: a call the agent streamed with no result is
// then its backend's, not a client tool the test failed to answer.
func (bd *Binding) Served(i int, name, args string) bool {
	bd.mu.Lock()
	defer bd.mu.Unlock()
	for _, c := range bd.calls {
		tool := servedTool(c)
		if c.Turn == i && SameTool(name, tool) && SameArgs(args, c.Args) {
			return true
		}
	}
	return false
}

// servedTool is the double a served call called: its Served.Tool, else
// its name.
func servedTool(c trace.ToolCall) string {
	if c.Served != nil && c.Served.Tool != "" {
		return c.Served.Tool
	}
	return c.Name
}
