package calibrate

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/ananke/action/internal/judge"
	"github.com/ananke/action/internal/labels"
	"github.com/ananke/action/internal/model"
	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/rejudge"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/trace"
)

// Source is one run's report the labels were made on.
type Source struct {
	// Dir names the report in messages.
	Dir    string
	Report *report.Report
	// OpenTrace reads a trace file the report names (its trace_file,
	// relative to the report).
	OpenTrace func(name string) (*trace.Trace, error)
}

// LabelsFile is a labels file read, with the name it is known by.
type LabelsFile struct {
	Name string
	File *labels.File
}

// Input is what a calibration is made from.
type Input struct {
	Labels  []LabelsFile
	Sources []Source
	// Judge is the current judge, asked again over each labelled
	// verdict's trace.
	Judge rejudge.Judge
	// Level is the intervals' confidence level, a fraction in (0, 1).
	Level float64
}

// Result is how the current judge agrees with the labels.
type Result struct {
	// Model and PromptHash are the current judge's identity.
	Model, PromptHash string
	// Criteria are the labelled criteria, by name.
	Criteria []CriterionResult
	// Overall is the agreement over every criterion's labels.
	Overall Agreement
	// Skipped are the labels that could not be compared, each with why.
	Skipped []Skipped
	// Others are the judge identities the labels were made on that are
	// not the current one ("m0 with prompt sha256:…"), with how many
	// labels each: still truth, since a label says what the person
	// found, whatever the judge said.
	Others []Other
	// Asked counts the judge assertions asked again; Usage is what that
	// took.
	Asked int
	Usage model.Usage
}

// CriterionResult is one criterion's agreement.
type CriterionResult struct {
	Criterion     string
	Confusion     Confusion
	Agreement     Agreement
	Disagreements []Disagreement
}

// Disagreement is a labelled verdict the current judge answers other than
// the person.
type Disagreement struct {
	File  string
	Label labels.Label
	// Verdict and Reasoning are the current judge's.
	Verdict, Reasoning string
}

// Skipped is a label that could not be compared.
type Skipped struct {
	File   string
	Label  labels.Label
	Reason string
}

// Other is a judge identity labels were made on.
type Other struct {
	Model, PromptHash string
	Labels            int
}

// group is the labels of one judge assertion of one attempt.
type group struct {
	src    int
	test   string
	at     int
	id     string
	labels []placed
}

type placed struct {
	file  string
	label labels.Label
}

// Run asks the current judge again about each labelled judge assertion,
// once, over the trace of its attempt, and compares its verdict on each
// labelled criterion (met: true) with the label's answer (Label.Met).
// Labels whose test, attempt, assertion or criterion the report lacks,
// and those the judge gave no verdict about now, are Skipped with why.
// It fails when a labels file matches no report.
func Run(ctx context.Context, in Input) (*Result, error) {
	res := &Result{Model: judge.ModelName(in.Judge.Model), PromptHash: judge.PromptHash(in.Judge.Prompt)}
	groups, err := res.group(in)
	if err != nil {
		return nil, err
	}
	by := map[string]*CriterionResult{}
	for _, g := range groups {
		res.judge(ctx, in, g, by)
	}
	var all Confusion
	for _, name := range slices.Sorted(maps.Keys(by)) {
		c := by[name]
		c.Agreement = c.Confusion.Agreement(in.Level)
		all = all.Plus(c.Confusion)
		res.Criteria = append(res.Criteria, *c)
	}
	res.Overall = all.Agreement(in.Level)
	return res, nil
}

// group sorts the labels by attempt and judge assertion, in the files'
// order, each file's labels on the report of its run.
func (res *Result) group(in Input) ([]*group, error) {
	var groups []*group
	index := map[string]*group{}
	seen := map[string]bool{}
	others := map[[2]string]int{}
	for _, lf := range in.Labels {
		src, err := sourceOf(lf, in.Sources)
		if err != nil {
			return nil, err
		}
		for _, l := range lf.File.Labels {
			key := fmt.Sprint(src, "\x00", l.Key())
			if seen[key] {
				res.Skipped = append(res.Skipped, Skipped{File: lf.Name, Label: l, Reason: "labelled before, in this or an earlier file: the first label counts"})
				continue
			}
			seen[key] = true
			if l.JudgeModel != res.Model || l.PromptHash != res.PromptHash {
				others[[2]string{l.JudgeModel, l.PromptHash}]++
			}
			gk := fmt.Sprint(src, "\x00", l.Test, "\x00", l.Attempt, "\x00", l.Assertion)
			g, ok := index[gk]
			if !ok {
				g = &group{src: src, test: l.Test, at: l.Attempt, id: l.Assertion}
				index[gk] = g
				groups = append(groups, g)
			}
			g.labels = append(g.labels, placed{lf.Name, l})
		}
	}
	for _, id := range slices.SortedFunc(maps.Keys(others), func(a, b [2]string) int {
		return strings.Compare(a[0]+"\x00"+a[1], b[0]+"\x00"+b[1])
	}) {
		res.Others = append(res.Others, Other{Model: id[0], PromptHash: id[1], Labels: others[id]})
	}
	return groups, nil
}

