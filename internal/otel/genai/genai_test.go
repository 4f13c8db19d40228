package genai

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/trace"
)

// span is a span of turn 0 from startMs to endMs (Unix milliseconds).
func span(id, parent, name string, startMs, endMs int64, attrs map[string]any) trace.Span {
	return trace.Span{TraceID: "0af7651916cd43dd8448eb211c80319c", SpanID: id, ParentID: parent, Name: name,
		StartNs: startMs * 1e6, EndNs: endMs * 1e6, Attributes: attrs}
}

func tool(id, name string, startMs, endMs int64, attrs map[string]any) trace.Span {
	a := map[string]any{AttrOperation: OpExecuteTool, AttrToolName: name}
	for k, v := range attrs {
		a[k] = v
	}
	return span(id, "a1", OpExecuteTool+" "+name, startMs, endMs, a)
}

func failed(s trace.Span, msg string) trace.Span {
	s.Status, s.StatusMessage = "error", msg
	return s
}

// streamed is a call the agent streamed.
func streamed(id, name, args string, startMs int64) trace.ToolCall {
	return trace.ToolCall{ID: id, Name: name, Turn: 2, Args: args, ArgsJSON: true, StartedMs: startMs, TimestampMs: startMs + 5}
}

func withResult(c trace.ToolCall, content string) trace.ToolCall {
	c.Result = &trace.Result{Content: content}
	return c
}

// fromSpan is the call a tool span of turn 2 adds.
func fromSpan(id, name, args string, startMs, endMs int64, result *trace.Result) trace.ToolCall {
	return trace.ToolCall{ID: id, Name: name, Turn: 2, Args: args, ArgsJSON: json.Valid([]byte(args)), Result: result,
		Source: trace.SourceSpans, StartedMs: startMs, EndedMs: endMs, TimestampMs: endMs}
}

