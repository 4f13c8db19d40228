package assertion

import (
	"fmt"

	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/trace"
)

// Evaluate runs every check over the scope, in order. Checks must be bound
// (spec.BindChecks) when their patterns reference variables.
func Evaluate(checks []spec.Check, s trace.Scope) []Result {
	out := make([]Result, 0, len(checks))
	for _, c := range checks {
		r := newResult(c, s.Name)
		switch c.Kind {
		case spec.KindForbid:
			forbid(&r, c.Tool, s)
		case spec.KindRequire:
			require(&r, c.Require, s)
		case spec.KindForbidCalls:
			forbidCalls(&r, c.ForbidCall, s)
		case spec.KindMaxDuration:
			maxDuration(&r, c.LimitMs, s)
		case spec.KindMaxIdle:
			maxIdle(&r, c.LimitMs, s)
		case spec.KindMustMatch:
			mustMatch(&r, c.Regex, s)
		case spec.KindMustNotMatch:
			mustNotMatch(&r, c.Regex, s)
		default:
			r.Status, r.Message = Fail, fmt.Sprintf("unknown assertion kind %q", c.Kind)
		}
		out = append(out, r)
	}
	return out
}

func (r *Result) set(st Status, format string, args ...any) {
	r.Status = st
	r.Message = fmt.Sprintf(format, args...)
}

// Describe says what check c expects, in the words its result would use
// ("`get_weather` with args_match.city `^Paris$` at least 1 time"), without
// a trace: for plans (--dry-run) that list assertions before anything runs.
func Describe(c spec.Check) string {
	return Evaluate([]spec.Check{c}, trace.Scope{Name: "test"})[0].Expected
}
