// Package calibrate measures judges against people: it asks the current
// judge again, over the traces a report keeps, about the verdicts people
// labelled (internal/labels), and says how often the two agree — accuracy
// with its Wilson interval, Cohen's kappa with its large-sample interval,
// the confusion matrix — per criterion and per judge. The calibration
// file keeps those numbers per judge identity (model and prompt hash),
// and Gate lets a critical judge fail the build only when its criteria's
// calibrations under exactly that identity meet the config's thresholds
// (docs/judges.md).
package calibrate

import (
	"github.com/ananke/action/internal/stats"
)

// Confusion counts labelled verdicts by what the judge said (met: its
// verdict was true) and what the person said (labels.Label.Met).
type Confusion struct {
	JudgeMetHumanMet int `json:"judge_met_human_met"`
	JudgeMetHumanNot int `json:"judge_met_human_not"`
	JudgeNotHumanMet int `json:"judge_not_human_met"`
	JudgeNotHumanNot int `json:"judge_not_human_not"`
}

// Add counts one labelled verdict.
func (c *Confusion) Add(judgeMet, humanMet bool) {
	switch {
	case judgeMet && humanMet:
		c.JudgeMetHumanMet++
	case judgeMet:
		c.JudgeMetHumanNot++
	case humanMet:
		c.JudgeNotHumanMet++
	default:
		c.JudgeNotHumanNot++
	}
}

// Plus is the sum of two confusions.
func (c Confusion) Plus(d Confusion) Confusion {
	return Confusion{c.JudgeMetHumanMet + d.JudgeMetHumanMet, c.JudgeMetHumanNot + d.JudgeMetHumanNot,
		c.JudgeNotHumanMet + d.JudgeNotHumanMet, c.JudgeNotHumanNot + d.JudgeNotHumanNot}
}

// N is how many labelled verdicts were counted.
func (c Confusion) N() int {
	return c.JudgeMetHumanMet + c.JudgeMetHumanNot + c.JudgeNotHumanMet + c.JudgeNotHumanNot
}

// Agreements is how many of them the judge and the person agree on.
func (c Confusion) Agreements() int { return c.JudgeMetHumanMet + c.JudgeNotHumanNot }

// Agreement is how well a judge agrees with people over some labels.
type Agreement struct {
	N, Agreements int
	// Accuracy is Agreements / N (0 without labels), and AccuracyCI its
	// Wilson interval.
	Accuracy   float64
	AccuracyCI stats.Interval
	// Kappa is Cohen's kappa of the judge against the people, KappaCI its
	// large-sample interval; Kappa.Defined is false when every label got
	// one and the same answer from both (chance agreement is then
	// certain, and kappa 0/0).
	Kappa   stats.Kappa
	KappaCI stats.Interval
}

// Agreement is what the confusion says, with intervals at level, a
// fraction in (0, 1).
func (c Confusion) Agreement(level float64) Agreement {
	a := Agreement{N: c.N(), Agreements: c.Agreements()}
	if a.N > 0 {
		a.Accuracy = float64(a.Agreements) / float64(a.N)
	}
	a.AccuracyCI = stats.Wilson(a.Agreements, a.N, level)
	a.Kappa = stats.CohenKappa(c.JudgeMetHumanMet, c.JudgeMetHumanNot, c.JudgeNotHumanMet, c.JudgeNotHumanNot)
	a.KappaCI = a.Kappa.Interval(level)
	return a
}
