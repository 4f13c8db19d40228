package genai_test

import (
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/otel/genai"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// checksOf reads an assert block into its checks, bound.
func checksOf(t *testing.T, block string) []assertion.Check {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(block), &doc); err != nil {
		t.Fatal(err)
	}
	var diags diag.Diagnostics
	b := assertion.ReadBlock(&decode.Decoder{File: "t.yaml", Diags: &diags}, doc.Content[0], "assert")
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	var checks []assertion.Check
	for _, d := range assertion.Defs() {
		for _, it := range b.Items(d.Kind) {
			checks = append(checks, assertion.Check{ID: "turn[0]." + string(d.Kind), Kind: d.Kind, Pos: it.Pos, Payload: it.Payload})
		}
	}
	bound, err := assertion.BindChecks(checks, vars.NewVars(nil))
	if err != nil {
		t.Fatal(err)
	}
	return bound
}

// TestSpansFeedChecks: an A2A agent streams no tool calls and reports no
// usage; its spans show a call and a model request. Once genai.Fill has
// read them, tools.require and budgets check what the spans showed, and
// spans.require the spans themselves; without the spans, the tool and
// budget checks have nothing to read and are skipped.
func TestSpansFeedChecks(t *testing.T) {
	at := func(ms int64) int64 { return 1_800_000_000_000*1e6 + ms*1e6 }
	spans := []trace.Span{
		{SpanID: "a1", ParentID: "feedf00dfeedf00d", Name: "invoke_agent weather", StartNs: at(0), EndNs: at(900),
			Attributes: map[string]any{genai.AttrOperation: genai.OpInvokeAgent}},
		{SpanID: "c1", ParentID: "a1", Name: "chat gpt-4o-mini", StartNs: at(10), EndNs: at(300),
			Attributes: map[string]any{genai.AttrOperation: genai.OpChat, genai.AttrProvider: "openai", genai.AttrReqModel: "gpt-4o-mini",
				genai.AttrInputTokens: int64(400), genai.AttrOutputTokens: int64(30)}},
		{SpanID: "t1", ParentID: "a1", Name: "execute_tool get_weather", StartNs: at(310), EndNs: at(350), Status: "ok",
			Attributes: map[string]any{genai.AttrOperation: genai.OpExecuteTool, genai.AttrToolName: "get_weather",
				genai.AttrToolID: "call_1", genai.AttrToolArgs: `{"city":"Paris"}`, genai.AttrToolRes: `{"sky":"clear"}`}},
	}
	checks := checksOf(t, `{tools: {require: [{name: get_weather, args_match: {city: Paris}, result_match: clear}]},
		budget: {max_total_tokens: 1000},
		spans: {require: [{operation: execute_tool, attributes: {gen_ai.tool.name: get_weather}, under: {operation: invoke_agent}}]}}`)
	a2a := &trace.Source{Adapter: "a2a", Version: "1.0", Mode: "live", Capabilities: []string{capability.LiveRun}}
	turn := func() trace.Turn {
		return trace.Turn{Index: 0, Kind: "a2a:send", StartMs: at(0) / 1e6, EndMs: at(1000) / 1e6, Texts: []string{"Clear in Paris."}}
	}

	if len(checks) != 3 {
		t.Fatalf("%d checks, want 3", len(checks))
	}
	tr := &trace.Trace{Source: a2a, Turns: []trace.Turn{turn()}, Spans: spans}
	genai.Fill(&tr.Turns[0], spans)
	for _, r := range assertion.Evaluate(checks, tr.TurnScope(0)) {
		if r.Status != status.Pass {
			t.Errorf("with spans, %s = %s: %s", r.Kind, r.Status, r.Message)
		}
	}

	bare := &trace.Trace{Source: a2a, Turns: []trace.Turn{turn()}}
	for _, r := range assertion.Evaluate(checks, bare.TurnScope(0)) {
		if r.Status != status.Skip {
			t.Errorf("without spans, %s = %s: %s; want it skipped", r.Kind, r.Status, r.Message)
		}
	}
}
