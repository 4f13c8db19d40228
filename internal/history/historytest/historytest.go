// Package historytest makes base-branch runs for tests: reports whose
// tests pass and fail as patterns say, and the history they make.
package historytest

import (
	"fmt"
	"time"

	"github.com/ananke/action/internal/history"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
)

// Test is a test of the runs. Pattern has a character per run, as a
// history file's statuses: p passed, P passed but flaky (on a retry), f
// failed, F failed and flaky, e errored, s skipped, . not in the run.
type Test struct {
	ID, Name, File string
	Line           int
	Pattern        string
	// Duration, Tokens and CostUSD give the test's figures in run i (from
	// 0); nil Tokens or CostUSD leave them unknown.
	Duration        func(i int) int64
	Tokens, CostUSD func(i int) *float64
}

// Run is a run of the fixture: its identity and its report.
type Run struct {
	Run    history.Run
	Report *report.Report
}

// Runs makes len(Pattern) runs, a day apart from start, numbered from
// first, their ids 7000 + their index and their commits made up.
func Runs(start time.Time, first int64, tests []Test) []Run {
	n := 0
	for _, t := range tests {
		n = max(n, len(t.Pattern))
	}
	out := make([]Run, n)
	for i := range n {
		r := &report.Report{Schema: report.Schema, StartedAt: start.Add(time.Duration(i) * 24 * time.Hour), Status: status.Pass,
			Hooks: []report.Hook{}, Tests: []report.Test{}}
		for _, tt := range tests {
			if i >= len(tt.Pattern) || tt.Pattern[i] == '.' {
				continue
			}
			t := testIn(tt, i)
			if t.Status.Failed() {
				r.Status = status.Fail
			}
			r.Tests = append(r.Tests, t)
		}
		out[i] = Run{history.Run{ID: fmt.Sprint(7000 + i), Number: first + int64(i), Commit: fmt.Sprintf("%07x", 0xabc000+i)}, r}
	}
	return out
}

// testIn is the report of tt in run i.
func testIn(tt Test, i int) report.Test {
	c := tt.Pattern[i]
	t := report.Test{ID: tt.ID, Name: tt.Name, File: tt.File, Line: max(tt.Line, 1), Tags: []string{}, Runs: 1,
		Turns: []report.Turn{}, Assertions: []report.Assertion{}, Warnings: []report.Warning{}, Attempts: []report.Attempt{},
		FailureCategories: []string{}}
	switch c | 0x20 {
	case 'p':
		t.Status, t.PassedRuns = status.Pass, 1
	case 'f':
		t.Status = status.Fail
	case 'e':
		t.Status = status.Error
	case 's':
		t.Status, t.Runs = status.Skipped, 0
	}
	t.Flaky = c >= 'A' && c <= 'Z'
	if t.Status != status.Skipped && tt.Duration != nil {
		t.DurationMs = tt.Duration(i)
	}
	var tokens, usd *float64
	if tt.Tokens != nil {
		tokens = tt.Tokens(i)
	}
	if tt.CostUSD != nil {
		usd = tt.CostUSD(i)
	}
	if tokens != nil || usd != nil {
		t.PerAttempt = &report.AttemptUsage{Attempts: 1, MeanTokens: tokens, MeanCostUSD: usd}
	}
	return t
}

// History is the history of runs.
func History(runs []Run) *history.History {
	h := &history.History{}
	for _, r := range runs {
		h.Add(r.Run, r.Report)
	}
	return h
}

// Main is 20 runs of main, #22 to #41, from 2026-03-01, a day apart:
// search fails 4 of them, scattered; weather fails since #39; checkout
// passes, twice only on a retry; slow passes slowly; a dataset case joins
// at #32; a test whose name is markdown failed once. Search reports tokens,
// and its cost when priced; slow reports tokens only.
func Main(priced bool) []Run {
	dur := func(base int64) func(int) int64 { return func(i int) int64 { return base + 17*int64(i) } }
	f := func(v float64) *float64 { return &v }
	search := Test{ID: "tests/search", Name: "search finds shoes", File: "tests/search.ananke.yaml", Pattern: "ppfpppfppppfpppppfpp",
		Duration: dur(300), Tokens: func(i int) *float64 { return f(float64(1200 + i)) }}
	if priced {
		search.CostUSD = func(i int) *float64 { return f(float64(120+i) / 10000) }
	}
	return Runs(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC), 22, []Test{
		search,
		{ID: "tests/weather", Name: "weather in Paris", File: "tests/weather.ananke.yaml", Pattern: "pppppppppppppppppfff", Duration: dur(600)},
		{ID: "tests/checkout", Name: "checkout declines the card", File: "tests/checkout.ananke.yaml", Pattern: "ppPppppppppppPpppppp", Duration: dur(900)},
		{ID: "tests/slow", Name: "slow report", File: "tests/slow.ananke.yaml", Pattern: "pppppppppppppppppppp",
			Duration: func(i int) int64 { return 12000 + 100*int64(i) }, Tokens: func(i int) *float64 { return f(float64(5000 + 10*i)) }},
		{ID: "tests/refunds#7", Name: "refund case 7", File: "tests/refunds.jsonl", Line: 7, Pattern: "..........pppppppppp", Duration: dur(1500)},
		{ID: "tests/md", Name: "a *bold* | [link](x) @mention", File: "tests/md.ananke.yaml", Pattern: "ppppfppppppppppppppp", Duration: dur(1800)},
	})
}