func TestFillToolCalls(t *testing.T) {
	weather := map[string]any{AttrToolID: "call_1", AttrToolArgs: `{"city":"Paris"}`, AttrToolRes: "sunny"}
	cases := []struct {
		name  string
		calls []trace.ToolCall
		spans []trace.Span
		want  []trace.ToolCall
	}{
		{"an agent that streams no calls: the span's call is added, marked",
			nil,
			[]trace.Span{tool("s1", "get_weather", 1000, 1040, weather)},
			[]trace.ToolCall{fromSpan("call_1", "get_weather", `{"city":"Paris"}`, 1000, 1040, &trace.Result{Content: "sunny"})}},
		{"the same call id: the streamed call keeps its record and gains the result",
			[]trace.ToolCall{streamed("call_1", "get_weather", `{}`, 990)},
			[]trace.Span{tool("s1", "get_weather", 1000, 1040, weather)},
			[]trace.ToolCall{withResult(streamed("call_1", "get_weather", `{}`, 990), "sunny")}},
		{"a streamed result is kept",
			[]trace.ToolCall{withResult(streamed("call_1", "get_weather", `{}`, 990), "rain")},
			[]trace.Span{tool("s1", "get_weather", 1000, 1040, weather)},
			[]trace.ToolCall{withResult(streamed("call_1", "get_weather", `{}`, 990), "rain")}},
		{"another id, the same tool and arguments equal as JSON: matched",
			[]trace.ToolCall{streamed("tc-9", "get_weather", `{ "n": 1.0, "city": "Paris" }`, 990)},
			[]trace.Span{tool("s1", "get_weather", 1000, 1040, map[string]any{AttrToolArgs: `{"city":"Paris","n":1}`})},
			[]trace.ToolCall{streamed("tc-9", "get_weather", `{ "n": 1.0, "city": "Paris" }`, 990)}},
		{"the same tool with other arguments: added, in start order",
			[]trace.ToolCall{streamed("tc-1", "get_weather", `{"city":"Rome"}`, 990), streamed("tc-2", "book", `{}`, 2000)},
			[]trace.Span{tool("s1", "get_weather", 1000, 1040, weather)},
			[]trace.ToolCall{streamed("tc-1", "get_weather", `{"city":"Rome"}`, 990),
				fromSpan("call_1", "get_weather", `{"city":"Paris"}`, 1000, 1040, &trace.Result{Content: "sunny"}),
				streamed("tc-2", "book", `{}`, 2000)}},
		{"a span with no arguments matches on the tool alone, once",
			[]trace.ToolCall{streamed("tc-1", "lookup", `{"q":"a"}`, 990)},
			[]trace.Span{tool("s1", "lookup", 1000, 1010, nil), tool("s2", "lookup", 1100, 1110, nil)},
			[]trace.ToolCall{streamed("tc-1", "lookup", `{"q":"a"}`, 990), fromSpan("s2", "lookup", "", 1100, 1110, nil)}},
		{"a name with an MCP server's prefix, on either side",
			[]trace.ToolCall{streamed("tc-1", "weather_get_weather", `{}`, 990), streamed("tc-2", "book", `{}`, 995)},
			[]trace.Span{tool("s1", "get_weather", 1000, 1010, nil), tool("s2", "travel__book", 1000, 1010, nil)},
			[]trace.ToolCall{streamed("tc-1", "weather_get_weather", `{}`, 990), streamed("tc-2", "book", `{}`, 995)}},
		{"a call the doubles served, under its double's name",
			[]trace.ToolCall{{ID: "d1", Name: "check_stock", Turn: 2, Served: &trace.Served{Tool: "check_stock"}, StartedMs: 990}},
			[]trace.Span{tool("s1", "inventory.check_stock", 1000, 1010, nil)},
			[]trace.ToolCall{{ID: "d1", Name: "check_stock", Turn: 2, Served: &trace.Served{Tool: "check_stock"}, StartedMs: 990}}},
		{"older attributes: gen_ai.tool.input and .output, structured values as JSON",
			nil,
			[]trace.Span{tool("s1", "add", 1000, 1002, map[string]any{AttrToolInput: map[string]any{"a": int64(1)}, AttrToolOut: []any{"3"}})},
			[]trace.ToolCall{fromSpan("s1", "add", `{"a":1}`, 1000, 1002, &trace.Result{Content: `["3"]`, JSON: true})}},
		{"a span named execute_tool NAME with no operation",
			nil,
			[]trace.Span{span("s1", "a1", "execute_tool search_docs", 1000, 1003, nil)},
			[]trace.ToolCall{fromSpan("s1", "search_docs", "", 1000, 1003, nil)}},
		{"a tool span whose status is error has a failed result",
			nil,
			[]trace.Span{failed(tool("s1", "charge", 1000, 1003, nil), "card declined"), failed(tool("s2", "charge", 1004, 1005, map[string]any{AttrToolRes: "boom"}), "")},
			[]trace.ToolCall{fromSpan("s1", "charge", "", 1000, 1003, &trace.Result{Error: "card declined"}),
				fromSpan("s2", "charge", "", 1004, 1005, &trace.Result{Content: "boom", Error: "the tool span's status is error"})}},
		{"attributes of the wrong type: the span's name names the tool, structured arguments are JSON",
			nil,
			[]trace.Span{span("s1", "a1", "execute_tool ping", 1000, 1001, map[string]any{AttrOperation: OpExecuteTool, AttrToolName: int64(5), AttrToolID: true, AttrToolArgs: float64(3)}),
				span("s2", "a1", "execute_tool", 1000, 1001, map[string]any{AttrOperation: OpExecuteTool, AttrToolName: []any{"x"}})},
			[]trace.ToolCall{fromSpan("s1", "ping", "3", 1000, 1001, nil)}},
		{"spans that are no tool call add nothing",
			[]trace.ToolCall{streamed("tc-1", "x", `{}`, 990)},
			[]trace.Span{span("s1", "", "invoke_agent shop", 900, 2000, map[string]any{AttrOperation: OpInvokeAgent}),
				span("s2", "s1", "chat gpt-4o", 1000, 1500, map[string]any{AttrOperation: OpChat}),
				span("s3", "s1", "execute_tool", 1000, 1500, map[string]any{AttrOperation: OpExecuteTool}),
				span("s4", "s1", "GET /", 1000, 1500, nil)},
			[]trace.ToolCall{streamed("tc-1", "x", `{}`, 990)}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			turn := &trace.Turn{Index: 2, ToolCalls: tc.calls}
			Fill(turn, tc.spans)
			if !reflect.DeepEqual(turn.ToolCalls, tc.want) {
				t.Errorf("calls:\n got %+v\nwant %+v", turn.ToolCalls, tc.want)
			}
			if turn.Usage != nil {
				t.Errorf("usage %+v from spans that report none", turn.Usage)
			}
		})
	}
}

