package assertion

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// readSpans reads an assert block and returns its problems and its
// checks of kind k.
func readSpans(t *testing.T, block string, k Kind) ([]Check, diag.Diagnostics) {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(block), &doc); err != nil {
		t.Fatal(err)
	}
	var diags diag.Diagnostics
	d := &decode.Decoder{File: "t.yaml", Diags: &diags}
	b := ReadBlock(d, doc.Content[0], "assert")
	var out []Check
	for _, it := range b.Items(k) {
		out = append(out, Check{ID: "turn[0]." + string(k), Kind: k, Pos: it.Pos, Payload: it.Payload})
	}
	return out, diags
}

// spanCheck is the one check of kind k an assert block makes, bound with
// TOOL=get_weather.
func spanCheck(t *testing.T, k Kind, block string) Check {
	t.Helper()
	checks, diags := readSpans(t, block, k)
	if len(diags) > 0 || len(checks) != 1 {
		t.Fatalf("%s: %d checks, problems:\n%v", block, len(checks), diags)
	}
	v := vars.NewVars(nil)
	v.Set("TOOL", "get_weather")
	bound, err := BindChecks(checks, v)
	if err != nil {
		t.Fatal(err)
	}
	return bound[0]
}

func sp(id, parent, name string, startMs, endMs int64, attrs ...any) trace.Span {
	s := trace.Span{TraceID: "4bf92f3577b34da6a3ce929d0e0e4736", SpanID: id, ParentID: parent, Name: name,
		StartNs: startMs * 1e6, EndNs: endMs * 1e6, Service: "weather-agent", Attributes: map[string]any{}}
	for i := 0; i+1 < len(attrs); i += 2 {
		s.Attributes[attrs[i].(string)] = attrs[i+1]
	}
	return s
}

// agentSpans are the spans of one turn of a weather agent: its agent
// span, a model call, two calls of get_weather (the second slow and
// failed), an HTTP request under the first, and a lookup outside the
// agent's span.
func agentSpans() []trace.Span {
	failed := sp("t2", "a1", "execute_tool get_weather", 150, 2650, "gen_ai.operation.name", "execute_tool", "gen_ai.tool.name", "get_weather")
	failed.Status, failed.StatusMessage = "error", "timeout"
	ok := sp("t1", "a1", "execute_tool get_weather", 100, 150, "gen_ai.operation.name", "execute_tool", "gen_ai.tool.name", "get_weather",
		"gen_ai.tool.call.arguments", `{"city":"Paris"}`)
	ok.Status = "ok"
	return []trace.Span{
		sp("a1", "f00dfeedf00dfeed", "invoke_agent weather", 0, 3000, "gen_ai.operation.name", "invoke_agent", "gen_ai.agent.name", "weather"),
		sp("c1", "a1", "chat gpt-4o", 10, 100, "gen_ai.operation.name", "chat", "gen_ai.usage.input_tokens", int64(120), "gen_ai.request.stop", []any{"\n"}),
		ok, failed,
		sp("h1", "t1", "GET /weather", 110, 140),
		sp("x1", "f00dfeedf00dfeed", "execute_tool lookup", 0, 5, "gen_ai.operation.name", "execute_tool", "gen_ai.tool.name", "lookup"),
	}
}

// spansTrace is a two-turn trace: turn 0 holds the agent's spans, turn 1
// one span, and one span belongs to no turn.
func spansTrace(turn0 []trace.Span) *trace.Trace {
	spans := append([]trace.Span{}, turn0...)
	late := sp("z1", "", "flush", 0, 1)
	late.Turn = -1
	other := sp("o1", "", "execute_tool refund", 0, 1, "gen_ai.operation.name", "execute_tool", "gen_ai.tool.name", "refund")
	other.Turn, other.Status = 1, "error"
	spans = append(spans, other, late)
	return &trace.Trace{Turns: []trace.Turn{{Index: 0}, {Index: 1}}, Spans: spans}
}

