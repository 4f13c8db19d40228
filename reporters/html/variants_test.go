package html_test

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/stability"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// variantRun is one test under one variant in variantsReport: its runs,
// how many passed, each run's turn duration and tokens in and out.
type variantRun struct {
	runs, passed int
	turnMs       int64
	in, out      int64
}

// The variants of variantsReport, in the config's order, and its tests
// with what each variant made of them: checkout passes under both
// working variants; refund passes 1 of 6 runs under baseline and 6 of 6
// under careful, a significant difference; search passes 4 of 6 under
// baseline (min_pass_rate 60%) and fails with 3 of 6 under careful, a
// difference within noise. The broken variant's agent did not start: its
// every test errored.
var (
	variantNames = []string{"baseline", "careful", "broken"}
	variantTests = []struct {
		id, name string
		runs     map[string]variantRun
	}{
		{"tests/checkout", "checkout declines the card", map[string]variantRun{
			"baseline": {6, 6, 1200, 2000, 100}, "careful": {6, 6, 1300, 1600, 90}}},
		{"tests/refund", "refund asks for the order", map[string]variantRun{
			"baseline": {6, 1, 900, 2400, 120}, "careful": {6, 6, 1100, 1800, 100}}},
		{"tests/search", "search finds shoes", map[string]variantRun{
			"baseline": {6, 4, 800, 3000, 90}, "careful": {6, 3, 950, 2200, 80}}},
	}
)

// brokenReason is why the broken variant's tests errored.
const brokenReason = "agent did not start: command `node agent.mjs` exited with status 1"

// variantsReport is a run of three tests against the variants baseline,
// careful and broken, merged as the CLI merges them, with the comparison
// a run computes: the cells are the tests' own figures, the p-values
// Fisher's exact test's (refund 1/6 against 6/6: 0.015).
func variantsReport() *report.Report {
	var parts []*report.Report
	for _, v := range variantNames {
		out := &engine.Outcome{Start: reporttest.Start, End: reporttest.Start.Add(40 * time.Second)}
		for _, vt := range variantTests {
			out.Tests = append(out.Tests, variantResult(vt.id, vt.name, v, vt.runs[v]))
		}
		r := report.Build(out, report.Meta{Version: "v1.2.3", Config: reporttest.Config()})
		for i := range r.Tests {
			r.Tests[i].Variant = v
		}
		parts = append(parts, r)
	}
	r, err := report.Merge(parts)
	if err != nil {
		panic(err)
	}
	r.Variants = variantsComparison(r)
	return r
}

// variantResult is test id under variant v: run.runs runs, the first
// run.passed of them passing, each one turn; without runs, one attempt
// that errored because the variant's agent did not start.
func variantResult(id, name, v string, run variantRun) *engine.TestResult {
	t := &spec.Test{Path: id + ".ananke.yaml", ID: report.VariantID(id, v), Name: vars.Name{Value: name}}
	start := reporttest.Start
	if run.runs == 0 {
		a := &engine.Attempt{Status: status.Error, Reason: brokenReason, Start: start, End: start.Add(20 * time.Millisecond)}
		return &engine.TestResult{Test: t, Status: status.Error, Reason: brokenReason, Policy: stability.Policy{Runs: 1, MinPassRate: 60},
			Verdict: stability.Policy{Runs: 1, MinPassRate: 60}.Judge([][]status.Status{{status.Error}}), Attempts: []*engine.Attempt{a}, Start: a.Start, End: a.End}
	}
	p := stability.Policy{Runs: run.runs, MinPassRate: 60}
	res := &engine.TestResult{Test: t, Policy: p, Start: start}
	var byRun [][]status.Status
	for i := range run.runs {
		st := status.Fail
		if i < run.passed {
			st = status.Pass
		}
		at := start.Add(time.Duration(i) * 2 * time.Second)
		base := at.UnixMilli()
		a := &engine.Attempt{Run: i, Status: st, Start: at, End: at.Add(time.Duration(run.turnMs) * time.Millisecond),
			Trace: &trace.Trace{TestStartMs: base, TestEndMs: base + run.turnMs, Turns: []trace.Turn{{Index: 0, Kind: "user", UserText: "go",
				StartMs: base, EndMs: base + run.turnMs, Texts: []string{"done"}, Usage: reporttest.Spent(reporttest.Usage("openai", "gpt-4o-mini", run.in, run.out))}}}}
		res.Attempts, res.End = append(res.Attempts, a), a.End
		byRun = append(byRun, []status.Status{st})
	}
	res.Verdict = p.Judge(byRun)
	res.Status, res.Reason = res.Verdict.Status, res.Verdict.Reason
	return res
}

