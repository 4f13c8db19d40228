package diff_test

import (
	"math"
	"slices"
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/diff"
)

// TestRates: a test run more than once in either run is regressed when
// its pass rate is lower at the significance level, or one of its
// assertions fails more often at it; within noise when lower, but not
// significantly; neither otherwise. Tests run once in both, or skipped in
// one, are not compared.
func TestRates(t *testing.T) {
	none := func(*report.Test) {}
	for _, tc := range []struct {
		name       string
		alpha      float64
		base, head []func(*report.Test)
		headStatus status.Status
		want       string // regressed, noise or ""
		compared   bool
		p          float64 // of the pass rate
		lead       string
		checks     []string // ids of the assertions failing more often
	}{
		{"10/10 → 6/10", 0.05, opts(runs(10, 10)), opts(runs(6, 10)), status.Pass, "regressed", true, 0.04334, "pass rate 10/10 → 6/10, p = 0.043", nil},
		{"10/10 → 9/10", 0.05, opts(runs(10, 10)), opts(runs(9, 10)), status.Pass, "noise", true, 0.5, "pass rate 10/10 → 9/10, p = 0.5", nil},
		{"10/10 → 6/10 at 0.01", 0.01, opts(runs(10, 10)), opts(runs(6, 10)), status.Pass, "noise", true, 0.04334, "pass rate 10/10 → 6/10, p = 0.043", nil},
		{"better", 0.05, opts(runs(6, 10)), opts(runs(10, 10)), status.Pass, "", true, 1, "pass rate 6/10 → 10/10", nil},
		{"the same", 0.05, opts(runs(9, 10)), opts(runs(9, 10)), status.Pass, "", true, 1, "pass rate 9/10 → 9/10", nil},
		{"same rate, more runs", 0.05, opts(runs(5, 10)), opts(runs(10, 20)), status.Pass, "", true, 1, "pass rate 5/10 → 10/20", nil},
		{"once, then ten times", 0.05, opts(runs(1, 1)), opts(runs(6, 10)), status.Pass, "noise", true, 0.63636, "pass rate 1/1 → 6/10, p = 0.64", nil},
		{"all errored", 0.05, opts(runs(10, 10)), opts(runs(0, 10)), status.Error, "regressed", true, 5.4e-6, "pass rate 10/10 → 0/10, p < 0.001", nil},
		{"once in both", 0.05, opts(runs(1, 1)), opts(runs(0, 1)), status.Fail, "", false, 1, "", nil},
		{"skipped in the head", 0.05, opts(runs(10, 10)), opts(none), status.Skipped, "", false, 1, "", nil},
		{"an assertion fails on retries", 0.05,
			opts(runs(10, 10), check("a", 0), check("b", 0)),
			opts(runs(10, 10), retried(10), check("a", 1), check("b", 10)), status.Pass, "regressed", true, 1, "pass rate 10/10 → 10/10", []string{"b", "a"}},
		{"an assertion fails more, within noise", 0.05,
			opts(runs(10, 10), check("a", 0)), opts(runs(9, 10), check("a", 1)), status.Pass, "noise", true, 0.5, "pass rate 10/10 → 9/10, p = 0.5", []string{"a"}},
		{"an assertion new in the head", 0.05,
			opts(runs(10, 10)), opts(runs(10, 10), retried(10), check("new", 10)), status.Pass, "", true, 1, "pass rate 10/10 → 10/10", nil},
		{"an assertion fails less", 0.05,
			opts(runs(6, 10), check("a", 4)), opts(runs(10, 10), check("a", 0)), status.Pass, "", true, 1, "pass rate 6/10 → 10/10", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, h := x("t", status.Pass, tc.base...), x("t", tc.headStatus, tc.head...)
			r := diff.CompareAt(rep(1, b), rep(1, h), tc.alpha).Rates
			if got := r.Compared == 1; got != tc.compared {
				t.Fatalf("compared %d", r.Compared)
			}
			var e *diff.RateEntry
			got := ""
			switch {
			case len(r.Regressed) == 1 && len(r.WithinNoise) == 0:
				got, e = "regressed", &r.Regressed[0]
			case len(r.WithinNoise) == 1 && len(r.Regressed) == 0:
				got, e = "noise", &r.WithinNoise[0]
			case len(r.Regressed)+len(r.WithinNoise) != 0:
				t.Fatalf("regressed %+v, within noise %+v", r.Regressed, r.WithinNoise)
			}
			if got != tc.want {
				t.Fatalf("%q; want %q", got, tc.want)
			}
			if e == nil {
				return
			}
			if math.Abs(e.P-tc.p) > 5e-5 || e.Lead(tc.alpha) != tc.lead {
				t.Errorf("p = %v, lead %q; want %v, %q", e.P, e.Lead(tc.alpha), tc.p, tc.lead)
			}
			var ids []string
			for _, c := range e.Checks {
				ids = append(ids, c.ID)
			}
			if !slices.Equal(ids, tc.checks) {
				t.Errorf("checks %q; want %q", ids, tc.checks)
			}
		})
	}
}

