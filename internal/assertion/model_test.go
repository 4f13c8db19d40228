package assertion

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// mcall is a model call of turn 0 that started and ended at the times
// given, answered 200 with prompt tokens in (-1: no usage reported).
func mcall(model string, in int64, startMs, endMs int64) trace.ModelCall {
	m := trace.ModelCall{Model: model, Status: 200, Mode: "replay", FinishReason: "stop", StartedMs: startMs, EndedMs: endMs}
	if in >= 0 {
		m.Usage = &cost.Usage{Model: model}
		m.Usage.Tokens.Set(cost.Input, in)
		m.Usage.Tokens.Set(cost.Output, 10)
	}
	return m
}

// faulted is a model call Ananke answered with a 429 instead of the
// model.
func faulted(model string, startMs int64) trace.ModelCall {
	return trace.ModelCall{Model: model, Status: 429, Fault: "429", Mode: "replay", StartedMs: startMs, EndedMs: startMs}
}

// gatewayScope is the one-turn scope of a trace bound to the gateway,
// whose turn made the model calls given and the tool calls given.
func gatewayScope(models []trace.ModelCall, calls ...trace.ToolCall) trace.Scope {
	t := turnOf("", calls...)
	t.ModelCalls = models
	tr := trace.Trace{Turns: []trace.Turn{t}, Gateway: true}
	return tr.TurnScope(0)
}

func limitCheck(k Kind, n int64) Check {
	return Check{ID: "turn[0]." + string(k), Kind: k, Payload: Limit{Set: true, Ms: n}}
}

func TestModelKinds(t *testing.T) {
	three := []trace.ModelCall{faulted("gpt-4o-mini", 1000), mcall("gpt-4o-mini", 1200, 1100, 1400), mcall("gpt-4.1", 9000, 1500, 1900)}
	allowed := func(globs ...string) Check {
		g := ModelGlobs{}
		for _, s := range globs {
			g.Globs = append(g.Globs, name(s))
		}
		return Check{ID: "turn[0].model.allowed[0]", Kind: KindModelAllowed, Payload: g}
	}
	after := func(tool string) Check {
		return Check{ID: "turn[0].model.no_call_after[0]", Kind: KindModelNoCallAfter, Payload: Tool{Name: name(tool)}}
	}
	confirm := call("c1", "shop_confirm_order", `{}`, took(1300, 1450), result("ok", false))
	confirm.Served = &trace.Served{By: "doubles", Tool: "confirm_order"}
	runExact(t, []exactCase{
		{"max_calls within", limitCheck(KindModelMaxCalls, 3), gatewayScope(three), status.Pass, "turn[0] made 3 model calls (limit 3)"},
		{"max_calls over", limitCheck(KindModelMaxCalls, 1), gatewayScope(three), status.Fail,
			"turn[0] made 3 model calls, over the limit of 1: model call 2 in turn[0] (gpt-4o-mini), model call 3 in turn[0] (gpt-4.1)"},
		{"max_calls 0 and none made", limitCheck(KindModelMaxCalls, 0), gatewayScope(nil), status.Pass, "turn[0] made 0 model calls (limit 0)"},
		{"min_calls met by a retry", limitCheck(KindModelMinCalls, 2), gatewayScope(three[:2]), status.Pass, "turn[0] made 2 model calls (at least 2)"},
		{"min_calls short", limitCheck(KindModelMinCalls, 2), gatewayScope(three[2:]), status.Fail, "turn[0] made 1 model call, fewer than the 2 required"},
		{"allowed", allowed("gpt-4o*", "gpt-4.?"), gatewayScope(three), status.Pass, "turn[0] asked only for allowed models: `gpt-4o-mini`, `gpt-4.1`"},
		{"not allowed", allowed("gpt-4o-mini"), gatewayScope(three), status.Fail,
			"turn[0] asked for a model that is not allowed (`gpt-4o-mini`) in 1 call: model call 3 in turn[0] (gpt-4.1)"},
		{"allowed without calls", allowed("x"), gatewayScope(nil), status.Pass, "turn[0] made no model call"},
		{"max_prompt_tokens over", limitCheck(KindModelMaxPromptTokens, 8000), gatewayScope(three), status.Fail,
			"turn[0] sent more than 8,000 prompt tokens in a model call: model call 3 in turn[0] (gpt-4.1): 9,000"},
		{"max_prompt_tokens within; the faulted call counts for nothing", limitCheck(KindModelMaxPromptTokens, 9000), gatewayScope(three), status.Pass,
			"turn[0] sent at most 9,000 prompt tokens in a model call (limit 9,000)"},
		{"max_prompt_tokens unknown", limitCheck(KindModelMaxPromptTokens, 9000), gatewayScope([]trace.ModelCall{mcall("m", -1, 1, 2), mcall("m", 10, 3, 4)}), status.Skip,
			"skipped: model call 1 in turn[0] (m) reported no usage, so its prompt tokens are unknown; the others are within 9,000"},
		{"no_call_after: a call after the served tool completed", after("confirm_order"), gatewayScope(three, confirm), status.Fail,
			"turn[0]: the agent called its model after call c1 in turn[0] (`confirm_order`) completed: model call 3 in turn[0] (gpt-4.1)"},
		{"no_call_after: none after", after("confirm_order"), gatewayScope(three[:2], confirm), status.Pass,
			"no model call started in turn[0] after call c1 in turn[0] (`confirm_order`) completed"},
		{"no_call_after: the tool never completed", after("refund"), gatewayScope(three, confirm), status.Pass, "`refund` did not complete in turn[0]; nothing to check"},
	})
}

// TestModelKindsNeedTheGateway: without the gateway, a model check is
// skipped with the reason, not passed on an empty list.
func TestModelKindsNeedTheGateway(t *testing.T) {
	r := evalOne(t, limitCheck(KindModelMaxCalls, 0), scopeOf(turnOf("hi")))
	if r.Status != status.Skip || !strings.Contains(r.Message, "needs supports_model_calls") {
		t.Errorf("%s %q; want skipped for want of supports_model_calls", r.Status, r.Message)
	}
}

func TestModelEvidence(t *testing.T) {
	r := evalOne(t, limitCheck(KindModelMaxCalls, 2), gatewayScope(append(faultedThenOK(), mcall("gpt-4.1", 9000, 1500, 1900))))
	if len(r.Evidence) != 1 || r.Evidence[0].Text != "gpt-4.1 → 200 stop · 9,000 prompt tokens, 10 completion tokens · 400 ms" {
		t.Errorf("evidence %+v", r.Evidence)
	}
	r = evalOne(t, limitCheck(KindModelMinCalls, 5), gatewayScope(faultedThenOK()))
	if len(r.Evidence) != 2 || r.Evidence[0].Text != "gpt-4o-mini → 429 (fault 429 injected) · 0 ms" {
		t.Errorf("evidence %+v", r.Evidence)
	}
}

func faultedThenOK() []trace.ModelCall {
	return []trace.ModelCall{faulted("gpt-4o-mini", 1000), mcall("gpt-4o-mini", 1200, 1100, 1400)}
}
