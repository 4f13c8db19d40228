package reporttest

import (
	"time"

	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/stability"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/variants"
)

// VariantNames are the variants of the variants fixture, in the config's
// order: baseline, careful (another model behaviour: slower, cheaper, and
// failing the search test far more often) and broken (an agent that did
// not start).
var VariantNames = []string{"baseline", "careful", "broken"}

// BrokenReason is why every test of the broken variant errored.
const BrokenReason = "agent did not start: exit status 1: MODEL_BEHAVIOUR=broken is not a behaviour"

// variantRuns are the fixture's tests under baseline and careful: each
// run's outcome, its tokens in and out (gpt-4o-mini) and its turn's
// duration.
var variantRuns = []struct {
	id, title   string
	minPassRate float64
	runs        map[string][]bool
	tokens      map[string][2]int64
	turnMs      map[string]int64
}{
	{"tests/search", "search finds shoes", 80,
		map[string][]bool{"baseline": repeat(10, 10), "careful": repeat(2, 10)},
		map[string][2]int64{"baseline": {3000, 100}, "careful": {2200, 80}},
		map[string]int64{"baseline": 300, "careful": 340}},
	{"tests/refund", "refund an order", 70,
		map[string][]bool{"baseline": repeat(9, 10), "careful": repeat(8, 10)},
		map[string][2]int64{"baseline": {4000, 150}, "careful": {3100, 120}},
		map[string]int64{"baseline": 500, "careful": 560}},
	{"tests/greet", "greets the user", 100,
		map[string][]bool{"baseline": repeat(3, 3), "careful": repeat(3, 3)},
		map[string][2]int64{"baseline": {800, 20}, "careful": {700, 20}},
		map[string]int64{"baseline": 200, "careful": 220}},
}

// repeat is n runs of which the first passed pass.
func repeat(passed, n int) []bool {
	out := make([]bool, n)
	for i := range passed {
		out[i] = true
	}
	return out
}

// VariantsReport is a run of three tests against the three variants of
// VariantNames, built as a run with variants builds it: a report per
// variant through report.Build, its tests' ids qualified by the variant
// (report.VariantID), merged with report.Merge and compared with
// variants.Compare. Under careful the search test passes 2 of 10 runs
// against baseline's 10 of 10 (a significant difference), the refund test
// 8 of 10 against 9 of 10 (within noise); the greet test passes every run
// of both; every test of broken errored with BrokenReason.
func VariantsReport() *report.Report {
	var parts []*report.Report
	overrides := map[string]string{"careful": "server.env.MODEL_BEHAVIOUR, gateway.model", "broken": "server.env.MODEL_BEHAVIOUR"}
	for _, v := range VariantNames {
		out := &engine.Outcome{Start: Start, End: ms(20000)}
		for _, x := range variantRuns {
			t := &spec.Test{Path: x.id + ".ananke.yaml", ID: report.VariantID(x.id, v), Name: name(x.title)}
			if v == "broken" {
				a := &engine.Attempt{Status: status.Error, Start: ms(0), End: ms(12), Reason: BrokenReason}
				out.Tests = append(out.Tests, once(t, a))
				continue
			}
			out.Tests = append(out.Tests, variantTest(t, x.minPassRate, x.runs[v], x.tokens[v], x.turnMs[v]))
		}
		r := report.Build(out, report.Meta{Version: "v1.2.3", Config: Config(), Parallel: 2})
		for i := range r.Tests {
			r.Tests[i].Variant = v
		}
		parts = append(parts, r)
	}
	m, err := report.Merge(parts)
	if err != nil {
		panic(err) // the fixture's ids are distinct
	}
	m.Variants = &report.Variants{}
	for _, v := range VariantNames {
		m.Variants.Variants = append(m.Variants.Variants, report.VariantSummary{Name: v, Overrides: overrides[v]})
	}
	m.Variants = variants.Compare(m, VariantNames, variants.DefaultSignificance)
	return m
}

// variantTest is a test of the variants fixture: runs searching or not,
// each using tokens and taking turnMs, judged at minPassRate.
func variantTest(t *spec.Test, minPassRate float64, runs []bool, tokens [2]int64, turnMs int64) *engine.TestResult {
	base := Start.UnixMilli()
	var attempts []*engine.Attempt
	for run, ok := range runs {
		a := searchAttempt(base, run, ok)
		a.Results[0].Source.File = t.Path
		tu := &a.Trace.Turns[0]
		tu.EndMs = tu.StartMs + turnMs
		a.Trace.TestEndMs = tu.EndMs
		a.End = time.UnixMilli(tu.EndMs).UTC()
		tu.Usage = Spent(Usage("openai", "gpt-4o-mini", tokens[0], tokens[1]))
		attempts = append(attempts, a)
	}
	p := stability.Policy{Runs: len(runs), MinPassRate: minPassRate}
	r := judged(t, p, status.Pass, "", attempts...)
	r.Status, r.Reason = r.Verdict.Status, r.Verdict.Reason
	return r
}
