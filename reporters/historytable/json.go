package historytable

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
)

// The JSON output's shape (docs/history.md).
type jsonTable struct {
	Runs      []jsonRun   `json:"runs"`
	Tests     int         `json:"tests"`
	Flakiest  jsonSection `json:"flakiest"`
	Failing   jsonSection `json:"failing"`
	Slowest   jsonSection `json:"slowest"`
	Expensive jsonSection `json:"most_expensive"`
	// ExpensiveBy is cost_usd or tokens: what most_expensive is sorted by.
	ExpensiveBy string `json:"most_expensive_by"`
}

type jsonRun struct {
	ID        string        `json:"id"`
	Number    int64         `json:"number,omitempty"`
	Commit    string        `json:"commit,omitempty"`
	URL       string        `json:"url,omitempty"`
	StartedAt time.Time     `json:"started_at"`
	Status    status.Status `json:"status"`
}

type jsonSection struct {
	Tests []jsonFacts `json:"tests"`
	// More counts the tests of the section left out by --top.
	More int `json:"more"`
}

type jsonFacts struct {
	ID         string           `json:"id"`
	Name       string           `json:"name"`
	File       string           `json:"file"`
	Line       int              `json:"line"`
	Sequence   string           `json:"sequence"`
	Judged     int              `json:"judged"`
	Passed     int              `json:"passed"`
	Failed     int              `json:"failed"`
	Flaky      int              `json:"flaky"`
	Runs       int              `json:"runs"`
	PassedRuns int              `json:"passed_runs"`
	PassRate   float64          `json:"pass_rate"`
	PassRateCI *report.Interval `json:"pass_rate_ci,omitempty"`
	Flakes     int              `json:"flakes"`
	FlakeRate  float64          `json:"flake_rate"`
	Streak     int              `json:"failing_streak"`
	Since      *jsonRun         `json:"failing_since,omitempty"`
	MedianMs   int64            `json:"median_duration_ms"`
	LastMs     int64            `json:"last_duration_ms"`
	MeanTokens *float64         `json:"mean_tokens,omitempty"`
	MeanCost   *float64         `json:"mean_cost_usd,omitempty"`
	LastTokens *float64         `json:"last_tokens,omitempty"`
	LastCost   *float64         `json:"last_cost_usd,omitempty"`
}

// WriteJSON writes the table as one JSON object: the runs, the count of
// tests, and each section's tests with all their facts (rates in percent,
// one decimal; failing_since is the first run of the failing streak).
func WriteJSON(w io.Writer, t *Table) error {
	out := jsonTable{Runs: make([]jsonRun, len(t.Runs)), Tests: t.Tests, ExpensiveBy: "tokens"}
	for i, r := range t.Runs {
		out.Runs[i] = jsonRun(r)
	}
	if t.ByCost {
		out.ExpensiveBy = "cost_usd"
	}
	out.Flakiest, out.Failing, out.Slowest, out.Expensive = t.jsonSection(t.Flakiest), t.jsonSection(t.Failing), t.jsonSection(t.Slowest), t.jsonSection(t.Expensive)
	data, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return fmt.Errorf("write history: %w", err)
	}
	if _, err := w.Write(append(data, '\n')); err != nil {
		return fmt.Errorf("write history: %w", err)
	}
	return nil
}

func (t *Table) jsonSection(s Section) jsonSection {
	out := jsonSection{Tests: make([]jsonFacts, len(s.Facts)), More: s.More}
	for i := range s.Facts {
		f := &s.Facts[i]
		j := jsonFacts{ID: f.Test.ID, Name: f.Test.Name, File: f.Test.File, Line: f.Test.Line, Sequence: f.Sequence,
			Judged: f.Judged, Passed: f.Passed, Failed: f.Failed, Flaky: f.Flaky, Runs: f.Runs, PassedRuns: f.PassedRuns,
			PassRate: pct(f.PassRate), PassRateCI: report.RateInterval(f.PassedRuns, f.Runs, t.Level*100),
			Flakes: f.Flakes, FlakeRate: pct(f.FlakeRate), Streak: f.Streak, MedianMs: f.MedianMs, LastMs: f.LastMs,
			MeanTokens: round(f.MeanTokens, 10), MeanCost: round(f.MeanCostUSD, 1e10), LastTokens: round(f.LastTokens, 10), LastCost: round(f.LastCostUSD, 1e10)}
		if f.Since != nil {
			r := jsonRun(*f.Since)
			j.Since = &r
		}
		out.Tests[i] = j
	}
	return out
}

// round rounds v to 1/per (tokens to a tenth, dollars as the report
// rounds them); nil stays nil: unknown.
func round(v *float64, per float64) *float64 {
	if v == nil {
		return nil
	}
	r := math.Round(*v*per) / per
	return &r
}