func TestSpansRequire(t *testing.T) {
	tr := spansTrace(agentSpans())
	turn0, turn1, test := tr.TurnScope(0), tr.TurnScope(1), tr.TestScope()
	// A trace whose source sees spans, none of which arrived; and an
	// AG-UI run's, which does not see them.
	none := (&trace.Trace{Turns: []trace.Turn{{Index: 0}}, Source: &trace.Source{Capabilities: []string{capability.Spans}}}).TurnScope(0)
	blind := (&trace.Trace{Turns: []trace.Turn{{Index: 0}}}).TurnScope(0)
	floats := (&trace.Trace{Turns: []trace.Turn{{Index: 0}}, Spans: []trace.Span{sp("c9", "", "chat", 0, 1, "gen_ai.usage.input_tokens", float64(120))}}).TurnScope(0)
	req := func(entry string) Check { return spanCheck(t, KindSpansRequire, "{spans: {require: ["+entry+"]}}") }
	runExact(t, []exactCase{
		{"by operation and attribute", req(`{operation: execute_tool, attributes: {gen_ai.tool.name: get_weather}}`), turn0, status.Pass,
			"a span with operation `execute_tool`, gen_ai.tool.name = \"get_weather\" found 2 times, expected at least 1 time"},
		{"a reference in a value", req(`{attributes: {gen_ai.tool.name: "${TOOL}"}, status: ok, count: {exact: 1}}`), turn0, status.Pass,
			"a span with gen_ai.tool.name = \"get_weather\", status ok found 1 time, expected exactly 1 time"},
		{"eliminated spans are explained", req(`{operation: execute_tool, attributes: {gen_ai.tool.name: refund}}`), turn0, status.Fail,
			"expected a span with operation `execute_tool`, gen_ai.tool.name = \"refund\" at least 1 time, saw 0; " +
				"span `execute_tool get_weather` t1 failed gen_ai.tool.name = \"refund\"; span `execute_tool get_weather` t2 failed gen_ai.tool.name = \"refund\"; " +
				"span `execute_tool lookup` x1 failed gen_ai.tool.name = \"refund\""},
		{"another turn's spans are not in scope", req(`{operation: execute_tool, attributes: {gen_ai.tool.name: refund}}`), turn1, status.Pass,
			"a span with operation `execute_tool`, gen_ai.tool.name = \"refund\" found 1 time, expected at least 1 time"},
		{"under an ancestor", req(`{name_match: "^execute_tool", under: {operation: invoke_agent, attributes: {gen_ai.agent.name: weather}}, count: {exact: 3}}`), turn0, status.Fail,
			"expected a span with name matching `^execute_tool` under a span with operation `invoke_agent`, gen_ai.agent.name = \"weather\" exactly 3 times, saw 2; " +
				"span `execute_tool lookup` x1 failed under a span with operation `invoke_agent`, gen_ai.agent.name = \"weather\""},
		{"an ancestor further up", req(`{name: "GET /weather", under: {name_match: "^invoke_agent"}}`), turn0, status.Pass,
			"a span with name `GET /weather` under a span with name matching `^invoke_agent` found 1 time, expected at least 1 time"},
		{"each within max_duration_ms", req(`{attributes: {gen_ai.tool.name: get_weather}, max_duration_ms: 1000}`), turn0, status.Fail,
			"a span with gen_ai.tool.name = \"get_weather\": span `execute_tool get_weather` t2 took 2500 ms, over max_duration_ms 1000"},
		{"a number equal as text", req(`{operation: chat, attributes: {gen_ai.usage.input_tokens: 120, gen_ai.request.stop: {equals: '["\n"]'}}}`), turn0, status.Pass,
			"a span with operation `chat`, gen_ai.usage.input_tokens = \"120\", gen_ai.request.stop = \"[\\\"\\\\n\\\"]\" found 1 time, expected at least 1 time"},
		{"a whole float, as a trace file gives it back", req(`{attributes: {gen_ai.usage.input_tokens: 120}}`), floats, status.Pass,
			"a span with gen_ai.usage.input_tokens = \"120\" found 1 time, expected at least 1 time"},
		{"match and exists", req(`{attributes: {gen_ai.tool.call.arguments: {match: Paris}, gen_ai.agent.name: {exists: false}}}`), turn0, status.Pass,
			"a span with gen_ai.tool.call.arguments matching `Paris`, attribute gen_ai.agent.name absent found 1 time, expected at least 1 time"},
		{"a missing attribute never equals", req(`{name: "GET /weather", attributes: {http.status: ""}}`), turn0, status.Fail,
			"expected a span with name `GET /weather`, http.status = \"\" at least 1 time, saw 0; span `GET /weather` h1 failed http.status = \"\""},
		{"no span of the name", req(`{name: chat}`), turn0, status.Fail,
			"expected a span with name `chat` at least 1 time, saw 0 (6 spans in turn[0]: `invoke_agent weather`, `chat gpt-4o`, `execute_tool get_weather`, 2 more)"},
		{"no spans at all", req(`{}`), none, status.Fail,
			"expected any span at least 1 time, saw 0: no spans in turn[0]"},
		{"a trace that cannot see spans skips", req(`{}`), blind, status.Skip,
			"skipped: needs supports_spans, which the ag-ui trace does not provide"},
		{"the test holds every span, of no turn too", req(`{name: flush, service: weather-agent, status: unset}`), test, status.Pass,
			"a span with name `flush`, service `weather-agent`, status unset found 1 time, expected at least 1 time"},
	})
}

