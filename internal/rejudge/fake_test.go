package rejudge

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/judge"
	"github.com/ananke/action/internal/model"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// fakeJudge answers each criterion with the verdict verdicts gives it
// (keyed by criterion, or by the reply's text and criterion "text|c"),
// "true" when it gives none; it counts the questions.
type fakeJudge struct {
	mu       sync.Mutex
	verdicts map[string]string
	asked    int
}

func (f *fakeJudge) Name() string { return "m" }

func (f *fakeJudge) Complete(_ context.Context, req model.Request) (model.Reply, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked++
	q := req.Messages[len(req.Messages)-1].Content
	reply := ""
	for _, line := range strings.Split(q, "\n") {
		if s, ok := strings.CutPrefix(line, "AGENT: "); ok {
			reply = s
		}
	}
	out := map[string]any{}
	for _, line := range strings.Split(q, "\n") {
		k, c, ok := strings.Cut(strings.TrimPrefix(line, "- "), ": ")
		if !ok || !strings.HasPrefix(line, "- c") {
			continue
		}
		v, ok := f.verdicts[reply+"|"+c]
		if !ok {
			if v, ok = f.verdicts[c]; !ok {
				v = "true"
			}
		}
		out[k] = map[string]string{"verdict": v, "reasoning": "judged " + v}
	}
	b, _ := json.Marshal(map[string]any{"verdicts": out})
	return model.Reply{Content: string(b)}, nil
}

// oneTurn is a trace of turns, the agent replying text to each.
func turns(texts ...string) *trace.Trace {
	tr := &trace.Trace{}
	for i, s := range texts {
		tr.Turns = append(tr.Turns, trace.Turn{Index: i, Kind: "message", UserText: "hi", Texts: []string{s}, ToolCalls: []trace.ToolCall{}})
	}
	return tr
}

// judged is a judge assertion as a run reports it: verdicts per
// criterion ("c=true"), its status from them and its severity.
func judged(scope, severity string, verdicts ...string) report.Assertion {
	a := report.Assertion{ID: scope + ".judge", Level: "turn", Kind: "judge", Scope: scope, Severity: severity,
		Source: report.Location{File: "t.ananke.yaml", Line: 3, Col: 5}, Status: status.Pass, Evidence: []report.Evidence{}, EventRefs: report.Refs{},
		Judge: &report.Judge{Model: "m0", PromptHash: judge.PromptHash(""), Criteria: []report.JudgeCriterion{}}}
	if scope == "test" {
		a.Level = "test"
	}
	var crits []string
	for _, v := range verdicts {
		c, verdict, _ := strings.Cut(v, "=")
		crits = append(crits, c)
		a.Judge.Criteria = append(a.Judge.Criteria, report.JudgeCriterion{Criterion: c, Verdict: verdict, Reasoning: "then"})
		if verdict != "true" {
			a.Status = status.Fail
		}
	}
	a.Expected = judge.Describe(assertion.Check{Payload: &assertion.JudgeCheck{Criteria: crits}})
	if a.Status == status.Fail && severity == report.SeverityWarning {
		a.Status = status.Warn
	}
	a.Message = fmt.Sprintf("as judged then (%s)", a.Status)
	return a
}

// test is a test run once whose one attempt has the assertions given,
// statuses as the engine gives them.
func test(id string, tr *trace.Trace, as ...report.Assertion) report.Test {
	at := report.Attempt{Run: 1, Status: verdictOf(as), Trace: tr, Failed: []report.Assertion{}, TraceFile: "tests/" + id + ".trace.jsonl"}
	for _, a := range as {
		if a.Status == status.Fail {
			at.Failed = append(at.Failed, a)
		}
	}
	st := at.Status
	t := report.Test{ID: id, Name: id, Status: st, Runs: 1, MinPassRate: 100, Assertions: as, Attempts: []report.Attempt{at}, Shown: 1,
		Turns: []report.Turn{}, Warnings: []report.Warning{}, FailureCategories: []string{}}
	if st == status.Pass {
		t.PassedRuns, t.PassRate = 1, 100
	}
	return t
}

func run(tests ...report.Test) *report.Report {
	r := &report.Report{Schema: report.Schema, Confidence: 95, Tests: tests, Hooks: []report.Hook{}}
	r.Recount()
	return r
}
