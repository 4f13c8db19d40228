package assertion

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// everyKind returns one check of each kind this package evaluates.
func everyKind(t *testing.T) []Check {
	return []Check{
		{Kind: KindForbid, Payload: Tool{Name: name("x")}},
		req("x"),
		{Kind: KindForbidCalls, Payload: &CallFilter{Name: name("x")}},
		orderOf("a", "b"),
		{Kind: KindMaxCalls, Payload: Limit{Set: true, Ms: 1}},
		{Kind: KindStopAfterSuccess, Payload: &CallFilter{Name: name("x")}},
		{Kind: KindMaxDuration, Payload: Limit{Set: true, Ms: 1}},
		{Kind: KindMaxIdle, Payload: Limit{Set: true, Ms: 1}},
		{Kind: KindMaxFirstEvent, Payload: Limit{Set: true, Ms: 1}},
		{Kind: KindMaxFirstText, Payload: Limit{Set: true, Ms: 1}},
		{Kind: KindMustMatch, Payload: Pattern{Regex: vars.MustRegex("x")}},
		{Kind: KindMustNotMatch, Payload: Pattern{Regex: vars.MustRegex("x")}},
		literal(KindContains, "x", false),
		literal(KindOmits, "x", false),
		literal(KindEquals, "x", false),
		{Kind: KindJSONSchema, Payload: &JSONSchema{Schema: compileSchema(t, orderJSONSchema)}},
		pathCheck("$.x", `1`, typed("number"), matching("1")),
		stateCheck("/x", `1`, stateMatch("1")),
		groundedCheck(true, true),
	}
}

// TestEmptyScopes: every kind evaluates over scopes with nothing in them
// (a plan's Describe uses one) without panicking, and says what it expects.
func TestEmptyScopes(t *testing.T) {
	empty := trace.Trace{Turns: []trace.Turn{{}}}
	for _, s := range []trace.Scope{{Name: "test"}, empty.TurnScope(0), empty.TestScope()} {
		for _, c := range everyKind(t) {
			r := evalOne(t, c, s)
			if r.Expected == "" || r.Message == "" || r.Status != status.Pass && r.Status != status.Fail || r.EventRefs == nil {
				t.Errorf("%s over %s: %+v; want a status, a message, an expectation and refs ([] at least)", c.Kind, s.Name, r)
			}
		}
	}
}

func TestWarningSeverity(t *testing.T) {
	s := scopeOf(turnOf("Your card was declined."))
	for _, c := range everyKind(t) {
		c.Severity = Warning
		rs := Evaluate([]Check{c, {Kind: KindOmits, Payload: &TextCheck{Text: "declined"}}}, s)
		if rs[0].Status == status.Fail || rs[0].Severity != Warning {
			t.Errorf("%s with severity warning: status %s, severity %s; a failing warning is a warning", c.Kind, rs[0].Status, rs[0].Severity)
		}
		if rs[1].Status != status.Fail || rs[1].Severity != Critical {
			t.Errorf("default severity: status %s, severity %s; want a critical failure", rs[1].Status, rs[1].Severity)
		}
	}
	warn := literal(KindContains, "refund", false)
	warn.Severity = Warning
	rs := Evaluate([]Check{warn}, s)
	if rs[0].Status != status.Warn || Failed(rs) || !Warned(rs) {
		t.Errorf("failing warning: %+v; want status warn, not a failure", rs[0])
	}
}

// TestEventRefs: each result points at the events its evidence shows.
func TestEventRefs(t *testing.T) {
	tn := replyTurn(`{"x": 2, "y": "https://u.example"}`)
	tn.ToolCalls = []trace.ToolCall{
		call("c1", "b", "{}", seqAt(4), result("done", false), func(c *trace.ToolCall) { c.EndSeq, c.ResultSeq = 5, 6 }),
		call("c2", "a", "{}", seqAt(7), result("ok", false)),
	}
	tn.Runs = []trace.Run{runAt(900, 950, 1)}
	tn.FirstTextMs, tn.FirstTextSeq = 990, 2
	tn.State = json.RawMessage(`{"x": 2}`)
	tn.Events = append(tn.Events, trace.Event{Seq: 8, Type: "STATE_SNAPSHOT"})
	s := scopeOf(tn)
	stopAfterB := Check{Kind: KindStopAfterSuccess, Payload: &CallFilter{Name: name("b"), ResultMatch: vars.MustRegex("")}}
	for _, tc := range []struct {
		check Check
		want  []int64
	}{
		{orderOf("a", "b"), []int64{4, 5, 6, 7}},
		{Check{Kind: KindMaxCalls, Payload: Limit{Set: true, Ms: 1}}, []int64{7}},
		{stopAfterB, []int64{4, 5, 6, 7}},
		{Check{Kind: KindMaxFirstEvent, Payload: Limit{Set: true, Ms: 10}}, []int64{1}},
		{Check{Kind: KindMaxFirstText, Payload: Limit{Set: true, Ms: 10}}, []int64{2}},
		{stateCheck("/x", `3`), []int64{8}},
		{literal(KindContains, "nothing", false), []int64{1, 2, 3}},
		{literal(KindOmits, "x", false), []int64{1, 2, 3}},
		{literal(KindEquals, "x", false), []int64{1, 2, 3}},
		{Check{Kind: KindJSONSchema, Payload: &JSONSchema{Schema: compileSchema(t, orderJSONSchema)}}, []int64{1, 2, 3}},
		{pathCheck("$.x", `3`), []int64{1, 2, 3}},
		{groundedCheck(true, true), []int64{1, 2, 3}},
	} {
		r := evalOne(t, tc.check, s)
		if r.Status != status.Fail || !slices.Equal(r.EventRefs, tc.want) {
			t.Errorf("%s: %s %q, EventRefs %v; want a failure resting on %v", tc.check.Kind, r.Status, r.Message, r.EventRefs, tc.want)
		}
	}
}
