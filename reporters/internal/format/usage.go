package format

import (
	"fmt"
	"math"

	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
)

// ShowsUsage reports whether a report shows what the agent used: whether
// some test's agent reported usage. A run whose agent reports none shows
// nothing about it, rather than "usage unknown" beside every test; in a
// run where some tests reported usage, a test that did not says "usage
// unknown" (docs/cost.md).
func ShowsUsage(r *report.Report) bool { return r.Totals.Usage != nil }

// Usage is what a test's agent used, for people: its spend's summary
// ("12.4k tokens · $0.031", "usage unknown"), and for a test with several
// attempts whose figures are known, its mean and maximum per run:
// "10.5k tokens · $0.0017 (per run: mean 3.5k tokens · $0.00056, max 4.3k
// tokens · $0.0007)".
func Usage(t *report.Test) string { return UsageOf(t.Usage, t.PerAttempt, Noun(t)) }

// Noun is what a test's attempts are, for its figures per attempt: "run",
// or "attempt" when retries made more attempts than runs.
func Noun(t *report.Test) string {
	if len(t.Attempts) != t.Runs {
		return "attempt"
	}
	return "run"
}

// UsageOf is Usage from a spend and its figures per attempt (noun: what
// an attempt is called).
func UsageOf(s *cost.Spend, per *report.AttemptUsage, noun string) string {
	out := s.Summary()
	if p := PerAttempt(per, noun); p != "" {
		out += " (" + p + ")"
	}
	return out
}

// PerAttempt is "per run: mean 3.5k tokens · $0.00056, max 4.3k tokens ·
// $0.0007", the cost left out when it is not known; "" for a test run
// once, or when some attempt's tokens are unknown.
func PerAttempt(per *report.AttemptUsage, noun string) string {
	if per == nil || per.Attempts < 2 || per.MeanTokens == nil || per.MaxTokens == nil {
		return ""
	}
	mean := cost.FormatTokens(int64(math.Round(*per.MeanTokens))) + " tokens"
	most := cost.FormatTokens(*per.MaxTokens) + " tokens"
	if per.MeanCostUSD != nil && per.MaxCostUSD != nil {
		mean += " · " + cost.FormatUSD(*per.MeanCostUSD)
		most += " · " + cost.FormatUSD(*per.MaxCostUSD)
	}
	return fmt.Sprintf("per %s: mean %s, max %s", noun, mean, most)
}

// Total is what the agent used over the run, for people: the total's
// summary ("10.4k tokens · $0.026"), or, when some test's usage is not
// known in full, a lower bound and how many tests that is: "≥ 30.3k tokens
// (usage unknown for 2 of 5 tests)" (skipped tests never ran and are not
// counted). "usage unknown" in a run without usage.
func Total(r *report.Report) string {
	u := r.Totals.Usage
	if !u.Partial() {
		return u.Summary()
	}
	ran, unknown := 0, 0
	for i := range r.Tests {
		t := &r.Tests[i]
		if t.Status == status.Skipped {
			continue
		}
		ran++
		if t.Usage == nil || t.Usage.Partial() {
			unknown++
		}
	}
	tokens := "tokens unknown"
	if n, ok := u.TotalTokens(); ok {
		tokens = "≥ " + cost.FormatTokens(n) + " tokens"
	}
	return fmt.Sprintf("%s (usage unknown for %d of %s)", tokens, unknown, plural.Count(ran, "test"))
}

// Cell is a test's usage in a table: its summary, "—" when unknown.
func Cell(t *report.Test) string {
	if t.Usage == nil {
		return "—"
	}
	return t.Usage.Summary()
}
