package calibrate

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ananke/action/internal/judge"
	"github.com/ananke/action/internal/labels"
	"github.com/ananke/action/internal/model"
	"github.com/ananke/action/internal/rejudge"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// replyJudge finds criterion c met when the agent's reply contains the
// word verdicts[c] names, and counts the questions.
type replyJudge struct {
	words map[string]string
	asked int
}

func (f *replyJudge) Name() string { return "m" }

func (f *replyJudge) Complete(_ context.Context, req model.Request) (model.Reply, error) {
	f.asked++
	q := req.Messages[len(req.Messages)-1].Content
	out := map[string]any{}
	for _, line := range strings.Split(q, "\n") {
		k, c, ok := strings.Cut(strings.TrimPrefix(line, "- "), ": ")
		if !ok || !strings.HasPrefix(line, "- c") {
			continue
		}
		v := "false"
		if strings.Contains(q, "AGENT: "+f.words[c]) {
			v = "true"
		}
		out[k] = map[string]string{"verdict": v, "reasoning": "because"}
	}
	b, _ := json.Marshal(map[string]any{"verdicts": out})
	return model.Reply{Content: string(b)}, nil
}

var started = time.Date(2026, 11, 28, 8, 0, 0, 0, time.UTC)

// labelledRun is a report of n tests, test i's agent replying "please"
// when i is even, else "now"; each has a judge of criteria polite and
// brief on turn[0].
func labelledRun(n int) (*report.Report, map[string]*trace.Trace) {
	r := &report.Report{Schema: report.Schema, StartedAt: started}
	traces := map[string]*trace.Trace{}
	for i := range n {
		reply := "now"
		if i%2 == 0 {
			reply = "please"
		}
		id := fmt.Sprintf("t%d", i)
		file := "tests/" + id + ".trace.jsonl"
		traces[file] = &trace.Trace{Turns: []trace.Turn{{Index: 0, UserText: "hi", Texts: []string{reply}}}}
		a := report.Assertion{ID: "turn[0].judge", Kind: "judge", Scope: "turn[0]", Severity: "critical", Status: status.Pass,
			Judge: &report.Judge{Model: "m", PromptHash: judge.PromptHash(""), Criteria: []report.JudgeCriterion{{Criterion: "polite", Verdict: "true"}, {Criterion: "brief", Verdict: "true"}}}}
		r.Tests = append(r.Tests, report.Test{ID: id, Status: status.Pass, Assertions: []report.Assertion{a}, Shown: 1,
			Attempts: []report.Attempt{{Run: 1, Status: status.Pass, TraceFile: file}}})
	}
	return r, traces
}

func source(r *report.Report, traces map[string]*trace.Trace) Source {
	return Source{Dir: "report", Report: r, OpenTrace: func(name string) (*trace.Trace, error) {
		if tr, ok := traces[name]; ok {
			return tr, nil
		}
		return nil, fmt.Errorf("no trace %s", name)
	}}
}

// label is a person's label of test i's criterion c: the judge said
// verdict, the person finds the criterion met or not.
func label(i int, c, verdict string, met bool) labels.Label {
	l := labels.Label{Test: fmt.Sprintf("t%d", i), Assertion: "turn[0].judge", Scope: "turn[0]", Criterion: c, JudgeModel: "m", PromptHash: judge.PromptHash(""), Verdict: verdict, Label: labels.Agree}
	if (verdict == "true") != met {
		l.Label = labels.Disagree
	}
	return l
}

// TestRun: the judge is asked once per labelled assertion; polite, whose
// word the judge looks for as the people do, agrees on every label;
// brief, judged by a word no reply has while people found half the
// replies brief, disagrees with half; kappa and accuracy follow.
func TestRun(t *testing.T) {
	r, traces := labelledRun(12)
	f := &labels.File{Schema: labels.Schema, Run: started.Format(time.RFC3339Nano)}
	for i := range 12 {
		f.Labels = append(f.Labels, label(i, "polite", "true", i%2 == 0), label(i, "brief", "true", i%2 == 1))
	}
	j := &replyJudge{words: map[string]string{"polite": "please", "brief": "tl;dr"}}
	res, err := Run(context.Background(), Input{Labels: []LabelsFile{{Name: "labels.json", File: f}}, Sources: []Source{source(r, traces)},
		Judge: rejudge.Judge{Model: j}, Level: 0.95})
	if err != nil {
		t.Fatal(err)
	}
	if j.asked != 12 || res.Asked != 12 || res.Model != "m" || res.PromptHash != judge.PromptHash("") || len(res.Skipped) != 0 || len(res.Others) != 0 {
		t.Fatalf("asked %d, result %+v", j.asked, res)
	}
	if len(res.Criteria) != 2 || res.Criteria[0].Criterion != "brief" || res.Criteria[1].Criterion != "polite" {
		t.Fatalf("criteria %+v", res.Criteria)
	}
	b, p := res.Criteria[0], res.Criteria[1]
	if p.Confusion != (Confusion{6, 0, 0, 6}) || p.Agreement.Kappa.Value != 1 || p.Agreement.Accuracy != 1 || len(p.Disagreements) != 0 {
		t.Errorf("polite: %+v", p)
	}
	if b.Confusion != (Confusion{0, 0, 6, 6}) || b.Agreement.Kappa.Value != 0 || b.Agreement.Accuracy != 0.5 || len(b.Disagreements) != 6 ||
		b.Disagreements[0].Label.Test != "t1" || b.Disagreements[0].Verdict != "false" || b.Disagreements[0].File != "labels.json" {
		t.Errorf("brief: %+v", b)
	}
	if res.Overall.N != 24 || res.Overall.Agreements != 18 {
		t.Errorf("overall %+v", res.Overall)
	}
	cs := res.Calibrations(madeAt, []string{"labels.json"}, 0.95)
	if len(cs) != 2 || cs[1].Criterion != "polite" || *cs[1].Kappa != 1 || cs[0].N != 12 || cs[1].Labels[0] != "labels.json" {
		t.Errorf("calibrations %+v", cs)
	}
}

