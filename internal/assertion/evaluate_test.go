package assertion

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// call builds a completed tool call; opts adjust it.
func call(id, name, args string, opts ...func(*trace.ToolCall)) trace.ToolCall {
	c := trace.ToolCall{ID: id, Name: name, Args: args, ArgsJSON: json.Valid([]byte(args))}
	for _, o := range opts {
		o(&c)
	}
	return c
}

func result(content string, json bool) func(*trace.ToolCall) {
	return func(c *trace.ToolCall) { c.Result = &trace.Result{Content: content, JSON: json} }
}

func at(ms int64) func(*trace.ToolCall) {
	return func(c *trace.ToolCall) { c.StartedMs, c.TimestampMs = ms-1, ms }
}

func inTurn(i int) func(*trace.ToolCall) { return func(c *trace.ToolCall) { c.Turn = i } }

// turnOf wraps calls in one turn from 1000 to 2000 ms.
func turnOf(text string, calls ...trace.ToolCall) trace.Turn {
	t := trace.Turn{StartMs: 1000, EndMs: 2000, ToolCalls: calls}
	if text != "" {
		t.Texts = []string{text}
	}
	return t
}

func scopeOf(turns ...trace.Turn) trace.Scope {
	tr := trace.Trace{Turns: turns}
	return tr.TurnScope(len(turns) - 1)
}

func name(s string) vars.Name { return vars.Name{Value: s} }

func args(kv ...string) []ArgMatch {
	var out []ArgMatch
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, ArgMatch{Path: kv[i], Regex: vars.MustRegex(kv[i+1])})
	}
	return out
}

func req(tool string, mod ...func(*Require)) Check {
	r := &Require{Name: name(tool), Count: DefaultCount}
	for _, m := range mod {
		m(r)
	}
	return Check{ID: "x", Kind: KindRequire, Payload: r}
}

func count(min, max int64, exact bool) func(*Require) {
	return func(r *Require) { r.Count = Count{Min: min, Max: max, Exact: exact} }
}

type evalCase struct {
	name    string
	check   Check
	scope   trace.Scope
	want    status.Status
	wantMsg string // substring of the message
}

func runCases(t *testing.T, cases []evalCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rs := Evaluate([]Check{tc.check}, tc.scope)
			if len(rs) != 1 {
				t.Fatalf("got %d results", len(rs))
			}
			r := rs[0]
			if r.Status != tc.want || !strings.Contains(r.Message, tc.wantMsg) {
				t.Errorf("Evaluate = %s %q; want %s containing %q", r.Status, r.Message, tc.want, tc.wantMsg)
			}
			if r.Status == status.Fail && (r.Expected == "" || r.Observed == "") {
				t.Errorf("failure without expected/observed: %+v", r)
			}
		})
	}
}

func TestForbid(t *testing.T) {
	forbid := Check{Kind: KindForbid, Payload: Tool{Name: name("delete_order")}}
	runCases(t, []evalCase{
		{"not called", forbid, scopeOf(turnOf("", call("c1", "list_orders", "{}"))), status.Pass, "`delete_order` was not called"},
		{"no calls at all", forbid, scopeOf(turnOf("")), status.Pass, "was not called"},
		{"called twice", forbid, scopeOf(turnOf("", call("c1", "delete_order", "{}"), call("c2", "delete_order", "{}"))), status.Fail,
			"`delete_order` is forbidden but was called 2 times: call c1 in turn[0], call c2 in turn[0]"},
	})
}

func TestRequireCount(t *testing.T) {
	two := scopeOf(turnOf("", call("c1", "charge_card", "{}"), call("c2", "charge_card", "{}")))
	runCases(t, []evalCase{
		{"default min 1 met", req("charge_card"), two, status.Pass, "`charge_card` called 2 times, expected at least 1 time"},
		{"default min 1 not met", req("charge_card"), scopeOf(turnOf("", call("c1", "search", "{}"))), status.Fail,
			"expected `charge_card` at least 1 time, saw 0: `charge_card` was never called (calls in turn[0]: search)"},
		{"never called, no calls", req("charge_card"), scopeOf(turnOf("")), status.Fail, "(no tool calls in turn[0])"},
		{"exact 1 saw 2", req("charge_card", count(1, 1, true)), two, status.Fail, "expected `charge_card` exactly 1 time, saw 2"},
		{"exact 2", req("charge_card", count(2, 2, true)), two, status.Pass, "called 2 times"},
		{"exact 0 passes with none", req("charge_card", count(0, 0, true)), scopeOf(turnOf("")), status.Pass, "called 0 times"},
		{"min 3", req("charge_card", count(3, -1, false)), two, status.Fail, "expected `charge_card` at least 3 times, saw 2"},
		{"max 1", req("charge_card", count(0, 1, false)), two, status.Fail, "expected `charge_card` at most 1 time, saw 2"},
		{"between 1 and 2", req("charge_card", count(1, 2, false)), two, status.Pass, "expected between 1 and 2 times"},
	})
}

