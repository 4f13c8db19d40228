//go:build unix

package interop

import (
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
)

// brokenReason is what each of broken's tests and the variant itself must
// say: its server exited, and why (the script it names is missing).
var brokenReason = []string{"target.server exited before it was ready", "missing-server.mjs"}

// stepCostUSD is what one step of the scripted model costs at the suite's
// prices: 10 input tokens at $100 and 5 output at $200 per million.
const stepCostUSD = 10*100e-6 + 5*200e-6

// fisherBoth is the two-sided p of Fisher's exact test for 5/5 against
// 0/5: the two most extreme tables, each 1 in C(10,5) = 252.
const fisherBoth = 2.0 / 252

// checkVariantTests: every test appears once per variant, its id
// qualified and its variant set; a good variant's tests ran 5 times with
// the passes and usage of wantCells, broken's all errored with the
// server's reason.
func checkVariantTests(t *testing.T, r *report.Report, names []string) {
	t.Helper()
	if got, want := len(r.Tests), len(wantCells)*len(names); got != want {
		t.Errorf("%d tests, want %d (one per test and variant)", got, want)
	}
	for _, tr := range r.Tests {
		base, ok := strings.CutSuffix(tr.ID, "@"+tr.Variant)
		if !slices.Contains(names, tr.Variant) || !ok || report.VariantID(base, tr.Variant) != tr.ID || wantCells[base] == nil {
			t.Errorf("test %s of variant %q: want an id test@variant of a test of the suite and a variant of %v", tr.ID, tr.Variant, names)
			continue
		}
		if tr.Variant == "broken" {
			if tr.Status != status.Error || !containsAll(tr.Reason, brokenReason) {
				t.Errorf("%s: %s %q, want an error saying %q", tr.ID, tr.Status, tr.Reason, brokenReason)
			}
			continue
		}
		want := wantCells[base][tr.Variant]
		if tr.Status != want.status || strings.Contains(tr.Reason, "target.server") || tr.Runs != variantsPerRun || tr.PassedRuns != want.passed {
			t.Errorf("%s: %s %q, %d/%d runs passed; want %s, %d/%d", tr.ID, tr.Status, tr.Reason, tr.PassedRuns, tr.Runs, want.status, want.passed, variantsPerRun)
		}
		if pa := tr.PerAttempt; pa == nil || pa.MeanTokens == nil || *pa.MeanTokens != want.tokens {
			t.Errorf("%s: usage per attempt %+v, want a mean of %v tokens", tr.ID, pa, want.tokens)
		}
	}
}

// checkComparison checks the report's comparison of names and returns it
// (nil when there is none).
func checkComparison(t *testing.T, r *report.Report, names []string) *report.Variants {
	t.Helper()
	v := r.Variants
	if v == nil {
		t.Error("summary.json has no variants")
		return nil
	}
	if v.Significance != 0.05 {
		t.Errorf("significance %v, want 0.05", v.Significance)
	}
	var got []string
	for _, s := range v.Variants {
		got = append(got, s.Name)
		checkVariantSummary(t, s)
	}
	if !slices.Equal(got, names) {
		t.Errorf("variants %v, want %v", got, names)
	}
	var order []string // the suite's order: the first variant's tests'
	for _, tr := range r.Tests {
		if base, ok := strings.CutSuffix(tr.ID, "@"+names[0]); ok && tr.Variant == names[0] {
			order = append(order, base)
		}
	}
	var rows []string
	for _, row := range v.Rows {
		rows = append(rows, row.Test)
		checkRow(t, row, names)
	}
	if !slices.Equal(rows, order) {
		t.Errorf("rows %v, want the suite's tests %v", rows, order)
	}
	checkPairs(t, v, names)
	return v
}

