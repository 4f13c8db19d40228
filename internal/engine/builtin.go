package engine

import (
	"fmt"
	"strings"

	"github.com/ananke/action/internal/agui"
	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/spec"
)

// LevelBuiltin marks the checks that are always on (design §4.4).
const LevelBuiltin assertion.Level = "builtin"

// Kinds of built-in checks.
const (
	KindRunError    assertion.Kind = "run_error"
	KindProtocol    assertion.Kind = "protocol"
	KindClientTools assertion.Kind = "client_tools"
)

// builtin makes a built-in check's result for turn i, declared (for the
// report's source link) at the turn itself.
func builtin(i int, turn spec.Turn, kind assertion.Kind) assertion.Result {
	scope := fmt.Sprintf("turn[%d]", i)
	return assertion.Result{ID: scope + "." + string(kind), Level: LevelBuiltin, Kind: kind, Scope: scope, Source: turn.Pos, Status: assertion.Pass,
		Severity: assertion.Critical, EventRefs: []int64{}}
}

// runErrorResult fails when the agent sent RUN_ERROR during the turn.
func runErrorResult(i int, turn spec.Turn, errs []runError) assertion.Result {
	return errorResult(i, turn, errs, aguiErrors)
}

// errorWords say what an agent's error is called in a protocol.
type errorWords struct {
	none, noneMessage string // expected and observed when there was none; the passing message
	name              string // one error, as counted and in evidence notes
	message           string // the failing message's head
	code              string // how a code is appended: " (code %s)"
}

var (
	// aguiErrors: an AG-UI agent's RUN_ERROR events.
	aguiErrors = errorWords{none: "no RUN_ERROR", noneMessage: "the agent sent no RUN_ERROR", name: "RUN_ERROR",
		message: "the agent sent RUN_ERROR: ", code: " (code %s)"}
	// sessionErrors: the errors an A2A session reports (a failed,
	// rejected or canceled task).
	sessionErrors = errorWords{none: "no error from the agent", noneMessage: "the agent reported no error", name: "error",
		message: "the agent reported an error: ", code: " (%s)"}
	// mcpErrors: an MCP server's. It reports none beside its answer: a
	// failed call is the call's result (is_error checks it), and a server
	// that does not answer errors the turn, so the check says it answered.
	mcpErrors = errorWords{none: "an answer from the server", noneMessage: "the server answered", name: "error",
		message: "the server reported an error: ", code: " (%s)"}
)

// errorResult fails when the agent reported errors during the turn.
func errorResult(i int, turn spec.Turn, errs []runError, w errorWords) assertion.Result {
	r := builtin(i, turn, KindRunError)
	r.Expected = w.none
	if len(errs) == 0 {
		r.Observed, r.Message = w.none, w.noneMessage
		return r
	}
	var parts []string
	for _, e := range errs {
		s := e.message
		if e.code != "" {
			s += fmt.Sprintf(w.code, e.code)
		}
		parts = append(parts, s)
		r.Evidence = append(r.Evidence, assertion.Evidence{Note: fmt.Sprintf("%s at event #%d", w.name, e.seq), Text: s, EventRefs: eventRef(e.seq)})
	}
	r.Status = assertion.Fail
	r.Finish()
	r.Observed = fmt.Sprintf("%d %s", len(errs), w.name)
	r.Message = w.message + strings.Join(parts, "; ")
	return r
}

type runError struct {
	seq           int64
	message, code string
}

// protocolResult fails on every protocol error of the turn's runs.
func protocolResult(i int, turn spec.Turn, problems []problem) assertion.Result {
	r := builtin(i, turn, KindProtocol)
	r.Expected = "a stream that follows the AG-UI protocol"
	if len(problems) == 0 {
		r.Observed, r.Message = "no protocol errors", "the event stream follows the protocol"
		return r
	}
	for _, p := range problems {
		r.Evidence = append(r.Evidence, assertion.Evidence{Note: p.String(), EventRefs: eventRef(p.seq)})
	}
	r.Status = assertion.Fail
	r.Finish()
	r.Observed = fmt.Sprintf("%d protocol error(s)", len(problems))
	r.Message = problems[0].String()
	if n := len(problems) - 1; n > 0 {
		r.Message += fmt.Sprintf(" (and %d more)", n)
	}
	return r
}

// problem is a client problem placed in the test's event sequence.
type problem struct {
	seq int64
	agui.Problem
}

func (p problem) String() string {
	if p.seq == 0 {
		return fmt.Sprintf("%s [%s]", p.Message, p.Rule)
	}
	return fmt.Sprintf("event #%d: %s [%s]", p.seq, p.Message, p.Rule)
}

// clientToolsResult fails when a client tool call could not be answered.
func clientToolsResult(i int, turn spec.Turn, failure string) assertion.Result {
	r := builtin(i, turn, KindClientTools)
	r.Expected = "every pending tool call answered"
	if failure == "" {
		r.Observed, r.Message = "all answered", "every client tool call was answered"
		return r
	}
	r.Status, r.Observed, r.Message = assertion.Fail, failure, failure
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