func TestRequireArgsMatch(t *testing.T) {
	c := call("c1", "create_order", `{"amount": 42, "paid": true, "note": null, "customer": {"email": "a@example.com", "tags": ["vip"]}, "items": [{"sku": "A-1"}], "a.b": "literal key"}`)
	s := scopeOf(turnOf("", c))
	withArgs := func(kv ...string) Check {
		return req("create_order", func(r *Require) { r.ArgsMatch = args(kv...) })
	}
	runCases(t, []evalCase{
		{"string value", withArgs("customer.email", `@example\.com$`), s, status.Pass, ""},
		{"number as text", withArgs("amount", "^42$"), s, status.Pass, ""},
		{"bool as text", withArgs("paid", "^true$"), s, status.Pass, ""},
		{"null as text", withArgs("note", "^null$"), s, status.Pass, ""},
		{"object as compact JSON", withArgs("customer", `^\{"email":"a@example\.com","tags":\["vip"\]\}$`), s, status.Pass, ""},
		{"array index path", withArgs("items.0.sku", "^A-"), s, status.Pass, ""},
		{"key with a dot wins", withArgs("a.b", "^literal key$"), s, status.Pass, ""},
		{"number mismatch", withArgs("amount", "^41$"), s, status.Fail,
			"call c1 in turn[0] failed args_match.amount: \"42\" does not match `^41$`"},
		{"missing argument", withArgs("customer.phone", "."), s, status.Fail, `args_match.customer.phone: argument "customer.phone" is missing`},
		{"index out of range", withArgs("items.3.sku", "."), s, status.Fail, "is missing"},
		{"all keys must match", withArgs("amount", "42", "paid", "false"), s, status.Fail, "args_match.paid"},
		{"invalid JSON args never match", req("create_order", func(r *Require) { r.ArgsMatch = args("q", ".") }),
			scopeOf(turnOf("", call("c9", "create_order", `{"q": "unterminated`))), status.Fail, "the arguments are not valid JSON"},
	})
}

func TestRequireResults(t *testing.T) {
	match := func(re string) Check {
		return req("calc", func(r *Require) { r.ResultMatch = vars.MustRegex(re) })
	}
	notMatch := func(re string) Check {
		return req("calc", func(r *Require) { r.ResultNotMatch = vars.MustRegex(re) })
	}
	missing := scopeOf(turnOf("", call("c1", "calc", "{}")))
	empty := scopeOf(turnOf("", call("c1", "calc", "{}", result("", false))))
	obj := scopeOf(turnOf("", call("c1", "calc", "{}", result(`{ "total": 42,  "currency": "EUR" }`, true))))
	jsonString := scopeOf(turnOf("", call("c1", "calc", "{}", result(`"plain \"quoted\""`, true))))
	text := scopeOf(turnOf("", call("c1", "calc", "{}", result("error: no shipping", false))))
	runCases(t, []evalCase{
		{"missing result fails result_match", match("."), missing, status.Fail, "result_match `.`: the call has no result"},
		{"missing result passes result_not_match", notMatch("error"), missing, status.Pass, ""},
		{"empty result is a result", match("^$"), empty, status.Pass, ""},
		{"empty result fails a non-empty pattern", match("."), empty, status.Fail, `result "" does not match`},
		{"object as compact JSON", match(`^\{"total":42,"currency":"EUR"\}$`), obj, status.Pass, ""},
		{"JSON string as its value", match(`^plain "quoted"$`), jsonString, status.Pass, ""},
		{"raw text", match("no shipping"), text, status.Pass, ""},
		{"result_not_match eliminates", notMatch("error|failed"), text, status.Fail,
			"call c1 in turn[0] failed result_not_match `error|failed`: result \"error: no shipping\" matches"},
	})
}