func checkVariantSummary(t *testing.T, s report.VariantSummary) {
	t.Helper()
	wantTotals := map[string]report.Totals{
		"hasty":   {Total: 3, Passed: 2, Failed: 1},
		"careful": {Total: 3, Passed: 3},
		"broken":  {Total: 3, Errored: 3},
	}[s.Name]
	got := report.Totals{Total: s.Totals.Total, Passed: s.Totals.Passed, Failed: s.Totals.Failed, Errored: s.Totals.Errored}
	if got != wantTotals {
		t.Errorf("variant %s: totals %+v, want %+v", s.Name, got, wantTotals)
	}
	if s.Name == "broken" {
		if !containsAll(s.Error, brokenReason) || s.Usage != nil || s.MedianTurnMs != nil {
			t.Errorf("variant broken: error %q, usage %v, median turn %v; want the server's reason and nothing measured", s.Error, s.Usage, s.MedianTurnMs)
		}
		return
	}
	if s.Error != "" || s.Usage == nil || s.MedianTurnMs == nil {
		t.Errorf("variant %s: error %q, usage %v, median turn %v; want usage and latency from the streams", s.Name, s.Error, s.Usage, s.MedianTurnMs)
	}
}

// checkOverrides: each variant says what it changes of the server (its
// runs: may be listed too).
func checkOverrides(t *testing.T, v *report.Variants) {
	t.Helper()
	for _, s := range v.Variants {
		want := map[string][2]string{ // contains, does not contain
			"hasty":   {"server.env.MASTRA_BEHAVIOUR", "server.command"},
			"careful": {"", "server"},
			"broken":  {"server.command", "MASTRA_BEHAVIOUR"},
		}[s.Name]
		if !strings.Contains(s.Overrides, want[0]) || strings.Contains(s.Overrides, want[1]) {
			t.Errorf("variant %s: overrides %q, want %q and not %q", s.Name, s.Overrides, want[0], want[1])
		}
	}
}

// checkRow: one cell per variant in their order, each with the runs,
// passes, interval, usage and latency of its tests; only weather has a
// difference, hasty against careful, careful the better.
func checkRow(t *testing.T, row report.ComparisonRow, names []string) {
	t.Helper()
	if len(row.Cells) != len(names) {
		t.Errorf("row %s: %d cells, want %d", row.Test, len(row.Cells), len(names))
		return
	}
	for i, c := range row.Cells {
		if c.Variant != names[i] || c.ID != report.VariantID(row.Test, names[i]) {
			t.Errorf("row %s cell %d: variant %s id %s, want %s", row.Test, i, c.Variant, c.ID, report.VariantID(row.Test, names[i]))
			continue
		}
		if c.Variant == "broken" {
			if c.Status != string(status.Error) || c.Passed != 0 || c.Tokens != nil || c.CostUSD != nil || c.MedianTurnMs != nil {
				t.Errorf("%s: %+v, want an error with nothing measured", c.ID, c)
			}
			continue
		}
		checkCell(t, c, wantCells[row.Test][c.Variant])
	}
	var want []report.PairDifference
	if row.Test == "weather" && slices.Contains(names, "hasty") && slices.Contains(names, "careful") {
		want = []report.PairDifference{{A: "hasty", B: "careful", P: fisherBoth, Better: "careful"}}
	}
	got := row.Differences
	if len(got) != len(want) || (len(want) == 1 && (got[0].A != want[0].A || got[0].B != want[0].B ||
		got[0].Better != want[0].Better || math.Abs(got[0].P-fisherBoth) > 1e-9)) {
		t.Errorf("row %s: differences %+v, want %+v", row.Test, got, want)
	}
}

