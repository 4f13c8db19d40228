package assertion

import (
	"encoding/json"
	"regexp"
	"testing"

	"github.com/go-openapi/jsonpointer"
	"github.com/ohler55/ojg/jp"

	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// FuzzEvaluate evaluates every kind of check, with fuzzed patterns, literals
// and paths, over a trace with fuzzed arguments, results, state and text:
// no panic, one result per check, and only pass or fail.
func FuzzEvaluate(f *testing.F) {
	f.Add(`{"a":{"b":[1,{"c":"x"}]}}`, "a.b.1.c", "x", `{"r":1}`, "hello", int64(5))
	f.Add(`not json`, "", "(", "", "", int64(0))
	f.Add(`[1,2]`, "0", "^1$", `"str"`, "\x00\xff", int64(-3))
	f.Fuzz(func(t *testing.T, args, path, pattern, result, text string, ms int64) {
		re, err := regexp.Compile(pattern)
		if err != nil || path == "" {
			return
		}
		r := &vars.Regex{Template: vars.Literal(pattern)}
		bound, err := r.Bind(vars.NewVars(nil))
		if err != nil || bound.Compiled().String() != re.String() {
			return
		}
		call := trace.ToolCall{ID: "c", Name: "t", Args: args, ArgsJSON: true, Result: &trace.Result{Content: result, JSON: true}, StartedMs: 10, TimestampMs: 10 + ms%1000}
		tr := trace.Trace{Turns: []trace.Turn{{StartMs: 0, EndMs: 2000, ToolCalls: []trace.ToolCall{call, {ID: "d", Name: "t", Args: args}}, Texts: []string{text},
			State: json.RawMessage(result), Runs: []trace.Run{{StartMs: 5, FirstEventMs: ms}}, FirstTextMs: ms}}}
		am := []ArgMatch{{Path: path, Regex: bound}}
		checks := []Check{
			{Kind: KindForbid, Payload: Tool{Name: vars.Name{Value: "t"}}},
			{Kind: KindRequire, Payload: &Require{Name: vars.Name{Value: "t"}, Count: DefaultCount, ArgsMatch: am, ResultMatch: bound, ResultNotMatch: bound, After: &vars.Name{Value: "t"}}},
			{Kind: KindForbidCalls, Payload: &CallFilter{Name: vars.Name{Value: "t"}, ArgsMatch: am, ResultMatch: bound}},
			{Kind: KindMaxDuration, Payload: Limit{Set: true, Ms: ms}},
			{Kind: KindMaxIdle, Payload: Limit{Set: true, Ms: ms}},
			{Kind: KindMustMatch, Payload: Pattern{Regex: bound}},
			{Kind: KindMustNotMatch, Payload: Pattern{Regex: bound}},
			{Kind: KindContains, Payload: &TextCheck{Text: pattern}},
			{Kind: KindOmits, Payload: &TextCheck{Text: pattern, CaseSensitive: true}},
			{Kind: KindEquals, Payload: &TextCheck{Text: pattern}},
			{Kind: KindOrder, Payload: Order{Tools: []vars.Name{{Value: "t"}, {Value: path}}}},
			{Kind: KindMaxCalls, Payload: Limit{Set: true, Ms: ms}},
			{Kind: KindStopAfterSuccess, Payload: &CallFilter{Name: vars.Name{Value: "t"}, ResultMatch: bound}},
			{Kind: KindMaxFirstEvent, Payload: Limit{Set: true, Ms: ms}},
			{Kind: KindMaxFirstText, Payload: Limit{Set: true, Ms: ms}},
			{Kind: KindGrounded, Payload: &Grounded{Numbers: true, URLs: true, Ignore: []*vars.Regex{bound}}},
		}
		if expr, err := jp.ParseString("$." + path); err == nil {
			checks = append(checks, Check{Kind: KindJSONPath, Payload: &JSONPathCheck{Path: "$." + path, Expr: expr, Match: bound, Type: "string", Want: json.RawMessage(result)}})
		}
		if ptr, err := jsonpointer.New("/" + path); err == nil {
			checks = append(checks, Check{Kind: KindState, Payload: &StateCheck{Pointer: "/" + path, Ref: ptr, Match: bound, Want: json.RawMessage(args)}})
		}
		for _, s := range []trace.Scope{tr.TurnScope(0), tr.TestScope()} {
			rs := Evaluate(checks, s)
			if len(rs) != len(checks) {
				t.Fatalf("%d results for %d checks", len(rs), len(checks))
			}
			for _, r := range rs {
				if r.Status != status.Pass && r.Status != status.Fail || r.Message == "" {
					t.Fatalf("result %+v", r)
				}
			}
		}
	})
}
