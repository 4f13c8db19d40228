package assertion

import (
	"fmt"
	"slices"

	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// Needs returns the capabilities a check of kind k needs of its trace
// (Def.Needs): tool checks need the tool trace, timing checks streaming
// timing, state checks the agent state, memory and scheduler checks their
// events. Text, judge and script checks read the assistant's text, which
// every source has.
func Needs(k Kind) []string {
	if d := Lookup(k); d != nil {
		return slices.Clone(d.Needs)
	}
	return nil
}

// Gate splits checks into those the scope's trace can answer and the
// results of those it cannot: a check that needs a capability its source
// lacks is skipped with the reason, or is an error when its test says
// on_missing_capability: error.
func Gate(checks []Check, s trace.Scope) (run []Check, gated []Result) {
	for _, c := range checks {
		if r, ok := gate(c, s); ok {
			gated = append(gated, r)
			continue
		}
		run = append(run, c)
	}
	return run, gated
}

func gate(c Check, s trace.Scope) (Result, bool) {
	need := Needs(c.Kind)
	for _, x := range c.Requires {
		if !slices.Contains(need, x) { // requires may repeat the kind's own
			need = append(need, x)
		}
	}
	missing := capability.Missing(need, s.Caps())
	if len(missing) == 0 {
		return Result{}, false
	}
	r := newResult(c, s.Name)
	r.Expected = "a trace with " + capability.Join(need)
	r.Observed = "no " + capability.Join(missing)
	adapter := "ag-ui"
	if s.Source != nil {
		adapter = s.Source.Adapter
	}
	why := fmt.Sprintf("needs %s, which the %s trace does not provide", capability.Join(missing), adapter)
	if len(missing) == 1 && missing[0] == capability.Usage {
		// Usage is not the adapter's to provide: the agent, or the
		// recorded run, reports it or not (docs/cost.md).
		why = fmt.Sprintf("needs %s, but no turn of this %s trace reported token usage: the %s reported none", capability.Usage, adapter, reporter(s))
	}
	if c.MissingError {
		r.set(status.Error, "%s (on_missing_capability: error)", why)
	} else {
		r.set(status.Skip, "skipped: %s", why)
	}
	r.Finish() // no evidence: it rests on no event ([], as every result)
	return r, true
}

// reporter names who reports a trace's usage: the agent for a live or
// replayed run, the recorded run for an imported one.
func reporter(s trace.Scope) string {
	if s.Source != nil && s.Source.Mode == "import" {
		return "recorded run"
	}
	return "agent"
}
