package assertion

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/trace"
)

// Needs returns the capabilities a check of kind k needs of its trace:
// tool checks (tools.*, result.*, tools_list.*) need the tool trace, timing checks streaming timing, state
// checks the agent state, memory and scheduler checks their events. Text,
// judge and script checks read the assistant's text, which every source
// has.
func Needs(k spec.Kind) []string {
	switch {
	case strings.HasPrefix(string(k), "tools."), strings.HasPrefix(string(k), "result."),
		strings.HasPrefix(string(k), "tools_list."), k == spec.KindGrounded:
		return []string{capability.ToolTrace}
	case strings.HasPrefix(string(k), "timing."):
		return []string{capability.StreamingTiming}
	case k == spec.KindState:
		return []string{capability.State}
	case strings.HasPrefix(string(k), "memory."):
		return []string{capability.MemoryEvents}
	case strings.HasPrefix(string(k), "scheduler."):
		return []string{capability.SchedulerContext}
	}
	return nil
}

// Gate splits checks into those the scope's trace can answer and the
// results of those it cannot: a check that needs a capability its source
// lacks is skipped with the reason, or is an error when its test says
// on_missing_capability: error.
func Gate(checks []spec.Check, s trace.Scope) (run []spec.Check, gated []Result) {
	for _, c := range checks {
		if r, ok := gate(c, s); ok {
			gated = append(gated, r)
			continue
		}
		run = append(run, c)
	}
	return run, gated
}

func gate(c spec.Check, s trace.Scope) (Result, bool) {
	need := Needs(c.Kind)
	for _, x := range c.Requires {
		if !slices.Contains(need, x) { // requires may repeat the kind's own
			need = append(need, x)
		}
	}
	missing := capability.Missing(need, s.Source.Caps())
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
	if c.MissingError {
		r.set(Error, "%s (on_missing_capability: error)", why)
	} else {
		r.set(Skip, "skipped: %s", why)
	}
	r.Finish() // no evidence: it rests on no event ([], as every result)
	return r, true
}
