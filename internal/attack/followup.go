package attack

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ananke/action/internal/attack/corpus"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// Followup is the engine's follow-up wave (engine.Options.Followup): of
// the planned runs, those whose test passed without attack, given the
// suite's results. A test that did not pass joins NotAttacked; a tool
// attack whose goal tool the test's own passing attempt called is
// dropped, reported as a skipped run. Report reads the results in the
// order it gives.
func (p *Plan) Followup(done []*engine.TestResult) []*spec.Test {
	p.base = make(map[string]*engine.TestResult, len(done))
	for _, r := range done {
		if r != nil && r.Test != nil {
			p.base[r.Test.ID] = r
		}
	}
	p.followed, p.dropped, p.byID = nil, nil, map[string]*Run{}
	p.NotAttacked = slices.Clone(p.planned)
	var out []*spec.Test
	for i, r := range p.Runs {
		res := p.base[r.Base.ID]
		if i == 0 || p.Runs[i-1].Base != r.Base { // the test's first run
			if why := notPassed(res); why != "" {
				p.NotAttacked = append(p.NotAttacked, notAttacked(r.Base, why))
			}
		}
		if notPassed(res) != "" {
			continue
		}
		if r.Attack.Goal == corpus.GoalTool {
			if shown := res.Shown(); shown != nil && calls(shown.Trace, r.Tool) != nil {
				p.dropped = append(p.dropped, droppedRun{r, "the test itself calls " + r.Tool})
				continue
			}
		}
		p.followed = append(p.followed, r)
		p.byID[r.ID] = r
		out = append(out, r.Test)
	}
	return out
}

// notPassed says why a test's result keeps it from attack ("": it
// passed).
func notPassed(res *engine.TestResult) string {
	switch {
	case res == nil:
		return "did not run without attack"
	case res.Status != status.Pass:
		return fmt.Sprintf("did not pass without attack (%s)", statusWord(res.Status))
	}
	return ""
}

// statusWord is a test's status as a past participle: "failed".
func statusWord(s status.Status) string {
	switch s {
	case status.Fail:
		return "failed"
	case status.Error:
		return "errored"
	case status.Skipped:
		return "skipped"
	}
	return string(s)
}

// calls is the first call of tool in tr: by its name, by a name an MCP
// client prefixed ("inventory_delete_order"), or as the double it was
// served by; nil when there is none.
func calls(tr *trace.Trace, tool string) *trace.ToolCall {
	if tr == nil || tool == "" {
		return nil
	}
	for i := range tr.Turns {
		for j := range tr.Turns[i].ToolCalls {
			if c := &tr.Turns[i].ToolCalls[j]; isCall(c, tool) {
				return c
			}
		}
	}
	return nil
}

func isCall(c *trace.ToolCall, tool string) bool {
	return c.Name == tool || strings.HasSuffix(c.Name, "_"+tool) || (c.Served != nil && c.Served.Tool == tool)
}

// Judged is res judged as the attack run it is a result of (Judge, with
// the plan's options); nil when res is not the result of a run Followup
// gave: for a live line as each attack run finishes.
func (p *Plan) Judged(res *engine.TestResult) *report.AttackRun {
	if p == nil || res == nil || res.Test == nil {
		return nil
	}
	run, ok := p.byID[res.Test.ID]
	if !ok {
		return nil
	}
	ar := Judge(run, res, p.opts)
	return &ar
}