func opts(o ...func(*report.Test)) []func(*report.Test) { return o }

func x(id string, st status.Status, o ...func(*report.Test)) report.Test {
	return tc(id, st, 500, o...)
}

// TestRatesHeadline: a regression counts in the headline as a change of
// results; a lower rate within noise does not.
func TestRatesHeadline(t *testing.T) {
	c := diff.Compare(rep(1, x("a", status.Pass, runs(10, 10)), x("b", status.Pass, runs(10, 10))),
		rep(1, x("a", status.Pass, runs(6, 10)), x("b", status.Pass, runs(9, 10))))
	if h := c.Headline(); h != "1 regressed, 2 newly flaky" {
		t.Errorf("headline %q", h)
	}
	c = diff.Compare(rep(1, x("b", status.Pass, runs(10, 10))), rep(1, x("b", status.Pass, runs(9, 10))))
	if h := c.Headline(); h != "1 newly flaky" || len(c.Rates.WithinNoise) != 1 {
		t.Errorf("headline %q", h)
	}
	c = diff.Compare(rep(1, x("b", status.Pass, runs(9, 10))), rep(1, x("b", status.Pass, runs(9, 10))))
	if !c.Empty() || c.Headline() != "no change in test results" {
		t.Errorf("the same rates: headline %q", c.Headline())
	}
}

// TestPValue: p-values show with two significant digits, with more where
// two would land on the other side of the level, and as "< 0.001" below
// a thousandth.
func TestPValue(t *testing.T) {
	for _, tc := range []struct {
		p, alpha float64
		want     string
	}{
		{0.04334, 0.05, "p = 0.043"},
		{0.5, 0.05, "p = 0.5"},
		{1, 0.05, "p = 1"},
		{0.0504, 0.05, "p = 0.0504"}, // not "0.05": it is above 0.05
		{0.04996, 0.05, "p = 0.05"},  // at most 0.05, as it is: regressed
		{0.05, 0.05, "p = 0.05"},
		{0.00604, 0.01, "p = 0.006"},
		{0.0104, 0.01, "p = 0.0104"},
		{0.0004, 0.05, "p < 0.001"},
		{0.00004, 0.0001, "p = 4e-05"},
	} {
		e := diff.RateEntry{BasePassed: 10, BaseRuns: 10, HeadPassed: 6, HeadRuns: 10, P: tc.p}
		if got := e.Lead(tc.alpha); got != "pass rate 10/10 → 6/10, "+tc.want {
			t.Errorf("p %v at %v: %q; want %q", tc.p, tc.alpha, got, tc.want)
		}
	}
}

// TestGateLine: a regressed test's line names its pass rate, or the
// assertion that fails most significantly more often when the rate did
// not drop significantly.
func TestGateLine(t *testing.T) {
	c := diff.Compare(ratePair())
	var lines []string
	for _, e := range c.Rates.Regressed {
		lines = append(lines, e.GateLine(c.Rates.Significance))
	}
	want := []string{
		"checkout: pass rate 10/10 → 6/10, p = 0.043, regressed at significance 0.05",
		"coin: turn[0].tools.require[0] failed in 0/10 → 10/20 attempts, p = 0.0061, regressed at significance 0.05",
		`@octocat <b>*bold*</b> [x](https://evil.example) ` + "`tick`" + ` | #12 \x1b[31mred\x1b[0m: pass rate 10/10 → 5/10, p = 0.016, regressed at significance 0.05`,
	}
	if !slices.Equal(lines, want) {
		t.Errorf("gate lines\n%q\nwant\n%q", lines, want)
	}
}

// TestRatesTie: a p-value exactly at the level is a regression, however
// its floating-point sum comes out: 3/3 → 0/3 is p = 1/20.
func TestRatesTie(t *testing.T) {
	c := diff.CompareAt(rep(1, x("t", status.Pass, runs(3, 3))), rep(1, x("t", status.Fail, runs(0, 3))), 0.05)
	if len(c.Rates.Regressed) != 1 || c.Rates.Regressed[0].Lead(0.05) != "pass rate 3/3 → 0/3, p = 0.05" {
		t.Errorf("3/3 → 0/3 at 0.05: regressed %+v, within noise %+v", c.Rates.Regressed, c.Rates.WithinNoise)
	}
}
