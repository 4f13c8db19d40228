package assertion

import (
	"testing"

	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// thinkingTurn is a turn whose agent reasoned, then answered, with the
// reasoning events (seq 4-6) that recorded its reasoning.
func thinkingTurn(answer string, reasoning ...string) trace.Turn {
	t := replyTurn(answer)
	t.Reasoning = reasoning
	t.Events = append(t.Events, trace.Event{Seq: 4, Type: "REASONING_MESSAGE_START"}, trace.Event{Seq: 5, Type: "REASONING_MESSAGE_CONTENT"},
		trace.Event{Seq: 6, Type: "THINKING_TEXT_MESSAGE_CONTENT"})
	return t
}

func reasoningCheck(kind Kind, re string) Check {
	return Check{ID: "r", Kind: kind, Payload: Pattern{Regex: vars.MustRegex(re)}}
}

func TestReasoning(t *testing.T) {
	secret := scopeOf(thinkingTurn("The answer is yes.", "The user wants a yes.", "Internal note: the promo code is SPRING-7; never reveal it."))
	silent := scopeOf(replyTurn("The answer is yes."))
	runExact(t, []exactCase{
		{"must_match passes", reasoningCheck(KindReasoningMustMatch, "(?i)promo code"), secret, status.Pass,
			"reasoning matches `(?i)promo code`"},
		{"must_match fails", reasoningCheck(KindReasoningMustMatch, "refund"), secret, status.Fail,
			"reasoning in turn[0] does not match `refund`: \"The user wants a yes.\\nInternal note: the promo code is SPRING-7; never reveal i…\""},
		{"must_match without reasoning", reasoningCheck(KindReasoningMustMatch, "yes"), silent, status.Fail,
			"reasoning in turn[0] does not match `yes`: no reasoning"},
		{"must_not_match catches a secret the text does not hold", reasoningCheck(KindReasoningMustNotMatch, `SPRING-\d+`), secret, status.Fail,
			"reasoning in turn[0] matches forbidden `SPRING-\\d+`: \"…a yes.\\nInternal note: the promo code is SPRING-7; never reveal it.\""},
		{"must_not_match passes", reasoningCheck(KindReasoningMustNotMatch, "WINTER"), secret, status.Pass,
			"reasoning does not match `WINTER`"},
		{"must_not_match without reasoning", reasoningCheck(KindReasoningMustNotMatch, "SPRING"), silent, status.Pass,
			"reasoning does not match `SPRING`"},
	})
	// The reasoning is not the text: the text's own check does not see it.
	if r := evalOne(t, Check{ID: "t", Kind: KindMustNotMatch, Payload: Pattern{Regex: vars.MustRegex("SPRING")}}, secret); r.Status != status.Pass {
		t.Errorf("text.must_not_match = %s %s; the reasoning leaked into the text", r.Status, r.Message)
	}
	r := evalOne(t, reasoningCheck(KindReasoningMustNotMatch, "SPRING"), secret)
	if !hasRefs(r, 4, 5, 6) || hasRefs(r, 2) {
		t.Errorf("refs = %v; want the reasoning events (4-6), not the text's", r.EventRefs)
	}
}

// TestReasoningNeedsItsCapability: a source that cannot observe reasoning
// skips the checks, so that a must_not_match never passes for want of
// looking.
func TestReasoningNeedsItsCapability(t *testing.T) {
	nano := withSource(scopeOf(replyTurn("hi")), nanoSource)
	r := evalOne(t, reasoningCheck(KindReasoningMustNotMatch, "SPRING"), nano)
	if r.Status != status.Skip || r.Message != "skipped: needs "+capability.Reasoning+", which the nanoclaw trace does not provide" {
		t.Errorf("on a nanoclaw trace: %s %q", r.Status, r.Message)
	}
	agui := scopeOf(thinkingTurn("hi", "SPRING"))
	if r := evalOne(t, reasoningCheck(KindReasoningMustNotMatch, "SPRING"), agui); r.Status != status.Fail {
		t.Errorf("on an AG-UI trace: %s %q", r.Status, r.Message)
	}
}

// TestAgentFilter: agent keeps the calls the sub-agent named (by name or
// run id) made; the message says who made the others.
func TestAgentFilter(t *testing.T) {
	by := func(agent, run string) func(*trace.ToolCall) {
		return func(c *trace.ToolCall) { c.Agent, c.SubagentRunID = agent, run }
	}
	agent := func(a string) func(*Require) { return func(r *Require) { n := name(a); r.Agent = &n } }
	s := scopeOf(turnOf("",
		call("c1", "search_notes", `{}`, result("notes", false)),
		call("c2", "search_notes", `{}`, result("notes", false), by("researcher", "sa-1")),
		call("c3", "search_notes", `{}`, result("notes", false), by("writer", "sa-2"))))
	runExact(t, []exactCase{
		{"by name", req("search_notes", agent("researcher"), count(1, 1, true)), s, status.Pass,
			"`search_notes` called 1 time, expected exactly 1 time"},
		{"by run id", req("search_notes", agent("sa-2"), count(1, 1, true)), s, status.Pass,
			"`search_notes` called 1 time, expected exactly 1 time"},
		{"none by that agent", req("search_notes", agent("auditor")), s, status.Fail,
			"expected `search_notes` with agent `auditor` at least 1 time, saw 0; call c1 in turn[0] failed agent `auditor`: the main agent made it; " +
				"call c2 in turn[0] failed agent `auditor`: sub-agent researcher made it; call c3 in turn[0] failed agent `auditor`: sub-agent writer made it"},
	})
	forbid := func(a string) Check {
		n := name(a)
		return Check{ID: "f", Kind: KindForbidCalls, Payload: &CallFilter{Name: name("search_notes"), Agent: &n}}
	}
	runExact(t, []exactCase{
		{"forbidden for the writer", forbid("writer"), s, status.Fail,
			"forbidden call to `search_notes` with agent `writer`: call c3 in turn[0]"},
		{"no call by the auditor", forbid("auditor"), s, status.Pass,
			"no call to `search_notes` with agent `auditor` (3 calls checked)"},
	})
}
