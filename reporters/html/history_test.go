package html_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ananke/action/internal/history"
	"github.com/ananke/action/internal/history/historytest"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/html"
)

// historyReport is a pull request's report read against historytest's 20
// runs of main: search fails as it does one run in five there (known
// flaky), checkout fails though it only wobbled there, weather fails as it
// has since run #39, slow passes (its tokens known, its cost not), md is
// skipped and a new test fails that main never ran.
func historyReport() *report.Report {
	f := func(v float64) *float64 { return &v }
	test := func(id string, st status.Status, ms int64) report.Test {
		t := report.Test{ID: id, Name: id, File: id + ".ananke.yaml", Line: 1, Status: st, DurationMs: ms, Runs: 1, TraceFile: id + ".trace.json"}
		if st == status.Pass {
			t.PassedRuns = 1
		}
		if st == status.Skipped {
			t.Runs, t.DurationMs = 0, 0
		}
		return t
	}
	r := &report.Report{Status: status.Fail, StartedAt: time.Date(2026, 3, 21, 9, 0, 0, 0, time.UTC), Tests: []report.Test{
		test("tests/search", status.Fail, 640), test("tests/checkout", status.Fail, 1250), test("tests/weather", status.Fail, 950),
		test("tests/slow", status.Pass, 14100), test("tests/md", status.Skipped, 0), test("tests/added", status.Fail, 80)}}
	r.Tests[0].PerAttempt = &report.AttemptUsage{Attempts: 1, MeanTokens: f(1290), MeanCostUSD: f(0.014123)}
	r.Tests[3].PerAttempt = &report.AttemptUsage{Attempts: 1, MeanTokens: f(5321.4)}
	history.Attach(r, historytest.History(historytest.Main(true)), "main", 0.05)
	return r
}

// trendData is a test's trend as the page holds it.
type trendData struct {
	Seq     string     `json:"seq"`
	Ms      []*int64   `json:"ms"`
	CostUSD []*float64 `json:"cost_usd"`
	Tokens  []*float64 `json:"tokens"`
	Facts   string     `json:"facts"`
	Blame   string     `json:"blame"`
	Says    string     `json:"says"`
	New     bool       `json:"new"`
}

func trends(t *testing.T, page string) (string, map[string]*trendData) {
	t.Helper()
	var p struct {
		History string `json:"history"`
		Tests   []struct {
			ID    string     `json:"id"`
			Trend *trendData `json:"trend"`
		} `json:"tests"`
	}
	if err := json.Unmarshal([]byte(data(t, page)), &p); err != nil {
		t.Fatal(err)
	}
	out := map[string]*trendData{}
	for _, tt := range p.Tests {
		out[tt.ID] = tt.Trend
	}
	return p.History, out
}

// known is a list's values, "-" where unknown.
func known[T int64 | float64](vs []*T) string {
	var b strings.Builder
	for i, v := range vs {
		if i > 0 {
			b.WriteByte(' ')
		}
		if v == nil {
			b.WriteByte('-')
		} else {
			fmt.Fprint(&b, *v)
		}
	}
	return b.String()
}

