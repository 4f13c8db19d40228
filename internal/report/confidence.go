package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/stability"
	"github.com/ananke/action/internal/stats"
	"github.com/ananke/action/internal/status"
)

// Interval is a confidence interval for a rate (docs/statistics.md): at
// Level percent, the rate lies between Lo and Hi percent. Its bounds are
// rounded to one decimal, as pass rates are.
type Interval struct {
	Level float64 `json:"level"`
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
}

// PassK is pass^k: the chance that K runs in a row all pass, estimated
// from the pass rate (Value, in percent) with its interval at the pass
// rate's level (Lo, Hi).
type PassK struct {
	K     int     `json:"k"`
	Value float64 `json:"value"`
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
}

// RateInterval is the interval of k successes in n trials at level
// percent (Wilson's score interval); nil when nothing was tried. A reader
// of engine results before the report is built (the console's line per
// finished test) gets the interval Build will report.
func RateInterval(k, n int, level float64) *Interval {
	if n <= 0 {
		return nil
	}
	iv := stats.Wilson(k, n, level/100)
	return &Interval{Level: level, Lo: pct(iv.Lo), Hi: pct(iv.Hi)}
}

// pct is a fraction in percent, rounded to one decimal.
func pct(f float64) float64 { return math.Round(f*1000) / 10 }

// String is "95% CI 40–89%": the bounds in whole percent, unless rounding
// would make one read as 0% or 100% that is not.
func (iv *Interval) String() string {
	return stability.FormatPercent(iv.Level) + " CI " + iv.Range()
}

// Range is the interval's bounds alone: "40–89%".
func (iv *Interval) Range() string { return bound(iv.Lo) + "–" + bound(iv.Hi) + "%" }

// bound is a bound in whole percent ("40"), or with its decimal when a
// whole number would round it to 0 or 100 ("0.3", "99.6").
func bound(p float64) string {
	if r := math.Round(p); (r > 0 || p == 0) && (r < 100 || p == 100) {
		p = r
	}
	return strings.TrimSuffix(stability.FormatPercent(p), "%")
}

// String is "pass^10 2.8% (95% CI 0–31%)"; level is the pass rate's.
func (p *PassK) String(level float64) string {
	iv := Interval{Level: level, Lo: p.Lo, Hi: p.Hi}
	return fmt.Sprintf("pass^%d %s (%s)", p.K, stability.FormatPercent(p.Value), iv.String())
}

// confidence sets the intervals of a test run more than once at level
// percent: its pass rate's over its runs, pass^k for k = its runs, and
// each evaluated assertion's failure rate over its attempts. A test run
// once gets none: one run says nothing of a rate.
func (t *Test) confidence(level float64) {
	t.PassRateCI, t.PassK = nil, nil
	for i := range t.Assertions {
		t.Assertions[i].FailureRateCI = nil
	}
	if !t.Repeated() || t.Runs == 0 {
		return
	}
	t.PassRateCI = RateInterval(t.PassedRuns, t.Runs, level)
	v, iv := stats.PassK(t.PassedRuns, t.Runs, t.Runs, level/100)
	t.PassK = &PassK{K: t.Runs, Value: pct(v), Lo: pct(iv.Lo), Hi: pct(iv.Hi)}
	for i := range t.Assertions {
		if a := &t.Assertions[i]; a.Status != status.Skip {
			a.FailureRateCI = RateInterval(a.FailedRuns, len(t.Attempts), level)
		}
	}
}

// setConfidence sets every test's intervals at level percent.
func setConfidence(tests []Test, level float64) {
	for i := range tests {
		tests[i].confidence(level)
	}
}

// mergedConfidence is the level of merged parts' intervals: the first
// part's that states one (the parts of one run share a config), else the
// default. Merge recomputes every test's intervals at it, so a merged
// report never mixes levels.
func mergedConfidence(parts []*Report) float64 {
	for _, p := range parts {
		if p.Confidence > 0 {
			return p.Confidence
		}
	}
	return spec.DefaultConfidence
}