func TestRequireAfter(t *testing.T) {
	after := req("get_shipping_options", func(r *Require) { r.After = &vars.Name{Value: "validate_cart"} })
	runCases(t, []evalCase{
		{"after in the same turn", after, scopeOf(turnOf("", call("c1", "validate_cart", "{}"), call("c2", "get_shipping_options", "{}"))), status.Pass, ""},
		{"before is not after", after, scopeOf(turnOf("", call("c1", "get_shipping_options", "{}"), call("c2", "validate_cart", "{}"))), status.Fail,
			"after `validate_cart`: no call to `validate_cart` came before it"},
		{"after across turns", after, scopeOf(
			turnOf("", call("c1", "validate_cart", "{}")),
			turnOf("", call("c2", "get_shipping_options", "{}", inTurn(1))),
		), status.Pass, ""},
		{"one satisfying call is enough", after, scopeOf(turnOf("",
			call("c1", "get_shipping_options", "{}"), call("c2", "validate_cart", "{}"), call("c3", "get_shipping_options", "{}"))), status.Pass, "called 1 time"},
	})
}

func TestRequireExplainsEveryCandidate(t *testing.T) {
	check := req("pay", func(r *Require) {
		r.ArgsMatch = args("amount", "^42$")
		r.ResultNotMatch = vars.MustRegex("declined")
	})
	s := scopeOf(turnOf("",
		call("c1", "pay", `{"amount": 41}`),
		call("c2", "pay", `{"amount": 42}`, result("card declined", false)),
		call("c3", "pay", `{}`),
		call("c4", "pay", `{"amount": 1}`),
		call("c5", "search", `{}`),
	))
	r := Evaluate([]Check{check}, s)[0]
	want := "expected `pay` with args_match.amount `^42$`, result_not_match `declined` at least 1 time, saw 0; " +
		"call c1 in turn[0] failed args_match.amount: \"41\" does not match `^42$`; " +
		"call c2 in turn[0] failed result_not_match `declined`: result \"card declined\" matches; " +
		"call c3 in turn[0] failed args_match.amount: argument \"amount\" is missing; 1 more"
	if r.Message != want {
		t.Errorf("message =\n%s\nwant\n%s", r.Message, want)
	}
	never := Evaluate([]Check{req("refund")}, s)[0]
	if len(never.Evidence) != 5 || never.Evidence[4].Call.Name != "search" || never.Evidence[0].Note != "called instead" {
		t.Errorf("a tool never called: evidence %+v; want every call in scope", never.Evidence)
	}
	if len(r.Evidence) != 4 {
		t.Fatalf("evidence has %d entries; want every candidate (4)", len(r.Evidence))
	}
	for _, e := range r.Evidence {
		if e.Call == nil || !strings.HasPrefix(e.Note, "eliminated: ") {
			t.Errorf("evidence %+v; want the call and why it was eliminated", e)
		}
	}
}

func TestForbidCalls(t *testing.T) {
	declined := Check{Kind: KindForbidCalls, Payload: &CallFilter{Name: name("charge_card"), ResultMatch: vars.MustRegex("declined|insufficient")}}
	byArgs := Check{Kind: KindForbidCalls, Payload: &CallFilter{Name: name("transfer"), ArgsMatch: args("amount", `^\d{5,}$`)}}
	runCases(t, []evalCase{
		{"ok result", declined, scopeOf(turnOf("", call("c1", "charge_card", "{}", result(`{"status":"ok"}`, true)))), status.Pass, "1 call checked"},
		{"missing result is not a match", declined, scopeOf(turnOf("", call("c1", "charge_card", "{}"))), status.Pass, ""},
		{"declined", declined, scopeOf(turnOf("", call("c1", "charge_card", "{}", result("card declined", false)))), status.Fail,
			"forbidden call to `charge_card` with result_match `declined|insufficient`: call c1 in turn[0] (result \"card declined\")"},
		{"args match", byArgs, scopeOf(turnOf("", call("c1", "transfer", `{"amount": 100}`), call("c2", "transfer", `{"amount": 250000}`))), status.Fail,
			"call c2 in turn[0] (amount=\"250000\")"},
		{"other tool", byArgs, scopeOf(turnOf("", call("c1", "search", `{"amount": 250000}`))), status.Pass, "0 calls checked"},
	})
}

