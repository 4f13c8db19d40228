package assertion

import (
	"encoding/json"
	"testing"

	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/vars"
)

func TestDescribe(t *testing.T) {
	re := vars.MustRegex
	no := false
	for _, tc := range []struct {
		check spec.Check
		want  string
	}{
		{spec.Check{Kind: spec.KindForbid, Tool: vars.Name{Value: "delete_order"}}, "no call to `delete_order`"},
		{spec.Check{Kind: spec.KindRequire, Require: &spec.Require{Name: vars.Name{Value: "charge_card"}, Count: spec.Count{Min: 1, Max: 1, Exact: true},
			ArgsMatch: []spec.ArgMatch{{Path: "amount", Regex: re("^42$")}}}}, "`charge_card` with args_match.amount `^42$` exactly 1 time"},
		{spec.Check{Kind: spec.KindRequire, Require: &spec.Require{Name: vars.Name{Value: "get_weather"}, Count: spec.DefaultCount, MaxDurationMs: 2000}},
			"`get_weather` at least 1 time, each within 2000 ms"},
		{spec.Check{Kind: spec.KindForbidCalls, ForbidCall: &spec.CallFilter{Name: vars.Name{Value: "charge_card"}, ResultMatch: re("declined")}},
			"no call to `charge_card` with result_match `declined`"},
		{orderOf("validate_cart", "charge_card"), "first calls in the order `validate_cart` → `charge_card`"},
		{spec.Check{Kind: spec.KindMaxCalls, LimitMs: 6}, "at most 6 tool calls"},
		{spec.Check{Kind: spec.KindStopAfterSuccess, ForbidCall: &spec.CallFilter{Name: vars.Name{Value: "charge_card"}, ResultMatch: re("ok")}},
			"no tool call after the first successful call to `charge_card` with result_match `ok`"},
		{spec.Check{Kind: spec.KindMaxDuration, LimitMs: 3000}, "at most 3000 ms"},
		{spec.Check{Kind: spec.KindMaxIdle, LimitMs: 500}, "no idle gap over 500 ms"},
		{spec.Check{Kind: spec.KindMaxFirstEvent, LimitMs: 2000}, "the first event within 2000 ms of each request"},
		{spec.Check{Kind: spec.KindMaxFirstText, LimitMs: 2000}, "the first assistant text within 2000 ms of the turn's first request"},
		{spec.Check{Kind: spec.KindMustMatch, Regex: re("(?i)refund")}, "assistant text matching `(?i)refund`"},
		{spec.Check{Kind: spec.KindMustNotMatch, Regex: re("error")}, "assistant text not matching `error`"},
		{literal(spec.KindContains, "refund", false), `assistant text containing "refund" (ignoring case)`},
		{literal(spec.KindOmits, "Error", true), `assistant text without "Error" (case-sensitive)`},
		{literal(spec.KindEquals, "Done.", false), `assistant text equal to "Done." (ignoring case), ignoring surrounding white space`},
		{spec.Check{Kind: spec.KindJSONSchema, Schema: &spec.JSONSchema{File: "order.json", Schema: compileSchema(t, orderSchema)}},
			"the reply's JSON validates against order.json"},
		{pathCheck("$.status", `"ok"`, matching("^o")), "$.status selects at least one value in the reply's JSON, each of which equals \"ok\" and matches `^o`"},
		{pathCheck("$.error", "", exists(false)), "$.error selects nothing in the reply's JSON"},
		{stateCheck("/cart/total", `89.5`), "state /cart/total equals 89.5"},
		{stateCheck("/cart", "", stateExists(true)), "state /cart present"},
		{stateCheck("/coupon", "", func(c *spec.StateCheck) { c.Exists = &no }), "nothing at state /coupon"},
		{groundedCheck(true, true, "^2026$"),
			"every number (except whole numbers 0 to 10) and every URL in the reply appears in a tool result, tool argument, user message or history, ignoring claims matching `^2026$`"},
		{groundedCheck(false, true), "every URL in the reply appears in a tool result, tool argument, user message or history"},
		{spec.Check{Kind: spec.KindResultMatch, Regex: re("^ok")}, "every tool result matching `^ok`"},
		{spec.Check{Kind: spec.KindResultNotMatch, Regex: re("error")}, "every tool result not matching `error`"},
		{resultPath("$.total", `3`), "$.total selects at least one value in each tool result's JSON, each of which equals 3"},
		{spec.Check{Kind: spec.KindResultIsError}, "every tool result not an error"},
		{spec.Check{Kind: spec.KindResultIsError, Flag: true}, "every tool result an error"},
		{spec.Check{Kind: spec.KindResultMaxDuration, LimitMs: 500}, "every tool call completing within 500 ms"},
		{spec.Check{Kind: spec.KindToolsListInclude, Tool: vars.Name{Value: "echo"}}, "`echo` in the tools/list result"},
		{spec.Check{Kind: spec.KindToolsListExclude, Tool: vars.Name{Value: "rm"}}, "`rm` not in the tools/list result"},
		{spec.Check{Kind: spec.KindToolsListValidSchemas}, "every listed tool's inputSchema a valid JSON Schema of an object"},
	} {
		if got := Describe(tc.check); got != tc.want {
			t.Errorf("Describe(%s) = %q, want %q", tc.check.Kind, got, tc.want)
		}
	}
}

// TestDescribeUnbound: a plan describes checks before hooks set variables,
// so an equals value that cannot be resolved yet is described, not shown.
// (Invalid JSON stands in for a reference: only the loader makes those.)
func TestDescribeUnbound(t *testing.T) {
	c := stateCheck("/total", "")
	if got := Describe(c); got != "state /total present" {
		t.Errorf("Describe = %q", got)
	}
	c.Equals = json.RawMessage(`{not json`)
	if got, want := Describe(c), "state /total equals the given value (resolved when the test runs)"; got != want {
		t.Errorf("Describe = %q, want %q", got, want)
	}
}
