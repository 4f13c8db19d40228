package diff

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/reporters/internal/format"
)

// MaxWithinNoise is how many tests within noise the renderers list; the
// rest are counted. Regressed tests are all listed.
const MaxWithinNoise = 10

// rateSections are the regressed tests, each with the assertions that
// fail more often under it, and the tests within noise, as sections.
func rateSections(r *Rates) (regressed, noise []section) {
	if n := len(r.Regressed); n > 0 {
		s := section{title: fmt.Sprintf("Regressed (%d)", n)}
		for _, e := range r.Regressed {
			it := item{Entry: e.Entry, lead: e.Lead(r.Significance)}
			shown := e.Checks[:min(len(e.Checks), MaxFailures)]
			for _, c := range shown {
				it.checks = append(it.checks, Failure{ID: c.ID, Source: c.Source, Message: c.Text(r.Significance)})
			}
			it.moreChecks = len(e.Checks) - len(shown)
			s.items = append(s.items, it)
		}
		regressed = []section{s}
	}
	if n := len(r.WithinNoise); n > 0 {
		s := section{title: fmt.Sprintf("Within noise (%d)", n)}
		entries := r.WithinNoise
		if n > MaxWithinNoise {
			entries, s.more = entries[:MaxWithinNoise], n-MaxWithinNoise
		}
		for _, e := range entries {
			s.items = append(s.items, item{Entry: e.Entry, lead: e.Lead(r.Significance)})
		}
		noise = []section{s}
	}
	return regressed, noise
}

// Lead is a compared test's pass rates, with the p-value when the head's
// is lower (shown as it compares with alpha): "pass rate 10/10 → 6/10,
// p = 0.043", "pass rate 9/10 → 10/10".
func (e RateEntry) Lead(alpha float64) string {
	s := fmt.Sprintf("pass rate %d/%d → %d/%d", e.BasePassed, e.BaseRuns, e.HeadPassed, e.HeadRuns)
	if e.Lower() {
		s += ", " + pValue(e.P, alpha)
	}
	return s
}

// Text is an assertion's failures in both runs and what they mean at
// level alpha: "failed in 0/10 → 4/10 attempts, p = 0.043: regressed".
func (c CheckChange) Text(alpha float64) string {
	verdict := "within noise"
	if significant(c.P, alpha) {
		verdict = "regressed"
	}
	return fmt.Sprintf("failed in %d/%d → %d/%d attempts, %s: %s", c.BaseFailed, c.BaseAttempts, c.HeadFailed, c.HeadAttempts, pValue(c.P, alpha), verdict)
}

// GateLine says why a regressed test fails --fail-on-regression, for the
// line that fails a step: "checkout: pass rate 10/10 → 6/10, p = 0.043,
// regressed at significance 0.05" — or, when its pass rate did not drop
// significantly, the assertion that fails most significantly more often.
// The name is shown as the text renderer shows it.
func (e RateEntry) GateLine(alpha float64) string {
	name := clean(e.Name, maxName)
	at := "regressed at significance " + Level(alpha)
	if e.RateRegressed(alpha) {
		return name + ": " + e.Lead(alpha) + ", " + at
	}
	for _, c := range e.Checks {
		if significant(c.P, alpha) {
			return fmt.Sprintf("%s: %s failed in %d/%d → %d/%d attempts, %s, %s", name, clean(c.ID, maxName),
				c.BaseFailed, c.BaseAttempts, c.HeadFailed, c.HeadAttempts, pValue(c.P, alpha), at)
		}
	}
	return name + ": " + at
}

// ratesLine sums the comparison of pass rates up: "Pass rates: 3 tests
// run more than once, compared at significance 0.05 (one-sided Fisher
// exact test): 1 regressed, 1 within noise"; "" when no test was run more
// than once. It holds no untrusted text.
func ratesLine(r *Rates) string {
	if r.Compared == 0 {
		return ""
	}
	var parts []string
	if n := len(r.Regressed); n > 0 {
		parts = append(parts, fmt.Sprintf("%d regressed", n))
	}
	if n := len(r.WithinNoise); n > 0 {
		parts = append(parts, fmt.Sprintf("%d within noise", n))
	}
	if len(parts) == 0 {
		parts = append(parts, "none lower")
	}
	return fmt.Sprintf("Pass rates: %s run more than once, compared at significance %s (one-sided Fisher exact test): %s",
		plural.Count(r.Compared, "test"), Level(r.Significance), strings.Join(parts, ", "))
}

// pValue shows a p-value as every output does (format.PValue): "p =
// 0.043", "p < 0.001", never on the other side of alpha.
func pValue(p, alpha float64) string { return format.PValue(p, alpha) }

// Level is a significance level as given: "0.05", "0.01".
func Level(alpha float64) string { return strconv.FormatFloat(alpha, 'g', -1, 64) }
