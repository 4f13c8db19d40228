package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/ananke/action/internal/stability"
	"github.com/ananke/action/internal/stats"
)

// defaultRule is the adaptive rule docs/statistics.md recommends: the
// rule's defaults (internal/stability), between 3 and 50 runs.
var defaultRule = stats.Sequential{Min: 3, Max: 50, Zone: stability.DefaultZone, Alpha: stability.DefaultAlpha, Beta: stability.DefaultBeta}

// otherRules are the settings the second table compares.
var otherRules = []stats.Sequential{
	defaultRule,
	{Min: 3, Max: 30, Zone: 5, Alpha: 0.05, Beta: 0.05},
	{Min: 3, Max: 100, Zone: 5, Alpha: 0.05, Beta: 0.05},
	{Min: 3, Max: 50, Zone: 5, Alpha: 0.025, Beta: 0.025},
	{Min: 3, Max: 30, Zone: 10, Alpha: 0.05, Beta: 0.05},
	{Min: 3, Max: 50, Zone: 10, Alpha: 0.05, Beta: 0.05},
	{Min: 3, Max: 30, Zone: 5, Alpha: 0.10, Beta: 0.10},
}

// notable is the difference in wrong-verdict rates, a tenth of a point,
// below which the summaries do not count a cell as worse: with 20,000
// trials a simulated difference of that size is about one standard error.
const notable = 0.001

// summary is a grid's cells in a few numbers.
type summary struct {
	cells          int
	runs           float64 // the adaptive rule's mean runs over the cells
	fixed          int
	judged         int     // cells outside the zone
	wrongA, wrongF float64 // mean wrong-verdict rates over those
	worse          int     // cells where the adaptive rule is wrong more often by more than notable
	worst          float64 // the largest difference (a fraction), 0 if it is never wrong more often
	worstAt        cell
	offA, offF     float64 // mean off-side rates over all cells
	settled        float64 // the largest chance of a wrong settled verdict in a cell
	settledAt      cell
}

func summarize(cells []cell) summary {
	s := summary{cells: len(cells)}
	for _, c := range cells {
		s.fixed = c.Fixed
		s.runs += c.Runs
		s.offA += c.offSide(c.PassA)
		s.offF += c.offSide(c.PassF)
		a, ok := c.wrong(c.PassA)
		if !ok {
			continue
		}
		f, _ := c.wrong(c.PassF)
		if w, _ := c.settledWrong(); w > s.settled {
			s.settled, s.settledAt = w, c
		}
		s.judged++
		s.wrongA += a
		s.wrongF += f
		if a-f > notable {
			s.worse++
		}
		if a-f > s.worst {
			s.worst, s.worstAt = a-f, c
		}
	}
	s.runs /= float64(max(s.cells, 1))
	s.offA /= float64(max(s.cells, 1))
	s.offF /= float64(max(s.cells, 1))
	s.wrongA /= float64(max(s.judged, 1))
	s.wrongF /= float64(max(s.judged, 1))
	return s
}

// saved is how many fewer runs than the fixed rule, as a fraction.
func (s summary) saved() float64 { return 1 - s.runs/float64(max(s.fixed, 1)) }