// spend is a spend of parts, each a usage (nil: a part unreported).
func spend(parts ...*cost.Usage) *cost.Spend {
	s := &cost.Spend{}
	for _, p := range parts {
		if p == nil {
			s.Missing()
			continue
		}
		s.Add(*p)
	}
	return s
}

func usage(provider, model string, in, out int64) *cost.Usage {
	u := &cost.Usage{Provider: provider, Model: model}
	u.Tokens.Set(cost.Input, in)
	u.Tokens.Set(cost.Output, out)
	return u
}

func chat(id, parent string, attrs map[string]any) trace.Span {
	a := map[string]any{AttrOperation: OpChat, AttrProvider: "openai", AttrReqModel: "gpt-4o"}
	for k, v := range attrs {
		a[k] = v
	}
	return span(id, parent, "chat gpt-4o", 1000, 1200, a)
}

func tokens(in, out any) map[string]any {
	return map[string]any{AttrInputTokens: in, AttrOutputTokens: out}
}

func TestFillUsage(t *testing.T) {
	zero := spend(usage("", "", 0, 0))
	agentOwn := spend(usage("anthropic", "claude", 7, 3))
	cached := usage("openai", "gpt-4o", 100, 10)
	cached.Tokens.Set(cost.CachedInput, 60)
	cached.Tokens.Set(cost.CacheWrite, 20)
	agent := func(id, parent string, attrs map[string]any) trace.Span {
		attrs[AttrOperation] = OpInvokeAgent
		return span(id, parent, "invoke_agent", 900, 2000, attrs)
	}
	cases := []struct {
		name  string
		have  *cost.Spend
		spans []trace.Span
		want  *cost.Spend
	}{
		{"two chat spans of a model: summed, two parts", nil,
			[]trace.Span{chat("c1", "", tokens(int64(10), int64(5))), chat("c2", "", tokens(int64(20), int64(7)))},
			spend(usage("openai", "gpt-4o", 10, 5), usage("openai", "gpt-4o", 20, 7))},
		{"older names: gen_ai.system, prompt and completion tokens; the response's model", nil,
			[]trace.Span{span("c1", "", "generate_content", 1, 2, map[string]any{AttrOperation: OpGenerateContent, AttrSystem: "gcp.gemini",
				AttrReqModel: "gemini", AttrResModel: "gemini-2.5-flash-001", AttrPromptTokens: float64(12), AttrCompletionTokens: "4"})},
			spend(usage("gcp.gemini", "gemini-2.5-flash-001", 12, 4))},
		{"cache reads and writes", nil,
			[]trace.Span{chat("c1", "", map[string]any{AttrInputTokens: int64(100), AttrOutputTokens: int64(10), AttrCacheRead: int64(60), AttrCacheCreation: int64(20)})},
			spend(cached)},
		{"a model span with no tokens is a part unreported; a failed one is none", nil,
			[]trace.Span{chat("c1", "", tokens(int64(10), int64(5))), chat("c2", "", nil), failed(chat("c3", "", nil), "429")},
			func() *cost.Spend { s := spend(usage("openai", "gpt-4o", 10, 5)); s.Missing(); return s }()},
		{"the agent's own usage wins", agentOwn,
			[]trace.Span{chat("c1", "", tokens(int64(10), int64(5)))},
			agentOwn},
		{"usage that says nothing gives way", zero,
			[]trace.Span{chat("c1", "", tokens(int64(10), int64(5)))},
			spend(usage("openai", "gpt-4o", 10, 5))},
		{"no model span reports usage: the outermost agent spans that do", nil,
			[]trace.Span{agent("a1", "", map[string]any{AttrInputTokens: int64(100), AttrOutputTokens: int64(50), AttrReqModel: "gpt-4o"}),
				agent("a2", "x", map[string]any{}),
				span("x", "a1", "step", 950, 1900, nil),
				agent("a3", "x", map[string]any{AttrInputTokens: int64(40), AttrOutputTokens: int64(20)}),
				chat("c1", "a3", nil)},
			spend(usage("", "gpt-4o", 100, 50))},
		{"model spans win over agent spans", nil,
			[]trace.Span{agent("a1", "", map[string]any{AttrInputTokens: int64(100), AttrOutputTokens: int64(50)}),
				chat("c1", "a1", tokens(int64(60), int64(30)))},
			spend(usage("openai", "gpt-4o", 60, 30))},
		{"counts that are no count are unknown", nil,
			[]trace.Span{chat("c1", "", tokens("many", int64(-3))), chat("c2", "", tokens(true, int64(4)))},
			func() *cost.Spend {
				u := &cost.Usage{Provider: "openai", Model: "gpt-4o"}
				u.Tokens.Set(cost.Output, 4)
				s := spend(u)
				s.Unreported = 1
				return s
			}()},
		{"no span reports usage: none", nil,
			[]trace.Span{chat("c1", "", nil), tool("t1", "x", 1, 2, nil)},
			nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			turn := &trace.Turn{Index: 0, Usage: tc.have}
			Fill(turn, tc.spans)
			if !reflect.DeepEqual(turn.Usage, tc.want) {
				t.Errorf("usage:\n got %+v\nwant %+v", turn.Usage, tc.want)
			}
		})
	}
}