// variantsComparison is the comparison of variantsReport's tests.
func variantsComparison(r *report.Report) *report.Variants {
	byID := map[string]*report.Test{}
	for i := range r.Tests {
		byID[r.Tests[i].ID] = &r.Tests[i]
	}
	median := func(ms int64) *int64 { return &ms }
	v := &report.Variants{Significance: 0.05}
	for _, name := range variantNames {
		s := report.VariantSummary{Name: name, Overrides: "server.env.MODEL_BEHAVIOUR"}
		for _, vt := range variantTests {
			t := byID[report.VariantID(vt.id, name)]
			s.Totals.Total++
			switch t.Status {
			case status.Pass:
				s.Totals.Passed++
			case status.Fail:
				s.Totals.Failed++
			case status.Error:
				s.Totals.Errored++
			}
			if t.Usage != nil {
				if s.Usage == nil {
					s.Usage = t.Usage.Clone()
				} else {
					s.Usage.Merge(t.Usage, 1)
				}
			}
		}
		s.Totals.PassRate = math.Round(float64(s.Totals.Passed)*1000/float64(s.Totals.Total)) / 10
		switch name {
		case "baseline":
			s.MedianTurnMs = median(900)
		case "careful":
			s.MedianTurnMs = median(1100)
		case "broken":
			s.Overrides, s.Error = "command", brokenReason
		}
		v.Variants = append(v.Variants, s)
	}
	for _, vt := range variantTests {
		row := report.ComparisonRow{Test: vt.id, Name: vt.name, File: vt.id + ".ananke.yaml", Line: 1, Differences: []report.PairDifference{}}
		for _, name := range variantNames {
			t := byID[report.VariantID(vt.id, name)]
			c := report.ComparisonCell{Variant: name, ID: t.ID, Status: string(t.Status), Runs: t.Runs, Passed: t.PassedRuns, PassRate: t.PassRate}
			if t.PassRateCI != nil {
				c.Low, c.High = t.PassRateCI.Lo, t.PassRateCI.Hi
			}
			if pa := t.PerAttempt; pa != nil {
				c.CostUSD, c.Tokens = pa.MeanCostUSD, pa.MeanTokens
			}
			if run := vt.runs[name]; run.runs > 0 {
				c.MedianTurnMs = median(run.turnMs)
			}
			row.Cells = append(row.Cells, c)
		}
		if vt.id == "tests/refund" {
			row.Differences = append(row.Differences, report.PairDifference{A: "baseline", B: "careful", P: 0.015151515151515152, Better: "careful"})
		}
		v.Rows = append(v.Rows, row)
	}
	cheaper, slower := -22.4, 22.2
	v.Pairs = []report.PairVerdict{
		{A: "baseline", B: "careful", MorePassing: 0, Better: []string{"tests/refund"}, Worse: []string{}, CostChangePct: &cheaper, LatencyChangePct: &slower,
			Line: "careful passes as many tests, costs 22% less, 22% slower, 1 test significantly better: refund asks for the order, no test significantly worse"},
		{A: "baseline", B: "broken", MorePassing: -2, Better: []string{}, Worse: []string{},
			Line: "broken did not run: " + brokenReason},
		{A: "careful", B: "broken", MorePassing: -2, Better: []string{}, Worse: []string{},
			Line: "broken did not run: " + brokenReason},
	}
	return v
}

// hostileVariants is variantsReport with markup in the refund test's
// name, the broken variant's error and a pair's line.
func hostileVariants() *report.Report {
	r := variantsReport()
	r.Variants.Rows[1].Name = hostile
	for i := range r.Tests {
		if strings.HasPrefix(r.Tests[i].ID, "tests/refund@") {
			r.Tests[i].Name = hostile
		}
	}
	r.Variants.Variants[2].Error = hostile
	r.Variants.Pairs[1].Line = hostile + "\u2028"
	return r
}

// variantsData is the part of the page's data variants tests look into.
type variantsData struct {
	Variants *struct {
		Variants []struct {
			Name         string `json:"name"`
			Usage        string `json:"usage"`
			MedianTurnMs *int64 `json:"median_turn_ms"`
			Error        string `json:"error"`
			Totals       struct {
				Passed, Failed, Errored int
			} `json:"totals"`
		} `json:"variants"`
		Rows []struct {
			Test        string  `json:"test"`
			Name        string  `json:"name"`
			Source      string  `json:"source"`
			Spread      float64 `json:"spread"`
			Differ      bool    `json:"differ"`
			Differences []struct {
				Better, Worse, Text string
			} `json:"differences"`
			Cells []struct {
				ID       string `json:"id"`
				Status   string `json:"status"`
				Rate     string `json:"rate"`
				Interval string `json:"interval"`
				Cost     string `json:"cost"`
				Better   bool   `json:"better"`
				Worse    bool   `json:"worse"`
			} `json:"cells"`
		} `json:"rows"`
		Pairs []struct {
			Line          string
			Better, Worse int
		} `json:"pairs"`
		Significance string `json:"significance"`
	} `json:"variants"`
	Tests []struct {
		ID      string `json:"id"`
		Variant string `json:"variant"`
	} `json:"tests"`
}

