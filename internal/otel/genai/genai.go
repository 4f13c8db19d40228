// Package genai reads the agent's OpenTelemetry spans by the GenAI
// semantic conventions (gen_ai.operation.name, gen_ai.tool.name,
// gen_ai.request.model, gen_ai.usage.input_tokens, …): the tool calls
// and model calls they describe join a turn's tool trace and usage,
// marked as found in spans (docs/opentelemetry.md).
package genai

import (
	"cmp"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/ananke/action/internal/backend"
	"github.com/ananke/action/internal/trace"
)

// Attributes of the GenAI semantic conventions Fill reads. Where the
// conventions renamed one, the older name is read when the current one is
// absent.
const (
	AttrOperation = "gen_ai.operation.name"
	AttrProvider  = "gen_ai.provider.name"
	AttrSystem    = "gen_ai.system" // the provider, before gen_ai.provider.name
	AttrToolName  = "gen_ai.tool.name"
	AttrToolID    = "gen_ai.tool.call.id"
	AttrToolArgs  = "gen_ai.tool.call.arguments"
	AttrToolInput = "gen_ai.tool.input" // the arguments, in older instrumentations
	AttrToolRes   = "gen_ai.tool.call.result"
	AttrToolOut   = "gen_ai.tool.output" // the result, in older instrumentations
	AttrReqModel  = "gen_ai.request.model"
	AttrResModel  = "gen_ai.response.model"
	AttrAgentName = "gen_ai.agent.name"
)

// Operations (gen_ai.operation.name) Fill reads.
const (
	OpExecuteTool     = "execute_tool"
	OpChat            = "chat"
	OpTextCompletion  = "text_completion"
	OpGenerateContent = "generate_content"
	OpInvokeAgent     = "invoke_agent"
)

// Operation is the span's GenAI operation: its gen_ai.operation.name, or
// execute_tool for a span of no operation named "execute_tool NAME" (as
// older instrumentations name tool spans); "" for a span that is not a
// GenAI span.
func Operation(s *trace.Span) string {
	if op, ok := s.Attributes[AttrOperation].(string); ok && op != "" {
		return op
	}
	if strings.HasPrefix(s.Name, OpExecuteTool+" ") {
		return OpExecuteTool
	}
	return ""
}

// Fill adds to the turn what its spans (those attributed to it) describe,
// once backend.Fill has added what Ananke's backend served and before the
// turn is priced and checked:
//
//   - Every execute_tool span is a tool call. One the turn already holds —
//     the same call id, or else the same tool (as backend.Fill matches
//     names: the span's name may carry its MCP server's prefix, or the
//     turn's) with arguments equal as JSON (a span that gives no arguments
//     matches on the tool alone), not matched to another span — keeps its
//     record and gains the span's result when it had none. Any other is
//     added, with Source trace.SourceSpans: the trace then shows what an
//     agent that streams no tool calls did. The turn's calls are ordered
//     by start time, its own keeping their order.
//   - When the agent reported no usage for the turn, or only usage that
//     says nothing (backend.SaysNothing), and some model span reported
//     usage, the turn's usage is the spans' (Usage).
func Fill(turn *trace.Turn, spans []trace.Span) {
	if len(spans) == 0 {
		return
	}
	if fs := toolSpans(spans); len(fs) > 0 {
		fillCalls(turn, fs)
	}
	if backend.SaysNothing(turn.Usage) {
		if u := Usage(spans); u != nil {
			turn.Usage = u
		}
	}
}

// found is a tool call a span describes, and whether the span gave its
// arguments.
type found struct {
	call    trace.ToolCall
	hasArgs bool
}

// ToolCalls are the tool calls the execute_tool spans describe, in the
// order they started, each marked with Source trace.SourceSpans: its
// name (gen_ai.tool.name, else the span's name after "execute_tool "),
// its call id (gen_ai.tool.call.id, else the span's id), arguments
// (gen_ai.tool.call.arguments or gen_ai.tool.input) and result
// (gen_ai.tool.call.result or gen_ai.tool.output; a span whose status is
// error has a result that says so). A span that names no tool is none.
func ToolCalls(spans []trace.Span) []trace.ToolCall {
	fs := toolSpans(spans)
	out := make([]trace.ToolCall, len(fs))
	for i := range fs {
		out[i] = fs[i].call
	}
	return out
}

