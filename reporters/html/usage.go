package html

import (
	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/internal/format"
)

// What the agent used (docs/cost.md), in a run where some test's agent
// reported usage: the run's total in the header, each test's in the list
// (sortable by cost or tokens) and its view, each attempt's in the runs
// table and each turn's. A run without usage has none of these fields,
// and the page shows nothing of usage.

// usage is what a test's agent used, as the page shows it: Text as every
// output says it ("5k tokens · $0.0036", "usage unknown"), Cell for the
// list ("$0.0036", "10.2k tokens", "—"), the per-run figures, each model's
// part, and the numbers the list sorts by — Tokens (a lower bound when
// the usage is partial) and CostUSD, each absent when unknown.
type usage struct {
	Text    string   `json:"text"`
	Cell    string   `json:"cell"`
	PerRun  string   `json:"per_run,omitempty"`
	Models  []string `json:"models,omitempty"`
	Tokens  *int64   `json:"tokens,omitempty"`
	CostUSD *float64 `json:"cost_usd,omitempty"`
}

// testUsage is a test's usage for the page; nil for a skipped test, which
// never ran.
func testUsage(rt *report.Test) *usage {
	if rt.Status == status.Skipped {
		return nil
	}
	s := rt.Usage
	u := &usage{Text: s.Summary(), Cell: "—", PerRun: format.PerAttempt(rt.PerAttempt, format.Noun(rt))}
	if s == nil {
		return u
	}
	if n, ok := s.TotalTokens(); ok {
		u.Tokens = &n
		u.Cell = cost.FormatTokens(n) + " tokens"
		if s.Partial() {
			u.Cell = "≥ " + u.Cell
		}
	}
	if c, ok := s.CostUSD(); ok {
		u.CostUSD = &c
		u.Cell = cost.FormatUSD(c)
	}
	for _, m := range s.Models {
		u.Models = append(u.Models, modelText(m, s.Partial()))
	}
	return u
}

// modelText is one model's part of a spend: "openai/gpt-4o-mini: 4.1k
// tokens · $0.00071", a lower bound when the spend is partial.
func modelText(m cost.Usage, partial bool) string {
	tokens := "tokens unknown"
	if n, ok := m.Tokens.TotalTokens(); ok {
		tokens = cost.FormatTokens(n) + " tokens"
		if partial {
			tokens = "≥ " + tokens
		}
	}
	switch {
	case partial:
	case m.CostUSD != nil:
		tokens += " · " + cost.FormatUSD(*m.CostUSD)
	default:
		tokens += " · cost unknown"
	}
	return m.Label() + ": " + tokens
}

// spendText is a turn's or an attempt's usage, "" in a run without usage.
func spendText(s *cost.Spend, shown bool) string {
	if !shown {
		return ""
	}
	return s.Summary()
}
