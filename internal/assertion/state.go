package assertion

import (
	"bytes"
	"encoding/json"

	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// state checks the agent state after the scope (Scope.State) at the
// check's JSON Pointer. No state at all reads as a JSON null document, so
// the pointer "" finds null and every other pointer finds nothing. With
// exists: false the pointer must find nothing; otherwise it must find a
// value, which must pass each condition set: equals (want, compared as
// decoded JSON) and match (a regex over the value's text: strings as they
// are, other JSON compact).
func state(r *Result, c *StateCheck, want json.RawMessage, s trace.Scope) {
	vc := newValueCheck(want, c.Equals, c.Match, "")
	absent := c.Exists != nil && !*c.Exists
	subject := "state " + c.Pointer
	if c.Pointer == "" {
		subject = "the whole state"
	}
	r.Expected = expectState(subject, vc, absent)
	raw := s.State()
	ev := Evidence{Note: "state after " + s.Name, Text: "no state", EventRefs: stateRefs(s)}
	var doc any
	noState := len(bytes.TrimSpace(raw)) == 0
	if !noState {
		if err := json.Unmarshal(raw, &doc); err != nil {
			ev.Text = shorten(string(raw), 400)
			r.Evidence, r.Observed = []Evidence{ev}, "not JSON"
			r.set(status.Fail, "the state after %s is not JSON (%s), so %s cannot be checked", s.Name, oneLine(err.Error()), subject)
			return
		}
		ev.Text = shorten(compact(doc), 400)
	}
	r.Evidence = []Evidence{ev}
	v, _, err := c.Ref.Get(doc)
	found := err == nil
	r.Observed = "missing"
	if found {
		r.Observed = display(v)
	}
	switch {
	case absent && !found:
		r.set(status.Pass, "nothing at %s", subject)
	case absent:
		r.set(status.Fail, "%s is %s, expected nothing there", subject, display(v))
	case !found && noState:
		r.set(status.Fail, "%s is missing: the agent sent no state in %s", subject, s.Name)
	case !found:
		r.set(status.Fail, "%s is missing", subject)
	default:
		if why := vc.failure(v); why != "" {
			r.set(status.Fail, "%s is %s, %s", subject, display(v), why)
			return
		}
		r.set(status.Pass, "%s is %s", subject, display(v))
	}
}

func expectState(subject string, vc valueCheck, absent bool) string {
	if absent {
		return "nothing at " + subject
	}
	if d := vc.describe(); d != "" {
		return subject + " " + d
	}
	return subject + " present"
}
