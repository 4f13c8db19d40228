package assertion

import (
	"encoding/json"
	"testing"

	"github.com/ananke/action/internal/vars"
)

func TestDescribe(t *testing.T) {
	re := vars.MustRegex
	no := false
	for _, tc := range []struct {
		check Check
		want  string
	}{
		{Check{Kind: KindForbid, Payload: Tool{Name: vars.Name{Value: "delete_order"}}}, "no call to `delete_order`"},
		{Check{Kind: KindRequire, Payload: &Require{Name: vars.Name{Value: "charge_card"}, Count: Count{Min: 1, Max: 1, Exact: true},
			ArgsMatch: []ArgMatch{{Path: "amount", Regex: re("^42$")}}}}, "`charge_card` with args_match.amount `^42$` exactly 1 time"},
		{Check{Kind: KindRequire, Payload: &Require{Name: vars.Name{Value: "get_weather"}, Count: DefaultCount, MaxDurationMs: 2000}},
			"`get_weather` at least 1 time, each within 2000 ms"},
		{Check{Kind: KindForbidCalls, Payload: &CallFilter{Name: vars.Name{Value: "charge_card"}, ResultMatch: re("declined")}},
			"no call to `charge_card` with result_match `declined`"},
		{orderOf("validate_cart", "charge_card"), "first calls in the order `validate_cart` → `charge_card`"},
		{Check{Kind: KindMaxCalls, Payload: Limit{Set: true, Ms: 6}}, "at most 6 tool calls"},
		{Check{Kind: KindStopAfterSuccess, Payload: &CallFilter{Name: vars.Name{Value: "charge_card"}, ResultMatch: re("ok")}},
			"no tool call after the first successful call to `charge_card` with result_match `ok`"},
		{Check{Kind: KindMaxDuration, Payload: Limit{Set: true, Ms: 3000}}, "at most 3000 ms"},
		{Check{Kind: KindMaxIdle, Payload: Limit{Set: true, Ms: 500}}, "no idle gap over 500 ms"},
		{Check{Kind: KindMaxFirstEvent, Payload: Limit{Set: true, Ms: 2000}}, "the first event within 2000 ms of each request"},
		{Check{Kind: KindMaxFirstText, Payload: Limit{Set: true, Ms: 2000}}, "the first assistant text within 2000 ms of the turn's first request"},
		{Check{Kind: KindMustMatch, Payload: Pattern{Regex: re("(?i)refund")}}, "assistant text matching `(?i)refund`"},
		{Check{Kind: KindMustNotMatch, Payload: Pattern{Regex: re("error")}}, "assistant text not matching `error`"},
		{literal(KindContains, "refund", false), `assistant text containing "refund" (ignoring case)`},
		{literal(KindOmits, "Error", true), `assistant text without "Error" (case-sensitive)`},
		{literal(KindEquals, "Done.", false), `assistant text equal to "Done." (ignoring case), ignoring surrounding white space`},
		{Check{Kind: KindJSONSchema, Payload: &JSONSchema{File: "order.json", Schema: compileSchema(t, orderJSONSchema)}},
			"the reply's JSON validates against order.json"},
		{pathCheck("$.status", `"ok"`, matching("^o")), "$.status selects at least one value in the reply's JSON, each of which equals \"ok\" and matches `^o`"},
		{pathCheck("$.error", "", exists(false)), "$.error selects nothing in the reply's JSON"},
		{stateCheck("/cart/total", `89.5`), "state /cart/total equals 89.5"},
		{stateCheck("/cart", "", stateExists(true)), "state /cart present"},
		{stateCheck("/coupon", "", func(c *StateCheck) { c.Exists = &no }), "nothing at state /coupon"},
		{groundedCheck(true, true, "^2026$"),
			"every number (except whole numbers 0 to 10) and every URL in the reply appears in a tool result, tool argument, user message or history, ignoring claims matching `^2026$`"},
		{groundedCheck(false, true), "every URL in the reply appears in a tool result, tool argument, user message or history"},
		{Check{Kind: KindResultMatch, Payload: Pattern{Regex: re("^ok")}}, "every tool result matching `^ok`"},
		{Check{Kind: KindResultNotMatch, Payload: Pattern{Regex: re("error")}}, "every tool result not matching `error`"},
		{resultPath("$.total", `3`), "$.total selects at least one value in each tool result's JSON, each of which equals 3"},
		{Check{Kind: KindResultIsError, Payload: Flag{}}, "every tool result not an error"},
		{Check{Kind: KindResultIsError, Payload: Flag{Value: true}}, "every tool result an error"},
		{Check{Kind: KindResultMaxDuration, Payload: Limit{Set: true, Ms: 500}}, "every tool call completing within 500 ms"},
		{Check{Kind: KindToolsListInclude, Payload: Tool{Name: vars.Name{Value: "echo"}}}, "`echo` in the tools/list result"},
		{Check{Kind: KindToolsListExclude, Payload: Tool{Name: vars.Name{Value: "rm"}}}, "`rm` not in the tools/list result"},
		{Check{Kind: KindToolsListValidSchemas}, "every listed tool's inputSchema a valid JSON Schema of an object"},
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
	c.Payload.(*StateCheck).Want = json.RawMessage(`{not json`)
	if got, want := Describe(c), "state /total equals the given value (resolved when the test runs)"; got != want {
		t.Errorf("Describe = %q, want %q", got, want)
	}
}