// sourceOf is the report a labels file was made on: the one of the run
// it names, or the only one given.
func sourceOf(lf LabelsFile, sources []Source) (int, error) {
	if len(sources) == 0 {
		return 0, fmt.Errorf("%s: no report to read the labelled verdicts' traces from", lf.Name)
	}
	if lf.File.Run == "" {
		if len(sources) == 1 {
			return 0, nil
		}
		return 0, fmt.Errorf("%s names no run, and %d reports are given: give the one its labels were made on", lf.Name, len(sources))
	}
	run, err := time.Parse(time.RFC3339Nano, lf.File.Run)
	if err != nil {
		return 0, fmt.Errorf("%s: run %q is not a time as summary.json gives it: %w", lf.Name, lf.File.Run, err)
	}
	var have []string
	for i, s := range sources {
		if s.Report.StartedAt.Equal(run) {
			return i, nil
		}
		have = append(have, fmt.Sprintf("%s is the run of %s", s.Dir, s.Report.StartedAt.UTC().Format(time.RFC3339Nano)))
	}
	return 0, fmt.Errorf("%s was made on the run of %s, and no report given is that run (%s): give its report directory, since a label is about its run's transcript",
		lf.Name, lf.File.Run, strings.Join(have, "; "))
}

// judge asks about one group's assertion and counts its labels.
func (res *Result) judge(ctx context.Context, in Input, g *group, by map[string]*CriterionResult) {
	skip := func(why string) {
		for _, p := range g.labels {
			res.Skipped = append(res.Skipped, Skipped{File: p.file, Label: p.label, Reason: why})
		}
	}
	src := in.Sources[g.src]
	a, at, why := find(src.Report, g.test, g.at, g.id)
	if why != "" {
		skip(why + " in " + src.Dir)
		return
	}
	c, ok := rejudge.Check(a)
	if !ok {
		skip(fmt.Sprintf("%s of test %s is not a judge that names its criteria", g.id, g.test))
		return
	}
	tr, err := src.OpenTrace(at.TraceFile)
	if err != nil {
		skip(fmt.Sprintf("the trace of test %s, %s: %v", g.test, at.Label(), err))
		return
	}
	s, err := rejudge.Scope(tr, a.Scope)
	if err != nil {
		skip(fmt.Sprintf("test %s, %s: %v", g.test, at.Label(), err))
		return
	}
	criteria := c.Judge().Criteria
	var labelled []placed
	for _, p := range g.labels {
		if !slices.Contains(criteria, p.label.Criterion) {
			res.Skipped = append(res.Skipped, Skipped{File: p.file, Label: p.label, Reason: fmt.Sprintf("judge %s of test %s has no criterion %q", g.id, g.test, p.label.Criterion)})
			continue
		}
		labelled = append(labelled, p)
	}
	if len(labelled) == 0 {
		return
	}
	r, usage := in.Judge.Ask(ctx, c, s)
	res.Asked++
	res.Usage.Add(usage)
	if r.Judge == nil {
		g.labels = labelled
		skip(r.Message)
		return
	}
	for _, p := range labelled {
		var v, why string
		for _, cv := range r.Judge.Criteria {
			if cv.Criterion == p.label.Criterion {
				v, why = cv.Verdict, cv.Reasoning
			}
		}
		cr := by[p.label.Criterion]
		if cr == nil {
			cr = &CriterionResult{Criterion: p.label.Criterion}
			by[p.label.Criterion] = cr
		}
		met, human := v == judge.True, p.label.Met()
		cr.Confusion.Add(met, human)
		if met != human {
			cr.Disagreements = append(cr.Disagreements, Disagreement{File: p.file, Label: p.label, Verdict: v, Reasoning: why})
		}
	}
}

// find is the judge assertion id of attempt k (0: the test ran once) of
// test id, and its attempt; why says what the report lacks. An attempt
// other than the shown one keeps only its failures: a judge that passed
// there is read as the shown attempt has it (the test's criteria),
// asked over that attempt's own trace.
func find(r *report.Report, id string, k int, assertionID string) (report.Assertion, *report.Attempt, string) {
	i := slices.IndexFunc(r.Tests, func(t report.Test) bool { return t.ID == id })
	if i < 0 {
		return report.Assertion{}, nil, fmt.Sprintf("no test %s", id)
	}
	t := &r.Tests[i]
	if len(t.Attempts) == 0 {
		return report.Assertion{}, nil, fmt.Sprintf("test %s never ran", id)
	}
	ai := t.Shown - 1
	if k > 0 {
		if k > len(t.Attempts) {
			return report.Assertion{}, nil, fmt.Sprintf("test %s has %s, not an attempt %d", id, plural.Count(len(t.Attempts), "attempt"), k)
		}
		ai = k - 1
	}
	if ai < 0 || ai >= len(t.Attempts) {
		return report.Assertion{}, nil, fmt.Sprintf("test %s shows no attempt", id)
	}
	at := &t.Attempts[ai]
	byID := func(as []report.Assertion) (report.Assertion, bool) {
		j := slices.IndexFunc(as, func(a report.Assertion) bool { return a.ID == assertionID })
		if j < 0 {
			return report.Assertion{}, false
		}
		return as[j], true
	}
	if ai != t.Shown-1 {
		if a, ok := byID(at.Failed); ok {
			return a, at, ""
		}
	}
	if a, ok := byID(t.Assertions); ok {
		return a, at, ""
	}
	return report.Assertion{}, nil, fmt.Sprintf("test %s has no assertion %s", id, assertionID)
}

// Calibrations are the result's calibrations of each criterion, for the
// calibration file: made at madeAt from the labels files named, with
// intervals at level (a fraction).
func (res *Result) Calibrations(madeAt time.Time, files []string, level float64) []Criterion {
	out := make([]Criterion, 0, len(res.Criteria))
	for _, c := range res.Criteria {
		out = append(out, NewCriterion(c.Criterion, c.Confusion, level, madeAt, files))
	}
	return out
}
