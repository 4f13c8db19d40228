package assertion

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// mcpCall is an mcp:call turn's one call, its result content as recorded.
func mcpCall(content string, opts ...func(*trace.ToolCall)) trace.Scope {
	opts = append([]func(*trace.ToolCall){result(content, json.Valid([]byte(content))), took(1000, 1040), seqAt(7)}, opts...)
	return scopeOf(turnOf("", call("c1", "echo", `{"message":"hi"}`, opts...)))
}

func errorResult(msg string) func(*trace.ToolCall) {
	return func(c *trace.ToolCall) { c.Result = &trace.Result{Content: msg, Error: msg} }
}

func resultPath(path, want string, mod ...func(*JSONPathCheck)) Check {
	c := pathCheck(path, want, mod...)
	c.Kind = KindResultJSONPath
	return c
}

func TestResultChecks(t *testing.T) {
	echo := mcpCall(`{"content":[{"type":"text","text":"Echo: hi"}],"isError":false}`)
	plain := mcpCall("Echo: hi")
	failed := mcpCall("", errorResult("unknown tool: ech"))
	pending := scopeOf(turnOf("", call("c1", "echo", `{}`)))
	none := scopeOf(turnOf("just text"))
	two := scopeOf(turnOf("", call("c1", "echo", `{}`, result("ok", false), took(0, 10)), call("c2", "echo", `{}`, result("boom", false), took(0, 5000))))
	listOnly := scopeOf(turnOf("", call("l1", trace.ListToolsCall, ``, result(`{"tools":[]}`, true))))
	match := func(re string) Check {
		return Check{Kind: KindResultMatch, Payload: Pattern{Regex: vars.MustRegex(re)}}
	}
	notMatch := func(re string) Check {
		return Check{Kind: KindResultNotMatch, Payload: Pattern{Regex: vars.MustRegex(re)}}
	}
	isError := func(want bool) Check { return Check{Kind: KindResultIsError, Payload: Flag{Value: want}} }
	within := func(ms int64) Check { return Check{Kind: KindResultMaxDuration, Payload: Limit{Set: true, Ms: ms}} }
	runExact(t, []exactCase{
		{"match", match("Echo: hi"), echo, status.Pass, "the tool result of call c1 in turn[0] matches `Echo: hi`"},
		{"match plain text", match("^Echo"), plain, status.Pass, "the tool result of call c1 in turn[0] matches `^Echo`"},
		{"match fails", match("bye"), plain, status.Fail, "call c1 in turn[0]: result does not match `bye`: \"Echo: hi\""},
		{"match without result", match("x"), pending, status.Fail, "call c1 in turn[0]: no result arrived"},
		{"no call", match("x"), none, status.Fail, "no tool result in turn[0]"},
		{"listings are not results", match("x"), listOnly, status.Fail, "no tool result in turn[0]"},
		{"not_match", notMatch("(?i)error"), plain, status.Pass, "the tool result of call c1 in turn[0] does not match `(?i)error`"},
		{"not_match fails", notMatch("unknown"), failed, status.Fail, "call c1 in turn[0]: result matches forbidden `unknown`: \"unknown tool: ech\""},
		{"is_error false", isError(false), echo, status.Pass, "the tool result of call c1 in turn[0] is not an error"},
		{"is_error false fails", isError(false), failed, status.Fail, "call c1 in turn[0]: the result is an error: \"unknown tool: ech\""},
		{"is_error true", isError(true), failed, status.Pass, "the tool result of call c1 in turn[0] is an error"},
		{"is_error true fails", isError(true), plain, status.Fail, "call c1 in turn[0]: the result is not an error: \"Echo: hi\""},
		{"duration", within(100), echo, status.Pass, "the tool result of call c1 in turn[0] arrived within 100 ms"},
		{"duration over", within(10), echo, status.Fail, "call c1 in turn[0]: took 40 ms, over max_duration_ms 10"},
		{"duration from EndedMs", within(10), scopeOf(turnOf("", call("c1", "echo", `{}`, func(c *trace.ToolCall) { c.StartedMs, c.EndedMs = 5, 25 }))),
			status.Fail, "call c1 in turn[0]: took 20 ms, over max_duration_ms 10"},
		{"duration never completed", within(10), pending, status.Fail, "call c1 in turn[0]: the call never completed, so it cannot be timed"},
		{"each call", match("o"), two, status.Pass, "every tool result in turn[0] (2) matches `o`"},
		{"each call: one fails", within(100), two, status.Fail, "call c2 in turn[0]: took 5000 ms, over max_duration_ms 100"},
		{"json_path equals", resultPath("$.content[0].text", `"Echo: hi"`), echo, status.Pass,
			`the tool result of call c1 in turn[0] has $.content[0].text, which equals "Echo: hi"`},
		{"json_path miss", resultPath("$.structuredContent.n", "", exists(true)), echo, status.Fail,
			"call c1 in turn[0]: $.structuredContent.n selects nothing in the result"},
		{"json_path wrong value", resultPath("$.isError", `true`), echo, status.Fail, "call c1 in turn[0]: $.isError is false, expected true"},
		{"json_path exists false", resultPath("$.structuredContent", "", exists(false)), echo, status.Pass,
			"the tool result of call c1 in turn[0] has nothing at $.structuredContent"},
		{"json_path type and match", resultPath("$.content[*].type", "", matching("^text$"), func(c *JSONPathCheck) { c.Type = "string" }), echo, status.Pass,
			"the tool result of call c1 in turn[0] has $.content[*].type, which matches `^text$` and is a string"},
		{"json_path not JSON", resultPath("$.a", `1`), plain, status.Fail,
			`call c1 in turn[0]: the result is not JSON (invalid character 'E' looking for beginning of value), so $.a cannot be checked: "Echo: hi"`},
	})
}

