package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/hooks"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/vars"
)

// runAfter runs the test's after hooks once the attempt has its verdict,
// each with the attempt's result as JSON on stdin, whatever that verdict
// (a cancelled run included: cleanup still runs, each hook within its own
// timeout). A hook that fails never passes unnoticed: it is reported as
// an error result, and it turns a passed attempt into an error (the agent's
// checks keep their results); a failed attempt stays failed.
func (e *engine) runAfter(ctx context.Context, t *spec.Test, vars *vars.Vars, r *Attempt) {
	ctx = context.WithoutCancel(ctx)
	stdin := attemptJSON(t, r, e.opts.Now())
	for i, h := range t.After {
		res := assertion.Result{ID: fmt.Sprintf("test.after[%d]", i), Level: LevelBuiltin, Kind: assertion.KindAfterHook, Scope: "test",
			Source: h.Pos, Severity: assertion.Critical, Status: status.Pass, EventRefs: []int64{}, Expected: "exits 0"}
		argv, re := hookArgv(h, vars)
		var err error
		if re != nil {
			err = re
		} else {
			err = hooks.RunAfter(ctx, e.hookCommand(h, argv, t.Path, stdin))
		}
		if err == nil {
			res.Observed, res.Message = "exit status 0", fmt.Sprintf("after[%d] ran", i)
			r.Results = append(r.Results, res)
			continue
		}
		res.Status, res.Observed = status.Error, "failed"
		res.Message = fmt.Sprintf("after[%d]: %v", i, err)
		if re != nil {
			res.Message = fmt.Sprintf("after[%d]: %s", i, re.Msg)
		}
		res.Finish()
		r.Results = append(r.Results, res)
		if r.Status == status.Pass {
			r.Status, r.Reason, r.ReasonPos = status.Error, res.Message, h.Pos
		}
	}
}

// attemptJSON is what an after hook reads on stdin: the test, the
// attempt's verdict and every assertion's result.
func attemptJSON(t *spec.Test, r *Attempt, now time.Time) []byte {
	type source struct {
		File string `json:"file"`
		Line int    `json:"line"`
		Col  int    `json:"col"`
	}
	type result struct {
		ID       string `json:"id"`
		Kind     string `json:"kind"`
		Scope    string `json:"scope"`
		Severity string `json:"severity"`
		Status   string `json:"status"`
		Message  string `json:"message"`
		Source   source `json:"source"`
	}
	type test struct {
		ID   string `json:"id"`
		Name string `json:"name"`
		File string `json:"file"`
		Line int    `json:"line"`
	}
	out := struct {
		Schema     string        `json:"schema"`
		Test       test          `json:"test"`
		Run        int           `json:"run"`
		Retry      int           `json:"retry"`
		Status     status.Status `json:"status"`
		Reason     string        `json:"reason,omitempty"`
		DurationMs int64         `json:"duration_ms"`
		Text       string        `json:"text"`
		Results    []result      `json:"assertions"`
	}{Schema: "ananke.attempt/v1", Test: test{t.ID, t.Name.Value, t.Path, t.Pos.Line}, Run: r.Run + 1, Retry: r.Retry,
		Status: r.Status, Reason: r.Reason, DurationMs: now.UnixMilli() - r.Start.UnixMilli(), Results: []result{}}
	if out.Status == "" {
		out.Status = status.Error
	}
	if r.Trace != nil {
		out.Text = r.Trace.TestScope().Text()
	}
	for _, res := range r.Results {
		out.Results = append(out.Results, result{ID: res.ID, Kind: string(res.Kind), Scope: res.Scope, Severity: string(res.Severity),
			Status: string(res.Status), Message: res.Message, Source: source{res.Source.File, res.Source.Line, res.Source.Col}})
	}
	b, _ := json.Marshal(out) // plain strings and numbers always encode
	return b
}
