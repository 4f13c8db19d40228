package assertion

import (
	"fmt"
	"testing"

	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// searches returns n calls to search, c1…cn, with start sequence numbers
// 1…n.
func searches(n int) []trace.ToolCall {
	var calls []trace.ToolCall
	for i := 1; i <= n; i++ {
		calls = append(calls, call(fmt.Sprintf("c%d", i), "search", "{}", seqAt(int64(i))))
	}
	return calls
}

func TestMaxCalls(t *testing.T) {
	limit := func(n int64) Check { return Check{Kind: KindMaxCalls, Payload: Limit{Set: true, Ms: n}} }
	client := searches(6)
	client[5].Client = true
	runCases(t, []evalCase{
		{"under", limit(6), scopeOf(turnOf("", searches(3)...)), status.Pass, "turn[0] made 3 tool calls (limit 6)"},
		{"at the limit", limit(6), scopeOf(turnOf("", searches(6)...)), status.Pass, ""},
		{"client calls count", limit(5), scopeOf(turnOf("", client...)), status.Fail, "made 6 tool calls, over the limit of 5"},
		{"no calls", limit(1), scopeOf(turnOf("")), status.Pass, "made 0 tool calls"},
		{"many over", limit(2), scopeOf(turnOf("", searches(7)...)), status.Fail, "call c5 in turn[0] (`search`), 2 more"},
	})
	runExact(t, []exactCase{
		{"over", limit(6), scopeOf(turnOf("", searches(8)...)), status.Fail,
			"turn[0] made 8 tool calls, over the limit of 6: call c7 in turn[0] (`search`), call c8 in turn[0] (`search`)"},
	})
	r := evalOne(t, limit(6), scopeOf(turnOf("", searches(8)...)))
	if len(r.Evidence) != 2 || r.Evidence[0].Call.ID != "c7" || r.Evidence[0].Note != "call 7, beyond the limit of 6" || !hasRefs(r, 7, 8) {
		t.Errorf("evidence %s, refs %v; want the calls beyond the limit", notes(r), r.EventRefs)
	}
	many := evalOne(t, limit(1), scopeOf(turnOf("", searches(100)...)))
	if len(many.Evidence) != maxEvidence {
		t.Errorf("%d evidence items; want them capped at %d", len(many.Evidence), maxEvidence)
	}
}

func TestStopAfterSuccess(t *testing.T) {
	stop := Check{Kind: KindStopAfterSuccess, Payload: &CallFilter{Name: name("charge_card"), ResultMatch: vars.MustRegex(`"status":"ok"`)}}
	anyResult := Check{Kind: KindStopAfterSuccess, Payload: &CallFilter{Name: name("charge_card")}}
	withArgs := Check{Kind: KindStopAfterSuccess, Payload: &CallFilter{Name: name("charge_card"), ArgsMatch: args("amount", "^42$")}}
	ok := result(`{"status":"ok"}`, true)
	declined := result(`{"status":"declined"}`, true)
	failed := func(c *trace.ToolCall) { c.Result = &trace.Result{Content: "boom", Error: "tool failed"} }
	retried := scopeOf(turnOf("",
		call("c1", "charge_card", "{}", declined, seqAt(1)),
		call("c2", "charge_card", "{}", ok, seqAt(4)),
	))
	runCases(t, []evalCase{
		{"no success", stop, scopeOf(turnOf("", call("c1", "charge_card", "{}", declined), call("c2", "send_email", "{}"))), status.Pass,
			"`charge_card` never succeeded in turn[0]; nothing to check"},
		{"retry until success, then stop", stop, retried, status.Pass, "no tool call started after `charge_card` succeeded (call c2 in turn[0])"},
		{"a call without a result is no success", stop, scopeOf(turnOf("", call("c1", "charge_card", "{}"), call("c2", "x", "{}"))), status.Pass, "never succeeded"},
		{"without result_match: any result without error", anyResult, scopeOf(turnOf("",
			call("c1", "charge_card", "{}", failed), call("c2", "charge_card", "{}", declined), call("c3", "x", "{}"))), status.Fail,
			"`charge_card` succeeded (call c2 in turn[0]), but 1 tool call started after it: call c3 in turn[0] (`x`)"},
		{"args must match", withArgs, scopeOf(turnOf("",
			call("c1", "charge_card", `{"amount": 41}`, ok), call("c2", "x", "{}"))), status.Pass, "never succeeded"},
		{"by start time", stop, scopeOf(turnOf("",
			call("c1", "send_email", "{}", at(1900)), call("c2", "charge_card", "{}", ok, at(1500)))), status.Fail, "call c1 in turn[0] (`send_email`)"},
		{"started alongside, before the result", stop, scopeOf(turnOf("",
			call("c1", "charge_card", "{}", ok, seqAt(2), func(c *trace.ToolCall) { c.ResultSeq = 6 }),
			call("c2", "send_email", "{}", seqAt(4)))), status.Pass, "no tool call started after `charge_card` succeeded"},
		{"started after the result", stop, scopeOf(turnOf("",
			call("c1", "charge_card", "{}", ok, seqAt(2), func(c *trace.ToolCall) { c.ResultSeq = 6 }),
			call("c2", "send_email", "{}", seqAt(4)), call("c3", "send_email", "{}", seqAt(8)))), status.Fail,
			"but 1 tool call started after it: call c3 in turn[0] (`send_email`)"},
	})
	after := scopeOf(turnOf("",
		call("c1", "get_cart", "{}", seqAt(1)),
		call("c2", "charge_card", "{}", ok, seqAt(3)),
		call("c3", "charge_card", "{}", ok, seqAt(7)),
		call("c4", "send_email", "{}", seqAt(9)),
	))
	runExact(t, []exactCase{
		{"calls after the success", stop, after, status.Fail,
			"`charge_card` succeeded (call c2 in turn[0]), but 2 tool calls started after it: call c3 in turn[0] (`charge_card`), call c4 in turn[0] (`send_email`)"},
	})
	r := evalOne(t, stop, after)
	if len(r.Evidence) != 3 || r.Evidence[0].Note != "the success" || r.Evidence[0].Call.ID != "c2" || !hasRefs(r, 3, 7, 9) || hasRefs(r, 1) {
		t.Errorf("evidence %s, refs %v; want the success and the calls after it", notes(r), r.EventRefs)
	}
}

func TestRequireMaxDuration(t *testing.T) {
	weather := func(ms int64, mod ...func(*Require)) Check {
		return req("get_weather", append([]func(*Require){func(r *Require) { r.MaxDurationMs = ms }}, mod...)...)
	}
	fast := call("c1", "get_weather", `{"city": "Paris"}`, took(1000, 1500))
	slow := call("c1", "get_weather", `{"city": "Paris"}`, took(1000, 3400))
	runCases(t, []evalCase{
		{"within", weather(2000), scopeOf(turnOf("", fast)), status.Pass, "`get_weather` called 1 time, expected at least 1 time, each within 2000 ms"},
		{"exactly the limit", weather(500), scopeOf(turnOf("", fast)), status.Pass, ""},
		{"never completed is not timed", weather(1), scopeOf(turnOf("", call("c1", "get_weather", "{}", func(c *trace.ToolCall) { c.StartedMs = 1000 }))), status.Pass, ""},
		{"slow call that does not satisfy the entry", weather(2000, func(r *Require) { r.ArgsMatch = args("city", "^Rome$") }),
			scopeOf(turnOf("", slow, call("c2", "get_weather", `{"city": "Rome"}`, took(1000, 1100)))), status.Pass, ""},
		{"count first", weather(2000, count(2, 2, true)), scopeOf(turnOf("", slow)), status.Fail, "expected `get_weather` exactly 2 times, saw 1"},
		{"several slow", weather(100), scopeOf(turnOf("", fast, call("c2", "get_weather", "{}", took(0, 150)))), status.Fail,
			"`get_weather` call c1 in turn[0] took 500 ms, call c2 in turn[0] took 150 ms, over max_duration_ms 100"},
	})
	runExact(t, []exactCase{
		{"slow", weather(2000), scopeOf(turnOf("", slow)), status.Fail, "`get_weather` call c1 in turn[0] took 2400 ms, over max_duration_ms 2000"},
	})
	r := evalOne(t, weather(2000), scopeOf(turnOf("", fast, slow)))
	if len(r.Evidence) != 1 || r.Evidence[0].Note != "took 2400 ms, over max_duration_ms 2000" {
		t.Errorf("evidence %s; want only the slow call", notes(r))
	}
	if want := "`get_weather` at least 1 time, each within 2000 ms"; r.Expected != want {
		t.Errorf("Expected = %q, want %q", r.Expected, want)
	}
}
