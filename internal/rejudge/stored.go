// Package rejudge asks the current judges again about runs already made:
// a judge assertion of a report, over the trace the report keeps, with no
// agent contacted. `ananke rejudge` re-scores a report with it and
// `ananke judge calibrate` measures judges against human labels with it
// (docs/judges.md).
package rejudge

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/judge"
	"github.com/ananke/action/internal/model"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/trace"
)

// Judge is the current judge: the model and the system prompt ("" for
// Ananke's own) judges are asked with.
type Judge struct {
	Model  model.Completer
	Prompt string
}

// Scope is the scope of a stored trace a result was checked over: "test",
// or "turn[N]" for the trace's turn N.
func Scope(tr *trace.Trace, name string) (trace.Scope, error) {
	if name == "test" {
		return tr.TestScope(), nil
	}
	if s, ok := strings.CutPrefix(name, "turn["); ok {
		if n, err := strconv.Atoi(strings.TrimSuffix(s, "]")); err == nil && strings.HasSuffix(s, "]") {
			for i := range tr.Turns {
				if tr.Turns[i].Index == n {
					return tr.TurnScope(i), nil
				}
			}
			return trace.Scope{}, fmt.Errorf("scope %s: the trace has %d turns", name, len(tr.Turns))
		}
	}
	return trace.Scope{}, fmt.Errorf("scope %q is neither test nor turn[N]", name)
}

// Check is the judge check a report's judge assertion was made by, with
// the criteria it answered (bound as they were then); ok is false when a
// is not a judge assertion that gave verdicts.
func Check(a report.Assertion) (c assertion.Check, ok bool) {
	if assertion.Kind(a.Kind) != assertion.KindJudge || a.Judge == nil || len(a.Judge.Criteria) == 0 {
		return assertion.Check{}, false
	}
	sev := assertion.Severity(a.Severity)
	jc := &assertion.JudgeCheck{Judge: &assertion.Judge{Severity: sev}}
	for _, cr := range a.Judge.Criteria {
		jc.Criteria = append(jc.Criteria, cr.Criterion)
	}
	return assertion.Check{ID: a.ID, Level: assertion.Level(a.Level), Kind: assertion.KindJudge, Severity: sev, Payload: jc}, true
}

// Ask asks j about check c over scope s, as a run would have.
func (j Judge) Ask(ctx context.Context, c assertion.Check, s trace.Scope) (assertion.Result, model.Usage) {
	return judge.Evaluate(ctx, j.Model, j.Prompt, c, s)
}
