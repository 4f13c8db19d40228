package report

import (
	"slices"

	"github.com/ananke/action/internal/backend"
	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/trace"
)

// What Ananke served behind the agent (docs/backend.md) in the report:
// the calls its tool doubles answered are among a turn's tool calls,
// each with its Served record; the requests that went through its model
// gateway are the turn's ModelCalls; the requests no test took are the
// run's warnings.

// ModelCall is one request the agent made to its model through Ananke's
// model gateway. Times are milliseconds since the test's first turn
// started.
type ModelCall struct {
	// Model is the model the request asked for; ResponseModel the one the
	// response named, when it differs.
	Model         string `json:"model"`
	ResponseModel string `json:"response_model,omitempty"`
	Stream        bool   `json:"stream,omitempty"`
	// Messages is how many messages the request carried, Tools the tools
	// it offered.
	Messages int      `json:"messages"`
	Tools    []string `json:"tools,omitempty"`
	// Usage is what the response reported (absent: nothing).
	Usage *cost.Usage `json:"usage,omitempty"`
	// Status is the HTTP status the agent got; Fault the fault Ananke
	// injected instead of the model's answer; Error what went wrong (an
	// upstream failure, a replay without a recording).
	Status int    `json:"status"`
	Fault  string `json:"fault,omitempty"`
	Error  string `json:"error,omitempty"`
	// Note is what happened that the agent is judged on (an HTTP error
	// the upstream or the recording answered, a stream the agent
	// closed): no error of the run.
	Note string `json:"note,omitempty"`
	// Mode is how the gateway answered: record, replay or passthrough.
	Mode         string   `json:"mode"`
	FinishReason string   `json:"finish_reason,omitempty"`
	ToolCalls    []string `json:"tool_calls,omitempty"`
	AtMs         int64    `json:"at_ms"`
	DurationMs   int64    `json:"duration_ms"`
}

// RunWarning is something about the run as a whole that failed no test:
// a request to Ananke's backend that no test attempt took (rule
// "backend").
type RunWarning struct {
	Rule    string `json:"rule"`
	Message string `json:"message"`
}

// modelCalls copies a turn's model calls, their errors masked.
func (b *builder) modelCalls(ms []trace.ModelCall, base int64) []ModelCall {
	if len(ms) == 0 {
		return nil
	}
	out := make([]ModelCall, len(ms))
	for i, m := range ms {
		out[i] = ModelCall{Model: m.Model, ResponseModel: m.ResponseModel, Stream: m.Stream, Messages: m.Messages,
			Tools: slices.Clone(m.Tools), Usage: cloneUsage(m.Usage), Status: m.Status, Fault: m.Fault, Error: b.red.String(m.Error), Note: b.red.String(m.Note),
			Mode: m.Mode, FinishReason: m.FinishReason, ToolCalls: slices.Clone(m.ToolCalls),
			AtMs: m.StartedMs - base, DurationMs: max(m.EndedMs-m.StartedMs, 0)}
		if out[i].ResponseModel == m.Model {
			out[i].ResponseModel = ""
		}
	}
	return out
}

func cloneUsage(u *cost.Usage) *cost.Usage {
	if u == nil {
		return nil
	}
	c := *u
	if u.CostUSD != nil {
		v := *u.CostUSD
		c.CostUSD = &v
	}
	return &c
}

// maskModelCalls masks the errors of a trace's model calls, in a copy.
func (b *builder) maskModelCalls(ms []trace.ModelCall) []trace.ModelCall {
	if len(ms) == 0 {
		return ms
	}
	out := slices.Clone(ms)
	for i := range out {
		out[i].Error = b.red.String(out[i].Error)
	}
	return out
}

// orphans are the run's warnings for the requests to the backend no
// attempt took.
func (b *builder) orphans(os []backend.Orphan) []RunWarning {
	var out []RunWarning
	for _, o := range os {
		out = append(out, RunWarning{Rule: "backend",
			Message: b.red.String(o.What + " was attributed to no test: " + o.Why)})
	}
	return out
}