func TestTiming(t *testing.T) {
	dur := func(ms int64) Check { return Check{Kind: KindMaxDuration, Payload: Limit{Set: true, Ms: ms}} }
	idle := func(ms int64) Check { return Check{Kind: KindMaxIdle, Payload: Limit{Set: true, Ms: ms}} }
	noCalls := scopeOf(turnOf(""))
	// Turn 1000..2000: idle gaps start→1100 (100), 1100→1300 (200), 1300→2000 (700).
	calls := scopeOf(turnOf("", call("c2", "b", "{}", at(1300)), call("c1", "a", "{}", at(1100))))
	startGap := scopeOf(turnOf("", call("c1", "a", "{}", at(1900)), call("c2", "b", "{}", at(1950))))
	middleGap := scopeOf(turnOf("", call("c1", "a", "{}", at(1050)), call("c2", "b", "{}", at(1950))))
	pending := scopeOf(turnOf("", call("c1", "a", "{}", func(c *trace.ToolCall) { c.StartedMs = 1500 })))
	runCases(t, []evalCase{
		{"duration within", dur(1000), noCalls, status.Pass, "turn[0] took 1000 ms (limit 1000 ms)"},
		{"duration over", dur(999), noCalls, status.Fail, "turn[0] took 1000 ms, over the limit of 999 ms by 1 ms"},
		{"no calls: one gap", idle(999), noCalls, status.Fail, "idle for 1000 ms from turn start to turn end"},
		{"gap at the end", idle(500), calls, status.Fail, "idle for 700 ms from call c2 (b) to turn end"},
		{"gap at the start", idle(500), startGap, status.Fail, "idle for 900 ms from turn start to call c1 (a)"},
		{"gap between calls", idle(500), middleGap, status.Fail, "idle for 900 ms from call c1 (a) to call c2 (b)"},
		{"within", idle(700), calls, status.Pass, "longest idle gap 700 ms"},
		{"call without completion counts at its start", idle(499), pending, status.Fail, "idle for 500 ms"},
	})
	test := trace.Trace{Turns: []trace.Turn{{StartMs: 100, EndMs: 200}, {StartMs: 250, EndMs: 400}}}
	r := Evaluate([]Check{dur(299)}, test.TestScope())[0]
	if r.Status != status.Fail || !strings.Contains(r.Message, "test took 300 ms") {
		t.Errorf("test duration = %s %q; want first turn start to last turn end (300 ms)", r.Status, r.Message)
	}
}

func TestText(t *testing.T) {
	must := func(re string) Check { return Check{Kind: KindMustMatch, Payload: Pattern{Regex: vars.MustRegex(re)}} }
	mustNot := func(re string) Check {
		return Check{Kind: KindMustNotMatch, Payload: Pattern{Regex: vars.MustRegex(re)}}
	}
	s := scopeOf(trace.Turn{Texts: []string{"Your order is confirmed.", "Anything else?"}})
	runCases(t, []evalCase{
		{"match", must(`(?i)order is CONFIRMED`), s, status.Pass, ""},
		{"case-sensitive by default", must(`CONFIRMED`), s, status.Fail, "does not match `CONFIRMED`"},
		{"messages joined by newline", must("confirmed\\.\nAnything"), s, status.Pass, ""},
		{"no text", must("."), scopeOf(turnOf("")), status.Fail, "no assistant text"},
		{"forbidden match", mustNot("error|confirmed"), s, status.Fail, "matches forbidden `error|confirmed`: \"Your order is confirmed.\\nAnything else?\""},
		{"no forbidden match", mustNot("exception"), s, status.Pass, ""},
	})
	test := trace.Trace{Turns: []trace.Turn{{Texts: []string{"first"}}, {}, {Texts: []string{"third"}}}}
	if got := test.TestScope().Text(); got != "first\nthird" {
		t.Errorf("test text = %q; want the turns' texts joined by newline", got)
	}
}

func TestSkippedAndFailed(t *testing.T) {
	checks := []Check{{ID: "test.tools.require[0]", Kind: KindRequire, Level: LevelTest}}
	rs := Skipped(checks, "test", "not evaluated: the test stopped at turn[0]")
	if len(rs) != 1 || rs[0].Status != status.Skip || rs[0].ID != "test.tools.require[0]" || Failed(rs) {
		t.Errorf("Skipped = %+v", rs)
	}
	if !Failed([]Result{{Status: status.Pass}, {Status: status.Fail}}) {
		t.Error("Failed missed a failure")
	}
}
