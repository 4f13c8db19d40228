package engine

import (
	"fmt"
	"strings"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/target"
)

// LevelBuiltin marks the checks that are always on (docs/files.md).
const LevelBuiltin assertion.Level = "builtin"

// builtin makes a built-in check's result for turn i, declared (for the
// report's source link) at the turn itself.
func builtin(i int, turn spec.Turn, kind assertion.Kind) assertion.Result {
	scope := fmt.Sprintf("turn[%d]", i)
	return assertion.Result{ID: scope + "." + string(kind), Level: LevelBuiltin, Kind: kind, Scope: scope, Source: turn.Pos, Status: status.Pass,
		Severity: assertion.Critical, EventRefs: []int64{}}
}

// errorResult fails when the agent reported errors during the turn.
func errorResult(i int, turn spec.Turn, errs []runError, w Words) assertion.Result {
	r := builtin(i, turn, assertion.KindRunError)
	r.Expected = w.None
	if len(errs) == 0 {
		r.Observed, r.Message = w.None, w.NoneMessage
		return r
	}
	var parts []string
	for _, e := range errs {
		s := e.message
		if e.code != "" {
			s += fmt.Sprintf(w.Code, e.code)
		}
		parts = append(parts, s)
		r.Evidence = append(r.Evidence, assertion.Evidence{Note: fmt.Sprintf("%s at event #%d", w.Name, e.seq), Text: s, EventRefs: eventRef(e.seq)})
	}
	r.Status = status.Fail
	r.Finish()
	r.Observed = fmt.Sprintf("%d %s", len(errs), w.Name)
	r.Message = w.Message + strings.Join(parts, "; ")
	return r
}

type runError struct {
	seq           int64
	message, code string
}

// protocolResult fails on every protocol error of the turn's runs.
func protocolResult(i int, turn spec.Turn, problems []target.Problem, w Words) assertion.Result {
	r := builtin(i, turn, assertion.KindProtocol)
	r.Expected = w.Conformance
	if len(problems) == 0 {
		r.Observed, r.Message = "no protocol errors", "the event stream follows the protocol"
		return r
	}
	for _, p := range problems {
		r.Evidence = append(r.Evidence, assertion.Evidence{Note: problemString(p), EventRefs: eventRef(p.Seq)})
	}
	r.Status = status.Fail
	r.Finish()
	r.Observed = fmt.Sprintf("%d protocol error(s)", len(problems))
	r.Message = problemString(problems[0])
	if n := len(problems) - 1; n > 0 {
		r.Message += fmt.Sprintf(" (and %d more)", n)
	}
	return r
}

// problemString says what a protocol problem is and where.
func problemString(p target.Problem) string {
	if p.Seq == 0 {
		return fmt.Sprintf("%s [%s]", p.Message, p.Rule)
	}
	return fmt.Sprintf("event #%d: %s [%s]", p.Seq, p.Message, p.Rule)
}

// clientToolsResult fails when a client tool call could not be answered.
func clientToolsResult(i int, turn spec.Turn, failure string) assertion.Result {
	r := builtin(i, turn, assertion.KindClientTools)
	r.Expected = "every pending tool call answered"
	if failure == "" {
		r.Observed, r.Message = "all answered", "every client tool call was answered"
		return r
	}
	r.Status, r.Observed, r.Message = status.Fail, failure, failure
	return r
}

// eventRef is the event references of a problem at seq: none for the
// response as a whole (seq 0).
func eventRef(seq int64) []int64 {
	if seq <= 0 {
		return nil
	}
	return []int64{seq}
}
