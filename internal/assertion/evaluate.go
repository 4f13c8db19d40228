package assertion

import (
	"fmt"

	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// Evaluate runs every check over the scope, in order, each by its kind's
// evaluator (Defs). Checks must be bound (BindChecks) when their patterns
// reference variables.
func Evaluate(checks []Check, s trace.Scope) []Result {
	out := make([]Result, 0, len(checks))
	for _, c := range checks {
		if r, gated := gate(c, s); gated {
			out = append(out, r)
			continue
		}
		r := newResult(c, s.Name)
		if d := Lookup(c.Kind); d != nil && d.eval != nil {
			d.eval(&r, c.Payload, s)
		} else {
			r.Status, r.Message = status.Fail, fmt.Sprintf("unknown assertion kind %q", c.Kind)
		}
		r.Finish()
		out = append(out, r)
	}
	return out
}

func (r *Result) set(st status.Status, format string, args ...any) {
	r.Status = st
	r.Message = fmt.Sprintf(format, args...)
}

// Describe says what check c expects, in the words its result would use
// ("`get_weather` with args_match.city `^Paris$` at least 1 time"), without
// a trace: for plans (--dry-run) that list assertions before anything runs.
func Describe(c Check) string {
	// A source with every capability: a plan describes, it does not gate.
	all := &trace.Source{Capabilities: capability.All}
	return Evaluate([]Check{c}, trace.Scope{Name: "test", Source: all})[0].Expected
}