// TestTrend: each test's trend is its 20 runs of main and this run, last;
// durations are null where a run did not judge the test, cost (or tokens,
// when no cost is known) null where unknown — never 0 — and rounded (cost
// to three significant digits, tokens whole); the verdict on a failed test
// is the history's, in its words.
func TestTrend(t *testing.T) {
	hist, got := trends(t, render(t, historyReport()))
	if hist != "20 runs of main" {
		t.Errorf("the run's history: %q", hist)
	}
	for _, tc := range []struct {
		id, seq, facts, says string
		ms, use              string // the last three of each
		cost                 bool
	}{
		{"tests/search", "ppfpppfppppfpppppfppf", "failed 4 of 20 runs on main · flake rate 20%", "known flaky on main (fails 4 of the last 20)", "606 623 640", "0.0138 0.0139 0.0141", true},
		{"tests/checkout", "ppPppppppppppPppppppf", "passed 20 of 20 runs on main · flake rate 10%", "known flaky on main (flaky in 2 of the last 20, never failed)", "1206 1223 1250", "", false},
		{"tests/weather", strings.Repeat("p", 17) + "ffff", "failed 3 of 20 runs on main", "already failing on main since run #39", "906 923 950", "", false},
		{"tests/slow", strings.Repeat("p", 21), "passed 20 of 20 runs on main", "", "13800 13900 14100", "5180 5190 5321", false},
		{"tests/md", "ppppfppppppppppppppps", "failed 1 of 20 runs on main · flake rate 5%", "", "2106 2123 -", "", false},
		{"tests/added", strings.Repeat(".", 20) + "f", "not run on main in these 20 runs", "new failure (not run on main in its history)", "- - 80", "", false},
	} {
		tr := got[tc.id]
		if tr == nil {
			t.Errorf("%s: no trend", tc.id)
			continue
		}
		if tr.Seq != tc.seq || tr.Facts != tc.facts || tr.Says != tc.says || len(tr.Ms) != 21 {
			t.Errorf("%s: seq %q facts %q says %q, %d durations; want %q, %q, %q, 21", tc.id, tr.Seq, tr.Facts, tr.Says, len(tr.Ms), tc.seq, tc.facts, tc.says)
		}
		if ms := known(tr.Ms[18:]); ms != tc.ms {
			t.Errorf("%s: the last durations are %s; want %s", tc.id, ms, tc.ms)
		}
		use := tr.Tokens
		if tc.cost {
			use = tr.CostUSD
		}
		if tc.use == "" && (tr.CostUSD != nil || tr.Tokens != nil) {
			t.Errorf("%s: usage without any known: cost %s, tokens %s", tc.id, known(tr.CostUSD), known(tr.Tokens))
		}
		if tc.use != "" && (len(use) != 21 || known(use[18:]) != tc.use || (tc.cost && tr.Tokens != nil)) {
			t.Errorf("%s: usage %s (tokens %v); want the last %s", tc.id, known(use), tr.Tokens, tc.use)
		}
	}
	// The md test was skipped in this run: no duration, and none of the
	// history's runs that did not judge a test has one.
	for id, tr := range got {
		for i, c := range tr.Seq {
			if judged := strings.ContainsRune("pPfFeE", c); judged != (tr.Ms[i] != nil) {
				t.Errorf("%s: run %d (%c) has duration %v", id, i, c, tr.Ms[i])
			}
		}
	}
}

// TestWithoutHistory: a report without a history — or with an empty one
// attached — gives the page it gave before history existed, to the byte.
func TestWithoutHistory(t *testing.T) {
	r := fixture()
	before := render(t, r)
	history.Attach(r, &history.History{}, "main", 0.05)
	if after := render(t, r); after != before {
		t.Error("attaching an empty history changed the page")
	}
	for _, key := range []string{`"trend"`, `"history":"`} {
		if strings.Contains(data(t, before), key) {
			t.Errorf("a page without a history holds %s", key)
		}
	}
}

// syntheticHistory is 20 runs of main for the synthetic suite: every test
// in each, failing one run in seven, with a duration and a cost each run.
func syntheticHistory(r *report.Report) *history.History {
	var tests []historytest.Test
	for i, rt := range r.Tests {
		pattern := []byte(strings.Repeat("p", 20))
		pattern[i%7] = 'f'
		tests = append(tests, historytest.Test{ID: rt.ID, Name: rt.Name, File: rt.File, Pattern: string(pattern),
			Duration: func(k int) int64 { return 1700 + int64(37*k+i%100) },
			CostUSD:  func(k int) *float64 { v := float64(310+k*7+i%50) / 300000; return &v }})
	}
	return historytest.History(historytest.Runs(time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC), 100, tests))
}

// budgetHistoryBytes bounds the bytes a 20-run history adds to the page per
// test: the trend's few numbers (docs/reports.md). Measured 2026-11-26 on
// the 500-test synthetic suite, every test in every run with a duration and
// a cost: 386 (of about 13.6 kB a test).
const budgetHistoryBytes = 460

// TestBudgetHistoryBytes: a 20-run history adds a few hundred bytes per
// test to the page, within its budget.
func TestBudgetHistoryBytes(t *testing.T) {
	r := synthetic(500)
	var without, with countingWriter
	if err := html.Write(&without, r); err != nil {
		t.Fatal(err)
	}
	history.Attach(r, syntheticHistory(r), "main", 0.05)
	if err := html.Write(&with, r); err != nil {
		t.Fatal(err)
	}
	per := float64(with.n-without.n) / float64(len(r.Tests))
	t.Logf("a 20-run history adds %.0f bytes per test to a %.1f MB page (budget %d)", per, float64(without.n)/1e6, budgetHistoryBytes)
	if per > budgetHistoryBytes || per <= 0 {
		t.Errorf("a 20-run history adds %.0f bytes per test, outside its budget of %d", per, budgetHistoryBytes)
	}
	if !slices.ContainsFunc(r.Tests, func(rt report.Test) bool { return rt.History != nil && rt.History.Says != "" }) {
		t.Error("no failed test of the synthetic suite has a verdict")
	}
}