func TestSpansForbid(t *testing.T) {
	tr := spansTrace(agentSpans())
	turn0, turn1, test := tr.TurnScope(0), tr.TurnScope(1), tr.TestScope()
	forbid := func(entry string) Check { return spanCheck(t, KindSpansForbid, "{spans: {forbid: ["+entry+"]}}") }
	runExact(t, []exactCase{
		{"a failed span", forbid(`{status: error}`), turn0, status.Fail,
			"forbidden: a span with status error; found span `execute_tool get_weather` t2"},
		{"none in another turn", forbid(`{status: error, under: {operation: invoke_agent}}`), turn1, status.Pass,
			"no span with status error under a span with operation `invoke_agent` (1 span checked)"},
		{"a tool never called", forbid(`{operation: execute_tool, attributes: {gen_ai.tool.name: delete_order}}`), test, status.Pass,
			"no span with operation `execute_tool`, gen_ai.tool.name = \"delete_order\" (8 spans checked)"},
		{"every span", forbid(`{}`), test, status.Fail,
			"forbidden: any span; found span `invoke_agent weather` a1, span `chat gpt-4o` c1, span `execute_tool get_weather` t1, 5 more"},
	})
}

// TestSpansEvidence: the evidence shows each span the result rests on.
func TestSpansEvidence(t *testing.T) {
	tr := spansTrace(agentSpans())
	r := evalOne(t, spanCheck(t, KindSpansForbid, `{spans: {forbid: [{status: error}]}}`), tr.TurnScope(0))
	if len(r.Evidence) != 1 {
		t.Fatalf("evidence %+v, want the failed span", r.Evidence)
	}
	want := "span `execute_tool get_weather` t2, in turn[0], service weather-agent, operation execute_tool, 2500 ms, status error (timeout)"
	if e := r.Evidence[0]; e.Note != "matches the forbidden entry" || e.Text != want {
		t.Errorf("evidence %q: %q, want %q", e.Note, e.Text, want)
	}
}

func TestSpansRead(t *testing.T) {
	for _, tc := range []struct {
		block string
		want  []string
	}{
		{`{spans: {require: [{status: broken}]}}`, []string{`t.yaml:1:29: assert.spans.require[0].status "broken" is not one of ok, error, unset`}},
		{`{spans: {require: [{name: ""}]}}`, []string{`t.yaml:1:27: assert.spans.require[0].name is empty`}},
		{`{spans: {require: [{attributes: [a]}]}}`, []string{`t.yaml:1:33: assert.spans.require[0].attributes must be a mapping of attribute names to a value or {equals | match | exists}, not a list`}},
		{`{spans: {require: [{attributes: {a: {match: x, exists: true}}}]}}`, []string{`t.yaml:1:37: assert.spans.require[0].attributes.a needs exactly one of equals, match or exists`}},
		{`{spans: {require: [{attributes: {a: {match: "("}}}]}}`, []string{"t.yaml:1:45: assert.spans.require[0].attributes.a.match: invalid regex"}},
		{`{spans: {require: [{attributes: {a: {exists: maybe}}}]}}`, []string{"t.yaml:1:46: assert.spans.require[0].attributes.a.exists"}},
		{`{spans: {require: [{count: {min: 3, max: 1}}]}}`, []string{"t.yaml:1:29: assert.spans.require[0].count: min 3 is greater than max 1"}},
		{`{spans: {forbid: [{count: {exact: 1}}]}}`, []string{`t.yaml:1:20: unknown field "count" in assert.spans.forbid[0]`}},
		{`{spans: {require: [{under: {under: {}}}]}}`, []string{`t.yaml:1:29: unknown field "under" in assert.spans.require[0].under`}},
		{`{spans: {require: [{max_duration_ms: false}]}}`, []string{"t.yaml:1:38: assert.spans.require[0].max_duration_ms: false has nothing to disable here"}},
		{`{spans: {}}`, []string{"require or forbid"}},
	} {
		t.Run(tc.block, func(t *testing.T) {
			_, diags := readSpans(t, tc.block, KindSpansRequire)
			if len(diags) != len(tc.want) {
				t.Fatalf("problems:\n%v\nwant %d", diags, len(tc.want))
			}
			for i, w := range tc.want {
				if got := diags[i].String(); !strings.Contains(got, w) {
					t.Errorf("problem %q, want it to say %q", got, w)
				}
			}
		})
	}
}