func write(w io.Writer, o options) error {
	var b strings.Builder
	how := fmt.Sprintf("%d seeded trials per cell (seed %d)", o.trials, o.seed)
	if o.exact {
		how = "exact probabilities"
	}
	r := o.rule
	fmt.Fprintf(&b, "Adaptive runs %d..%d (zone %s points, alpha %s, beta %s) against fixed runs: %d; %s.\n\n",
		r.Min, r.Max, num(r.Zone), num(r.Alpha), num(r.Beta), r.Max, how)
	b.WriteString("| min pass rate | agent's rate | right verdict | runs, adaptive | inconclusive | wrong, adaptive | of them settled | wrong, fixed | off side, adaptive | off side, fixed |\n")
	b.WriteString("|---:|---:|:---|---:|---:|---:|---:|---:|---:|---:|\n")
	cells := o.grid(r)
	for _, c := range cells {
		wa, ws, wf := "—", "—", "—"
		if a, ok := c.wrong(c.PassA); ok {
			f, _ := c.wrong(c.PassF)
			settled, _ := c.settledWrong()
			wa, ws, wf = pct(a), pct(settled), pct(f)
		}
		fmt.Fprintf(&b, "| %d%% | %d%% | %s | %.1f | %s | %s | %s | %s | %s | %s |\n",
			c.Threshold, c.Rate, c.Should, c.Runs, pct(c.Inconclusive), wa, ws, wf, pct(c.offSide(c.PassA)), pct(c.offSide(c.PassF)))
	}
	s := summarize(cells)
	fmt.Fprintf(&b, "\nOver the %d cells the adaptive rule takes %.1f runs on average against %d: %.1f%% fewer.\n",
		s.cells, s.runs, s.fixed, 100*s.saved())
	fmt.Fprintf(&b, "Wrong verdicts, over the %d cells outside the zone: %s adaptive, %s fixed on average; ", s.judged, pct(s.wrongA), pct(s.wrongF))
	if s.worst == 0 {
		b.WriteString("the adaptive rule is never wrong more often than the fixed one.\n")
	} else {
		fmt.Fprintf(&b, "the adaptive rule is wrong more often than the fixed one by more than 0.1 point in %d of them, by %.2f points at most (min pass rate %d%%, agent's rate %d%%).\n",
			s.worse, 100*s.worst, s.worstAt.Threshold, s.worstAt.Rate)
	}
	fmt.Fprintf(&b, "Settled verdicts, the ones alpha and beta are about, were wrong %s of the time at most (min pass rate %d%%, agent's rate %d%%); the adaptive rule's other wrong verdicts came at max, inconclusive.\n",
		pct(s.settled), s.settledAt.Threshold, s.settledAt.Rate)
	fmt.Fprintf(&b, "Verdicts off the side of the threshold the agent's rate is on, over all cells: %s adaptive, %s fixed.\n", pct(s.offA), pct(s.offF))
	if o.others {
		b.WriteString("\nOther settings, over the same grid:\n\n")
		b.WriteString("| runs | zone | alpha | beta | runs, adaptive | fewer than fixed | wrong, adaptive | wrong, fixed | cells worse by > 0.1 pt (most) | off side, adaptive | off side, fixed | a perfect agent passes at " + thresholdList(o.thresholds) + " after |\n")
		b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n")
		for _, r := range otherRules {
			s := summarize(cells)
			if r != o.rule {
				s = summarize(o.grid(r))
			}
			fmt.Fprintf(&b, "| %d..%d | %s | %s | %s | %.1f | %.1f%% | %s | %s | %d (%.2f) | %s | %s | %s |\n",
				r.Min, r.Max, num(r.Zone), num(r.Alpha), num(r.Beta), s.runs, 100*s.saved(), pct(s.wrongA), pct(s.wrongF),
				s.worse, 100*s.worst, pct(s.offA), pct(s.offF), perfect(r, o.thresholds))
		}
		b.WriteString("\nA perfect agent's runs are the SPRT's passes to accept (at least min); — (n): not settled within max, so inconclusive at max; it would need n.\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// perfect is how many runs a perfectly reliable agent takes to a settled
// pass at each threshold.
func perfect(r stats.Sequential, thresholds []int) string {
	var out []string
	for _, th := range thresholds {
		n := max(ruleAt(r, th).SPRT().PassesToAccept(), r.Min)
		switch {
		case th >= 100:
			out = append(out, "never")
		case n > r.Max:
			out = append(out, fmt.Sprintf("— (%d)", n))
		default:
			out = append(out, fmt.Sprint(n))
		}
	}
	return strings.Join(out, " · ")
}

func thresholdList(ths []int) string {
	var out []string
	for _, th := range ths {
		out = append(out, fmt.Sprintf("%d%%", th))
	}
	return strings.Join(out, " · ")
}

// pct formats a fraction as a percentage with two decimals.
func pct(f float64) string { return fmt.Sprintf("%.2f%%", 100*f) }

// num formats a setting without trailing zeros.
func num(f float64) string { return fmt.Sprintf("%g", f) }