// TestRunSkips: labels the report lacks, or the judge now gives no
// verdict about, are skipped with why; a label given twice counts once;
// labels made on another judge are still compared, and named.
func TestRunSkips(t *testing.T) {
	r, traces := labelledRun(3)
	r.Tests[2].Attempts[0].TraceFile = "gone"
	other := label(0, "polite", "false", true)
	other.JudgeModel, other.PromptHash = "m0", "sha256:0000000000000000"
	gone := label(9, "polite", "true", true)
	wrongAttempt := label(1, "polite", "true", true)
	wrongAttempt.Attempt = 3
	noCrit := label(1, "kind", "true", true)
	noAssertion := label(1, "polite", "true", true)
	noAssertion.Assertion = "turn[1].judge"
	f := &labels.File{Schema: labels.Schema, Labels: []labels.Label{other, label(0, "polite", "true", true), gone, wrongAttempt, noCrit, noAssertion, label(2, "polite", "true", true)}}
	j := &replyJudge{words: map[string]string{"polite": "please"}}
	res, err := Run(context.Background(), Input{Labels: []LabelsFile{{Name: "l.json", File: f}}, Sources: []Source{source(r, traces)}, Judge: rejudge.Judge{Model: j}, Level: 0.95})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"labelled before, in this or an earlier file: the first label counts",
		"no test t9 in report",
		"test t1 has 1 attempt, not an attempt 3 in report",
		`judge turn[0].judge of test t1 has no criterion "kind"`,
		"test t1 has no assertion turn[1].judge in report",
		"the trace of test t2, run 1: no trace gone",
	}
	if len(res.Skipped) != len(want) {
		t.Fatalf("skipped %+v", res.Skipped)
	}
	for i, s := range res.Skipped {
		if s.Reason != want[i] {
			t.Errorf("skipped[%d] %q, want %q", i, s.Reason, want[i])
		}
	}
	if len(res.Others) != 1 || res.Others[0] != (Other{"m0", "sha256:0000000000000000", 1}) {
		t.Errorf("others %+v", res.Others)
	}
	if len(res.Criteria) != 1 || res.Criteria[0].Confusion != (Confusion{JudgeMetHumanMet: 1}) || j.asked != 1 {
		t.Errorf("criteria %+v, asked %d", res.Criteria, j.asked)
	}
}

// TestRunSources: a labels file is compared over the report of the run
// it names; one no report is of, or none named among several, fails.
func TestRunSources(t *testing.T) {
	r1, tr1 := labelledRun(1)
	r2, tr2 := labelledRun(1)
	r2.StartedAt = started.Add(time.Hour)
	tr2["tests/t0.trace.jsonl"].Turns[0].Texts = []string{"now"}
	j := &replyJudge{words: map[string]string{"polite": "please"}}
	in := func(run string) Input {
		f := &labels.File{Schema: labels.Schema, Run: run, Labels: []labels.Label{label(0, "polite", "true", true)}}
		return Input{Labels: []LabelsFile{{Name: "l.json", File: f}}, Sources: []Source{source(r1, tr1), source(r2, tr2)}, Judge: rejudge.Judge{Model: j}, Level: 0.95}
	}
	res, err := Run(context.Background(), in(started.Add(time.Hour).Format(time.RFC3339Nano)))
	if err != nil || res.Criteria[0].Confusion != (Confusion{JudgeNotHumanMet: 1}) {
		t.Errorf("the second run's labels: %v %+v", err, res)
	}
	for run, want := range map[string]string{
		"":                     "l.json names no run, and 2 reports are given",
		"2020-01-01T00:00:00Z": "l.json was made on the run of 2020-01-01T00:00:00Z, and no report given is that run (report is the run of 2026-11-28T08:00:00Z; report is the run of 2026-11-28T09:00:00Z)",
		"yesterday":            `run "yesterday" is not a time`,
	} {
		if _, err := Run(context.Background(), in(run)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("run %q: %v, want %q", run, err, want)
		}
	}
}
