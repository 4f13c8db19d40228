package assertion

import (
	"fmt"

	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/trace"
)

// Evaluate runs every check over the scope, in order. Checks must be bound
// (spec.BindChecks) when their patterns reference variables.
func Evaluate(checks []spec.Check, s trace.Scope) []Result {
	out := make([]Result, 0, len(checks))
	for _, c := range checks {
		if r, gated := gate(c, s); gated {
			out = append(out, r)
			continue
		}
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
		case spec.KindOrder:
			order(&r, c.Tools, s)
		case spec.KindMaxCalls:
			maxCalls(&r, c.LimitMs, s)
		case spec.KindStopAfterSuccess:
			stopAfterSuccess(&r, c.ForbidCall, s)
		case spec.KindMaxFirstEvent:
			maxFirstEvent(&r, c.LimitMs, s)
		case spec.KindMaxFirstText:
			maxFirstText(&r, c.LimitMs, s)
		case spec.KindState:
			state(&r, c.State, c.Equals, s)
		case spec.KindContains:
			contains(&r, c.Text, s)
		case spec.KindOmits:
			omits(&r, c.Text, s)
		case spec.KindEquals:
			equals(&r, c.Text, s)
		case spec.KindJSONSchema:
			jsonSchema(&r, c.Schema, s)
		case spec.KindJSONPath:
			jsonPath(&r, c.Path, c.Equals, s)
		case spec.KindGrounded:
			grounded(&r, c.Grounded, s)
		case spec.KindMemoryReads:
			memoryRequire(&r, c.Memory, trace.MemoryRead, s)
		case spec.KindMemoryWrites:
			memoryRequire(&r, c.Memory, trace.MemoryWrite, s)
		case spec.KindMemoryForbid:
			memoryForbid(&r, c.Memory, s)
		case spec.KindTaskRuns:
			taskRuns(&r, c.Counted, s)
		case spec.KindOutbound:
			outbound(&r, c.Counted, s)
		case spec.KindResultMatch:
			resultMatch(&r, c.Regex, true, s)
		case spec.KindResultNotMatch:
			resultMatch(&r, c.Regex, false, s)
		case spec.KindResultJSONPath:
			resultJSONPath(&r, c.Path, c.Equals, s)
		case spec.KindResultIsError:
			resultIsError(&r, c.Flag, s)
		case spec.KindResultMaxDuration:
			resultMaxDuration(&r, c.LimitMs, s)
		case spec.KindToolsListInclude:
			toolsListInclude(&r, c.Tool.Value, true, s)
		case spec.KindToolsListExclude:
			toolsListInclude(&r, c.Tool.Value, false, s)
		case spec.KindToolsListValidSchemas:
			toolsListValidSchemas(&r, s)
		default:
			r.Status, r.Message = Fail, fmt.Sprintf("unknown assertion kind %q", c.Kind)
		}
		r.Finish()
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
	// A source with every capability: a plan describes, it does not gate.
	all := &trace.Source{Capabilities: capability.All}
	return Evaluate([]spec.Check{c}, trace.Scope{Name: "test", Source: all})[0].Expected
}