func checkCell(t *testing.T, c report.ComparisonCell, want wantCell) {
	t.Helper()
	rate := 100 * float64(want.passed) / variantsPerRun
	if c.Status != string(want.status) || c.Runs != variantsPerRun || c.Passed != want.passed || c.PassRate != rate {
		t.Errorf("%s: %s %d/%d (%v%%), want %s %d/%d (%v%%)", c.ID, c.Status, c.Passed, c.Runs, c.PassRate, want.status, want.passed, variantsPerRun, rate)
	}
	if !(c.Low >= 0 && c.Low <= rate && rate <= c.High && c.High <= 100 && c.High-c.Low > 10) {
		t.Errorf("%s: interval %v–%v around %v%% of 5 runs", c.ID, c.Low, c.High, rate)
	}
	wantCost := want.tokens / 15 * stepCostUSD
	if c.Tokens == nil || *c.Tokens != want.tokens || c.CostUSD == nil || math.Abs(*c.CostUSD-wantCost) > 1e-9 {
		t.Errorf("%s: tokens %v cost %v per attempt, want %v and $%v", c.ID, ptrString(c.Tokens), ptrString(c.CostUSD), want.tokens, wantCost)
	}
	if c.MedianTurnMs == nil || *c.MedianTurnMs < 0 {
		t.Errorf("%s: no median turn duration", c.ID)
	}
}

// checkPairs: one verdict per pair in the config's order; careful, against
// hasty, passes one more test (weather, significantly), costs 20% more
// (0.012 against 0.010 a run of the three tests) and is worse nowhere; no
// pair with broken, which ran nothing, marks a test.
func checkPairs(t *testing.T, v *report.Variants, names []string) {
	t.Helper()
	var got, want [][2]string
	for i := range names {
		for j := i + 1; j < len(names); j++ {
			want = append(want, [2]string{names[i], names[j]})
		}
	}
	for _, p := range v.Pairs {
		got = append(got, [2]string{p.A, p.B})
		if (p.A == "broken" || p.B == "broken") && (len(p.Better) > 0 || len(p.Worse) > 0) {
			t.Errorf("%s vs %s: better %v worse %v, want none: broken ran nothing", p.B, p.A, p.Better, p.Worse)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("pairs %v, want %v", got, want)
	}
	p := findPair(t, v, "hasty", "careful")
	if p == nil {
		return
	}
	if p.MorePassing != 1 || !slices.Equal(p.Better, []string{"weather"}) || len(p.Worse) != 0 {
		t.Errorf("careful vs hasty: %d more passing, better %v, worse %v; want 1, [weather], none", p.MorePassing, p.Better, p.Worse)
	}
	if p.CostChangePct == nil || math.Abs(*p.CostChangePct-20) > 1e-6 || p.LatencyChangePct == nil {
		t.Errorf("careful vs hasty: cost change %v%%, latency change %v%%; want +20%% and a latency", ptrString(p.CostChangePct), ptrString(p.LatencyChangePct))
	}
	for _, part := range []string{"careful passes 1 more test", "costs 20% more", "no test significantly worse"} {
		if !strings.Contains(p.Line, part) {
			t.Errorf("careful vs hasty: verdict %q does not say %q", p.Line, part)
		}
	}
	if !strings.HasPrefix(p.Line, "careful ") {
		t.Errorf("careful vs hasty: verdict %q does not speak for careful, the better", p.Line)
	}
}

// findPair returns the verdict of a against b.
func findPair(t *testing.T, v *report.Variants, a, b string) *report.PairVerdict {
	t.Helper()
	i := slices.IndexFunc(v.Pairs, func(p report.PairVerdict) bool { return p.A == a && p.B == b })
	if i < 0 {
		t.Errorf("no verdict of %s against %s", b, a)
		return nil
	}
	return &v.Pairs[i]
}

// checkMarkdown: the job summary holds the pair verdicts and the matrix:
// every variant, every test, the passes of the cells that differ.
func checkMarkdown(t *testing.T, path string, v *report.Variants) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read the markdown summary: %v", err)
	}
	md := string(data)
	want := []string{"5/5", "0/5"}
	for _, s := range v.Variants {
		want = append(want, s.Name)
	}
	for _, p := range v.Pairs {
		want = append(want, p.Line)
	}
	for _, row := range v.Rows {
		want = append(want, row.Name)
	}
	for _, w := range want {
		if !strings.Contains(md, w) {
			t.Errorf("the markdown summary does not show %q:\n%s", w, md)
		}
	}
}

func containsAll(s string, parts []string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

func ptrString[T any](p *T) any {
	if p == nil {
		return "none"
	}
	return *p
}