func TestResultEvidence(t *testing.T) {
	r := evalOne(t, Check{Kind: KindResultIsError, Payload: Flag{Value: false}}, mcpCall("", errorResult("boom")))
	if len(r.Evidence) != 1 || r.Evidence[0].Call == nil || r.Evidence[0].Call.ID != "c1" || !hasRefs(r, 7) {
		t.Errorf("evidence = %+v, refs %v; want call c1 (seq 7)", r.Evidence, r.EventRefs)
	}
	if r.Expected != "every tool result not an error" || r.Observed != "1 tool result, 1 failing" {
		t.Errorf("expected %q, observed %q", r.Expected, r.Observed)
	}
	p := evalOne(t, resultPath("$.n", `2`), mcpCall(`{"n": 2}`))
	if len(p.Evidence) != 1 || p.Evidence[0].Call == nil || p.Evidence[0].Text != "[2]" {
		t.Errorf("json_path evidence = %+v", p.Evidence)
	}
}

// TestResultGated: result and tools_list checks need the tool trace.
func TestResultGated(t *testing.T) {
	s := mcpCall("ok")
	s.Source = &trace.Source{Adapter: "claude-transcript", Capabilities: []string{capability.StreamingTiming}}
	for _, k := range []Kind{KindResultMatch, KindResultMaxDuration, KindToolsListInclude, KindToolsListValidSchemas} {
		r := evalOne(t, Check{Kind: k, Payload: Pattern{Regex: vars.MustRegex("x")}}, s)
		if r.Status != status.Skip || !strings.Contains(r.Message, "needs supports_tool_trace") {
			t.Errorf("%s: %s %q; want skipped for the tool trace", k, r.Status, r.Message)
		}
	}
}

// listing is an mcp:list_tools turn's one listing.
func listingOf(tools string) trace.Scope {
	return scopeOf(turnOf("", call("l1", trace.ListToolsCall, ``, result(`{"tools":`+tools+`}`, true), seqAt(3))))
}

