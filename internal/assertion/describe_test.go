package assertion

import (
	"testing"

	"github.com/ananke/action/internal/spec"
)

func TestDescribe(t *testing.T) {
	re := spec.MustRegex
	for _, tc := range []struct {
		check spec.Check
		want  string
	}{
		{spec.Check{Kind: spec.KindForbid, Tool: spec.Name{Value: "delete_order"}}, "no call to `delete_order`"},
		{spec.Check{Kind: spec.KindRequire, Require: &spec.Require{Name: spec.Name{Value: "charge_card"}, Count: spec.Count{Min: 1, Max: 1, Exact: true},
			ArgsMatch: []spec.ArgMatch{{Path: "amount", Regex: re("^42$")}}}}, "`charge_card` with args_match.amount `^42$` exactly 1 time"},
		{spec.Check{Kind: spec.KindForbidCalls, ForbidCall: &spec.CallFilter{Name: spec.Name{Value: "charge_card"}, ResultMatch: re("declined")}},
			"no call to `charge_card` with result_match `declined`"},
		{spec.Check{Kind: spec.KindMaxDuration, LimitMs: 3000}, "at most 3000 ms"},
		{spec.Check{Kind: spec.KindMaxIdle, LimitMs: 500}, "no idle gap over 500 ms"},
		{spec.Check{Kind: spec.KindMustMatch, Regex: re("(?i)refund")}, "assistant text matching `(?i)refund`"},
		{spec.Check{Kind: spec.KindMustNotMatch, Regex: re("error")}, "assistant text not matching `error`"},
	} {
		if got := Describe(tc.check); got != tc.want {
			t.Errorf("Describe(%s) = %q, want %q", tc.check.Kind, got, tc.want)
		}
	}
}