func TestOperation(t *testing.T) {
	for _, tc := range []struct {
		s    trace.Span
		want string
	}{
		{span("1", "", "x", 0, 0, map[string]any{AttrOperation: OpChat}), OpChat},
		{span("1", "", "execute_tool get", 0, 0, nil), OpExecuteTool},
		{span("1", "", "execute_tool get", 0, 0, map[string]any{AttrOperation: OpInvokeAgent}), OpInvokeAgent},
		{span("1", "", "execute_toolbox", 0, 0, nil), ""},
		{span("1", "", "GET /", 0, 0, map[string]any{AttrOperation: int64(3)}), ""},
	} {
		if got := Operation(&tc.s); got != tc.want {
			t.Errorf("Operation(%q, %v) = %q, want %q", tc.s.Name, tc.s.Attributes, got, tc.want)
		}
	}
}

// TestToolCallAgent: a call made under a sub-agent — an invoke_agent span
// under another one — names it; the main agent's calls name none.
func TestToolCallAgent(t *testing.T) {
	agent := func(id, parent, name string) trace.Span {
		return span(id, parent, OpInvokeAgent+" "+name, 0, 100, map[string]any{AttrOperation: OpInvokeAgent, AttrAgentName: name})
	}
	main, sub := tool("t1", "search", 10, 20, nil), tool("t2", "lookup", 30, 40, nil)
	sub.ParentID = "s1"
	loop := tool("t3", "ping", 50, 60, nil)
	loop.ParentID = "x1"
	spans := []trace.Span{agent("a1", "", "shop"), agent("s1", "a1", "researcher"), main, sub,
		span("x1", "x2", "loop", 0, 1, nil), span("x2", "x1", "loop", 0, 1, nil), loop}
	got := map[string]string{}
	for _, c := range ToolCalls(spans) {
		got[c.Name] = c.Agent
	}
	if want := map[string]string{"search": "", "lookup": "researcher", "ping": ""}; !reflect.DeepEqual(got, want) {
		t.Errorf("agents %v, want %v", got, want)
	}
}
