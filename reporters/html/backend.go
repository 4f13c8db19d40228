package html

import (
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/reporters/internal/format"
)

// What Ananke served behind the agent (docs/backend.md), on the page: a
// call its doubles answered carries the words that mark it (Served) and
// whether the test gave it no answer; a turn lists the requests that went
// through its model gateway; the page lists the requests no test took.

// modelCall is one request to the model, in the words reports use.
type modelCall struct {
	Model         string `json:"model"`
	ResponseModel string `json:"response_model,omitempty"`
	Stream        bool   `json:"stream,omitempty"`
	Mode          string `json:"mode"`
	// Outcome is its status and finish reason, the fault Ananke injected
	// or its error ("429 fault 429 injected"); Tokens what it used
	// ("1,200 in / 80 out"; absent: not reported).
	Outcome string `json:"outcome"`
	Tokens  string `json:"tokens,omitempty"`
	// Failed: it was faulted or failed, and the page marks it.
	Failed     bool  `json:"failed,omitempty"`
	AtMs       int64 `json:"at_ms"`
	DurationMs int64 `json:"duration_ms"`
}

// modelCalls are a turn's requests to the model, from its summary in the
// report.
func modelCalls(rt *report.Turn) []modelCall {
	if rt == nil {
		return nil
	}
	var out []modelCall
	for i := range rt.ModelCalls {
		m := &rt.ModelCalls[i]
		out = append(out, modelCall{Model: m.Model, ResponseModel: m.ResponseModel, Stream: m.Stream, Mode: m.Mode,
			Outcome: format.ModelOutcome(m), Tokens: format.ModelTokens(m), Failed: m.Fault != "" || m.Error != "",
			AtMs: m.AtMs, DurationMs: m.DurationMs})
	}
	return out
}

// served sets what marks a call the doubles answered.
func served(c *call, rc *report.Call) {
	c.Served = format.Served(rc)
	c.Unanswered = rc.Served != nil && rc.Served.Unanswered
	c.Source = format.Source(rc)
}

// runWarnings are the run's warnings, as the page lists them.
func runWarnings(r *report.Report) []string {
	var out []string
	for _, w := range r.Warnings {
		out = append(out, w.Message)
	}
	return out
}