func TestToolsList(t *testing.T) {
	good := listingOf(`[{"name":"echo","description":"Echoes","inputSchema":{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}},
		{"name":"add","inputSchema":{"type":"object","properties":{"a":{"type":"number"}},"$defs":{"n":{"type":"number"}}}}]`)
	bad := listingOf(`[{"name":"echo","inputSchema":{"type":"object"}},
		{"name":"broken","inputSchema":{"type":"objekt"}},
		{"name":"array","inputSchema":{"type":"array"}},
		{"name":"untyped","inputSchema":{"properties":{}}},
		{"name":"none"},
		{"name":"remote","inputSchema":{"type":"object","properties":{"a":{"$ref":"https://example.com/s.json"}}}}]`)
	include := func(n string) Check { return Check{Kind: KindToolsListInclude, Payload: Tool{Name: name(n)}} }
	exclude := func(n string) Check { return Check{Kind: KindToolsListExclude, Payload: Tool{Name: name(n)}} }
	valid := Check{Kind: KindToolsListValidSchemas}
	runExact(t, []exactCase{
		{"include", include("echo"), good, status.Pass, "the tools/list result of call l1 in turn[0] lists `echo`"},
		{"include missing", include("search"), good, status.Fail, "call l1 in turn[0]: `search` is not listed (2 tools: echo, add)"},
		{"include from empty", include("search"), listingOf(`[]`), status.Fail, "call l1 in turn[0]: `search` is not listed (no tools)"},
		{"exclude", exclude("delete_all"), good, status.Pass, "the tools/list result of call l1 in turn[0] does not list `delete_all`"},
		{"exclude listed", exclude("add"), good, status.Fail, "call l1 in turn[0]: `add` is listed, and must not be"},
		{"valid schemas", valid, good, status.Pass, "the tools/list result of call l1 in turn[0] lists only tools with valid input schemas"},
		{"no listing", include("echo"), mcpCall("ok"), status.Fail, "no tools/list result in turn[0]"},
		{"not a listing", include("echo"), scopeOf(turnOf("", call("l1", trace.ListToolsCall, ``, result(`{"resources":[]}`, true)))), status.Fail,
			`call l1 in turn[0]: the result is not a tools/list result ({"tools": [...]}): "{\"resources\":[]}"`},
		{"listing failed", valid, scopeOf(turnOf("", call("l1", trace.ListToolsCall, ``, errorResult("method not found")))), status.Fail,
			`call l1 in turn[0]: the listing failed: "method not found"`},
	})
	r := evalOne(t, valid, bad)
	if r.Status != status.Fail {
		t.Fatalf("valid_schemas over bad schemas = %s %q", r.Status, r.Message)
	}
	for _, want := range []string{
		"`broken`: inputSchema's type is \"objekt\"; MCP requires \"object\"",
		"`array`: inputSchema's type is \"array\"; MCP requires \"object\"",
		"`untyped`: inputSchema has no type; MCP requires \"type\": \"object\"",
		"`none`: no inputSchema",
		"`remote`: inputSchema is not a valid JSON Schema",
	} {
		if !strings.Contains(r.Evidence[0].Text, want) {
			t.Errorf("evidence lacks %q:\n%s", want, r.Evidence[0].Text)
		}
	}
	if strings.Contains(r.Evidence[0].Text, "`echo`") || !strings.HasSuffix(r.Message, "; 2 more") || !hasRefs(r, 3) {
		t.Errorf("message %q, evidence %q, refs %v", r.Message, r.Evidence[0].Text, r.EventRefs)
	}
}

func TestInvalidSchema(t *testing.T) {
	for _, tc := range []struct{ schema, want string }{
		{`{"type":"object"}`, ""},
		{`{"type":"object","properties":{"n":{"type":"integer","minimum":"zero"}}}`, "inputSchema is not a valid JSON Schema"},
		{`{"type":"object","properties":{"n":{"$ref":"#/$defs/missing"}}}`, "inputSchema is not a valid JSON Schema"},
		{`{"type":"object","properties":{"n":{"$ref":"file:///etc/passwd"}}}`, "inputSchema is not a valid JSON Schema"},
		{`[1]`, "inputSchema is an array, not an object"},
	} {
		if got := invalidSchema(json.RawMessage(tc.schema)); (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("invalidSchema(%s) = %q, want %q", tc.schema, got, tc.want)
		}
	}
}

func TestResultCategories(t *testing.T) {
	for k, want := range map[Kind]string{
		KindResultMatch: CategoryOutcome, KindResultNotMatch: CategoryOutcome, KindResultIsError: CategoryOutcome,
		KindResultJSONPath: CategoryFormat, KindResultMaxDuration: CategoryTiming,
		KindToolsListInclude: CategoryOutcome, KindToolsListExclude: CategoryOutcome, KindToolsListValidSchemas: CategoryFormat,
	} {
		if got := Category(k); got != want {
			t.Errorf("Category(%s) = %q, want %q", k, got, want)
		}
		if need := Needs(k); len(need) != 1 || need[0] != capability.ToolTrace {
			t.Errorf("Needs(%s) = %v, want the tool trace", k, need)
		}
	}
}
