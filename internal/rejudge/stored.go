// Package rejudge asks the current judges again about runs already made:
// a judge assertion of a report, over the trace the report keeps, with no
// agent contacted. `ananke rejudge` re-scores a report with it and
// `ananke judge calibrate` measures judges against human labels with it
// (docs/judges.md).
package rejudge

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/judge"
	"github.com/ananke/action/internal/model"
	"github.com/ananke/action/internal/normalized"
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
// or "turn[N]" for the trace's turn N. A trace read back from a trace
// file keeps an AG-UI turn's assistant text as events only: the scope's
// turns have it again, as a run's judge saw it (the trace itself is not
// changed).
func Scope(tr *trace.Trace, name string) (trace.Scope, error) {
	c := *tr
	c.Turns = slices.Clone(tr.Turns)
	for i := range c.Turns {
		c.Turns[i].Texts = normalized.Texts(&c.Turns[i])
	}
	if name == "test" {
		return c.TestScope(), nil
	}
	if s, ok := strings.CutPrefix(name, "turn["); ok {
		if n, err := strconv.Atoi(strings.TrimSuffix(s, "]")); err == nil && strings.HasSuffix(s, "]") {
			for i := range c.Turns {
				if c.Turns[i].Index == n {
					return c.TurnScope(i), nil
				}
			}
			return trace.Scope{}, fmt.Errorf("scope %s: the trace has %d turns", name, len(c.Turns))
		}
	}
	return trace.Scope{}, fmt.Errorf("scope %q is neither test nor turn[N]", name)
}

// Check is the judge check a report's judge assertion was made by, with
// the criteria it asked about (bound as they were then) and the severity
// it was written with — critical for a judge the gate reported as a
// warning. The criteria are the verdicts' or, for a judge that gave no
// verdict, those its expectation names. ok is false when a is not a judge
// assertion, or names no criteria.
func Check(a report.Assertion) (c assertion.Check, ok bool) {
	if assertion.Kind(a.Kind) != assertion.KindJudge {
		return assertion.Check{}, false
	}
	var criteria []string
	if a.Judge != nil {
		for _, cr := range a.Judge.Criteria {
			criteria = append(criteria, cr.Criterion)
		}
	} else {
		criteria = expected(a.Expected)
	}
	if len(criteria) == 0 {
		return assertion.Check{}, false
	}
	sev := Severity(a)
	jc := &assertion.JudgeCheck{Judge: &assertion.Judge{Severity: sev}, Criteria: criteria}
	return assertion.Check{ID: a.ID, Level: assertion.Level(a.Level), Kind: assertion.KindJudge, Severity: sev, Payload: jc}, true
}

// Severity is the severity a judge assertion was written with: its
// report's, unless the gate reported a critical judge as a warning.
func Severity(a report.Assertion) assertion.Severity {
	if (a.Judge != nil && a.Judge.Demoted != "") || strings.Contains(a.Message, demotedMark) {
		return assertion.Critical
	}
	if a.Severity == "" {
		return assertion.Critical
	}
	return assertion.Severity(a.Severity)
}

// demotedMark starts what the engine adds to the message of a judge the
// gate reported as a warning.
const demotedMark = " (reported as a warning: "

// expected reads the criteria back from a judge's expectation,
// judge.Describe's "the judge finds every criterion true: "a", "b"";
// nil when it is not one.
func expected(s string) []string {
	rest, ok := strings.CutPrefix(s, expectedPrefix)
	if !ok {
		return nil
	}
	var out []string
	for rest != "" {
		q, err := strconv.QuotedPrefix(rest)
		if err != nil {
			return nil
		}
		c, _ := strconv.Unquote(q)
		out = append(out, c)
		rest = rest[len(q):]
		if rest != "" {
			if rest, ok = strings.CutPrefix(rest, ", "); !ok {
				return nil
			}
		}
	}
	return out
}

// Ask asks j about check c over scope s, as a run would have.
func (j Judge) Ask(ctx context.Context, c assertion.Check, s trace.Scope) (assertion.Result, model.Usage) {
	return judge.Evaluate(ctx, j.Model, j.Prompt, c, s)
}

// expectedPrefix is what a judge's expectation says before its criteria.
var expectedPrefix = judge.Describe(assertion.Check{Payload: &assertion.JudgeCheck{}})
