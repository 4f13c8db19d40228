package calibrate

import (
	"fmt"
	"strconv"
	"strings"
)

// Thresholds are what a criterion's calibration must meet for its judge
// to gate (the config's judges.gate).
type Thresholds struct {
	// MinKappa is the least kappa (the calibration's estimate, not its
	// interval's bound).
	MinKappa float64
	// MinAccuracy is the least accuracy, a fraction; 0 asks none.
	MinAccuracy float64
	// MinLabels is the fewest labels a calibration may rest on.
	MinLabels int
}

// Gate decides whether a critical judge may fail the build: only when
// every criterion it asks about has a calibration under exactly its
// model and prompt hash that meets the thresholds. It implements the
// engine's JudgeGate.
type Gate struct {
	Thresholds Thresholds
	// File is the calibration file (nil: there is none); Missing says why
	// there is none ("FILE does not exist"), for the reasons.
	File    *File
	Missing string
}

// Reason is "" when a judge of model and promptHash asking about
// criteria may gate; otherwise why not, naming the first criterion that
// has no calibration for it, a stale one, or one that rests on too few
// labels or is below a threshold.
func (g *Gate) Reason(criteria []string, model, promptHash string) string {
	for _, crit := range criteria {
		if r := g.reason(crit, model, promptHash); r != "" {
			return r
		}
	}
	return ""
}

func (g *Gate) reason(crit, model, promptHash string) string {
	c, ok := g.File.Find(model, promptHash, crit)
	if !ok {
		if old, ok := g.latest(crit); ok {
			return fmt.Sprintf("the calibration of %q was made for judge %s with prompt %s, not %s with %s: the model or prompt changed; calibrate again",
				crit, old.Model, old.PromptHash, model, promptHash)
		}
		why := ""
		if g.Missing != "" {
			why = " (" + g.Missing + ")"
		}
		return fmt.Sprintf("no calibration of %q for judge %s with prompt %s%s; run ananke judge calibrate", crit, model, promptHash, why)
	}
	t := g.Thresholds
	switch {
	case c.N < t.MinLabels:
		return fmt.Sprintf("the calibration of %q rests on %s, fewer than the %d asked; label more and calibrate again", crit, labelCount(c.N), t.MinLabels)
	case c.Kappa == nil:
		return fmt.Sprintf("the calibration of %q has no kappa over %s: the judge and the labels gave one answer to all of them; label verdicts of both kinds", crit, labelCount(c.N))
	case *c.Kappa < t.MinKappa:
		return fmt.Sprintf("the calibration of %q has kappa %s [%s, %s] over %s, below %s",
			crit, Number(*c.Kappa), Number(c.KappaCI.Lo), Number(c.KappaCI.Hi), labelCount(c.N), Number(t.MinKappa))
	case c.Accuracy < t.MinAccuracy:
		return fmt.Sprintf("the calibration of %q has accuracy %s [%s–%s] over %s, below %s",
			crit, Percent(c.Accuracy), strings.TrimSuffix(Percent(c.AccuracyCI.Lo), "%"), Percent(c.AccuracyCI.Hi), labelCount(c.N), Percent(t.MinAccuracy))
	}
	return ""
}

// latest is the calibration of crit made last under any judge identity.
func (g *Gate) latest(crit string) (Judge, bool) {
	var best Judge
	var at Criterion
	found := false
	if g.File == nil {
		return best, false
	}
	for _, j := range g.File.Judges {
		for _, c := range j.Criteria {
			if c.Criterion == crit && (!found || c.MadeAt.After(at.MadeAt)) {
				best, at, found = j, c, true
			}
		}
	}
	return best, found
}

func labelCount(n int) string {
	if n == 1 {
		return "1 label"
	}
	return strconv.Itoa(n) + " labels"
}

// Number shows a kappa or a threshold: two decimals at most, a true
// minus sign.
func Number(v float64) string {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if r := strconv.FormatFloat(v, 'f', 2, 64); len(r) < len(s) {
		s = strings.TrimRight(strings.TrimRight(r, "0"), ".")
	}
	if s == "-0" {
		s = "0"
	}
	return strings.Replace(s, "-", "−", 1)
}

// Percent shows a proportion as a whole percentage ("85%").
func Percent(v float64) string {
	return strconv.FormatFloat(v*100, 'f', 0, 64) + "%"
}