func decodeVariants(t *testing.T, page string) variantsData {
	t.Helper()
	var d variantsData
	if err := json.Unmarshal([]byte(data(t, page)), &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestVariantsData: the page holds the report's comparison — each
// variant's totals, usage in words, latency and error; each cell's status,
// pass rate, interval and cost, the significantly better and worse cells
// marked and the difference said with its p-value; the largest difference
// per row and whether its cells differ — and each test its variant; a
// report without variants has no variants field.
func TestVariantsData(t *testing.T) {
	page := render(t, variantsReport())
	d := decodeVariants(t, page)
	v := d.Variants
	if v == nil {
		t.Fatal("the page has no variants")
	}
	if len(v.Variants) != 3 || v.Significance != "0.05" {
		t.Fatalf("variants %+v, significance %q", v.Variants, v.Significance)
	}
	base, broken := v.Variants[0], v.Variants[2]
	if base.Name != "baseline" || base.Totals.Passed != 2 || base.Totals.Failed != 1 || base.Usage == "" || base.MedianTurnMs == nil || *base.MedianTurnMs != 900 {
		t.Errorf("baseline: %+v", base)
	}
	if broken.Error != brokenReason || broken.Totals.Errored != 3 || broken.Usage != "" {
		t.Errorf("broken: %+v", broken)
	}
	refund := v.Rows[1]
	if refund.Test != "tests/refund" || refund.Source != "tests/refund.ananke.yaml:1" || !refund.Differ {
		t.Errorf("the refund row: %+v", refund)
	}
	if c := refund.Cells[0]; c.ID != "tests/refund@baseline" || c.Status != "fail" || c.Rate != "16.7%" || c.Interval == "" || !c.Worse || c.Better || !strings.HasPrefix(c.Cost, "$") {
		t.Errorf("refund under baseline: %+v", c)
	}
	if c := refund.Cells[1]; c.Rate != "100%" || !c.Better || c.Worse {
		t.Errorf("refund under careful: %+v", c)
	}
	if c := refund.Cells[2]; c.Status != "error" || c.Cost != "" || c.Interval != "" || c.Better || c.Worse {
		t.Errorf("refund under broken: %+v", c)
	}
	if len(refund.Differences) != 1 || refund.Differences[0].Text != "careful passes more often than baseline (p = 0.015)" {
		t.Errorf("refund's differences: %+v", refund.Differences)
	}
	if got := refund.Spread; got < 83.3 || got > 83.4 {
		t.Errorf("refund's largest difference is %v points; want 83.3", got)
	}
	if checkout := v.Rows[0]; !checkout.Differ || checkout.Spread != 0 {
		t.Errorf("checkout (passing under both, errored under broken): differ %v, spread %v", checkout.Differ, checkout.Spread)
	}
	if p := v.Pairs[0]; p.Better != 1 || p.Worse != 0 || !strings.HasPrefix(p.Line, "careful passes as many tests") {
		t.Errorf("the first pair: %+v", p)
	}
	variants := map[string]string{}
	for _, tt := range d.Tests {
		variants[tt.ID] = tt.Variant
	}
	if len(variants) != 9 || variants["tests/search@careful"] != "careful" {
		t.Errorf("the tests' variants: %v", variants)
	}
	if p := render(t, reporttest.Report()); strings.Contains(p, `"variants"`) || strings.Contains(p, `"variant"`) {
		t.Error("a report without variants has variants in its page")
	}
}

// TestVariantsEscaping: markup in a test's name, a variant's error and a
// pair's line stays inside the data and decodes back unchanged.
func TestVariantsEscaping(t *testing.T) {
	page := render(t, hostileVariants())
	low := strings.ToLower(page)
	if n := strings.Count(low, "</script"); n != 2 {
		t.Errorf("%d </script in the page; want 2", n)
	}
	if n := strings.Count(low, "<script"); n != 2 {
		t.Errorf("%d <script in the page; want 2", n)
	}
	if strings.Contains(low, "<img") || strings.Contains(page, "<!--") || strings.ContainsAny(data(t, page), "\u2028\u2029") {
		t.Error("the page holds an img element, a comment opening or a raw line separator")
	}
	d := decodeVariants(t, page)
	if got := d.Variants.Pairs[1].Line; got != hostile+"\u2028" {
		t.Errorf("the pair's line decodes as %q", got)
	}
	if got := d.Variants.Rows[1].Name; got != hostile {
		t.Errorf("the refund test's name decodes as %q", got)
	}
	if got := d.Variants.Variants[2].Error; got != hostile {
		t.Errorf("the broken variant's error decodes as %q", got)
	}
}