func toolSpans(spans []trace.Span) []found {
	var out []found
	byID := make(map[string]*trace.Span, len(spans))
	for i := range spans {
		byID[spans[i].SpanID] = &spans[i]
	}
	for i := range spans {
		s := &spans[i]
		if Operation(s) != OpExecuteTool {
			continue
		}
		name, _ := s.Attributes[AttrToolName].(string)
		if name == "" {
			name = strings.TrimSpace(strings.TrimPrefix(s.Name, OpExecuteTool+" "))
		}
		if name == "" || name == OpExecuteTool {
			continue
		}
		id, _ := s.Attributes[AttrToolID].(string)
		if id == "" {
			id = s.SpanID
		}
		args, hasArgs := text(s.Attributes, AttrToolArgs, AttrToolInput)
		c := trace.ToolCall{
			ID: id, Name: name, Turn: s.Turn, Args: args, ArgsJSON: json.Valid([]byte(args)),
			Source: trace.SourceSpans, Agent: subagent(s, byID),
			StartedMs: s.StartNs / 1e6, EndedMs: s.EndNs / 1e6, TimestampMs: s.EndNs / 1e6,
		}
		if res, ok := text(s.Attributes, AttrToolRes, AttrToolOut); ok || s.Status == "error" {
			c.Result = &trace.Result{Content: res, JSON: ok && json.Valid([]byte(res))}
			if s.Status == "error" {
				c.Result.Error = cmp.Or(s.StatusMessage, "the tool span's status is error")
			}
		}
		out = append(out, found{call: c, hasArgs: hasArgs})
	}
	slices.SortStableFunc(out, func(a, b found) int { return cmp.Compare(a.call.StartedMs, b.call.StartedMs) })
	return out
}

// subagent is the agent that made a tool call, as ToolCall.Agent names
// it: the gen_ai.agent.name of its nearest invoke_agent ancestor when
// that agent runs under another one (a sub-agent); "" for the main
// agent's calls (its outermost invoke_agent span).
func subagent(s *trace.Span, byID map[string]*trace.Span) string {
	var agents []*trace.Span
	seen := map[string]bool{s.SpanID: true}
	for a := byID[s.ParentID]; a != nil && !seen[a.SpanID]; a = byID[a.ParentID] {
		seen[a.SpanID] = true
		if Operation(a) == OpInvokeAgent {
			agents = append(agents, a)
		}
	}
	if len(agents) < 2 {
		return ""
	}
	name, _ := agents[0].Attributes[AttrAgentName].(string)
	return name
}

// text is the first of keys the attributes hold, as text: a string as it
// is, any other value as JSON (arguments some instrumentations record as
// a structure).
func text(attrs map[string]any, keys ...string) (string, bool) {
	for _, k := range keys {
		v, ok := attrs[k]
		if !ok || v == nil {
			continue
		}
		if s, ok := v.(string); ok {
			return s, true
		}
		b, err := json.Marshal(v)
		if err != nil {
			return "", false
		}
		return string(b), true
	}
	return "", false
}

func fillCalls(turn *trace.Turn, fs []found) {
	own := len(turn.ToolCalls)
	matched := make([]bool, own)
	added := false
	for _, f := range fs {
		c := f.call
		c.Turn = turn.Index
		i := matchCall(turn.ToolCalls[:own], matched, &f)
		if i < 0 {
			turn.ToolCalls = append(turn.ToolCalls, c)
			added = true
			continue
		}
		matched[i] = true
		if s := &turn.ToolCalls[i]; s.Result == nil && c.Result != nil {
			s.Result = c.Result
		}
	}
	if added {
		slices.SortStableFunc(turn.ToolCalls, func(a, b trace.ToolCall) int { return cmp.Compare(a.StartedMs, b.StartedMs) })
	}
}

// matchCall is the index of the turn's call the span's call is, or -1:
// the same call id first, else the same tool with the same arguments.
func matchCall(calls []trace.ToolCall, matched []bool, f *found) int {
	c := &f.call
	for j := range calls {
		if !matched[j] && calls[j].ID != "" && calls[j].ID == c.ID {
			return j
		}
	}
	for j := range calls {
		s := &calls[j]
		if matched[j] || !sameTool(s, c.Name) {
			continue
		}
		if !f.hasArgs || backend.SameArgs(s.Args, c.Args) {
			return j
		}
	}
	return -1
}

// sameTool reports whether call s is of the tool a span names: either
// name may carry an MCP server's prefix, and a call the doubles served
// is also its double's tool.
func sameTool(s *trace.ToolCall, tool string) bool {
	if backend.SameTool(s.Name, tool) || backend.SameTool(tool, s.Name) {
		return true
	}
	return s.Served != nil && s.Served.Tool != "" && (backend.SameTool(tool, s.Served.Tool) || s.Served.Tool == tool)
}

// number reads a numeric attribute: an integer or a float as OTLP gives
// it, a number as JSON gives it back from a trace file, or a string of
// digits.
func number(attrs map[string]any, keys ...string) (int64, bool) {
	for _, k := range keys {
		switch v := attrs[k].(type) {
		case int64:
			return v, true
		case int:
			return int64(v), true
		case float64:
			return int64(v), true
		case json.Number:
			if n, err := v.Int64(); err == nil {
				return n, true
			}
		case string:
			if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil {
				return n, true
			}
		}
	}
	return 0, false
}
