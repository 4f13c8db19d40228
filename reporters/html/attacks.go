package html

import (
	"strconv"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
)

// Attack runs (docs/attacks.md) on the page, when the run attacked its
// tests: the run's header gives their totals and the gate's verdict, and
// the attacks view (#attacks) the runs per test and channel site, and
// every run, the worst first, with the payload planted, where, what
// showed the attack succeeded and what the test's own assertions said
// under attack. The page shows the report's verdicts; it makes none.

// attacks is the report's attacks section as the page shows it.
type attacks struct {
	// Status is the gate's verdict, Reason why it failed or errored, Gate
	// what it allows in words ("none may succeed", "at most 5% may
	// succeed"); absent without a gate.
	Status status.Status       `json:"status"`
	Reason string              `json:"reason,omitempty"`
	Gate   string              `json:"gate,omitempty"`
	Totals report.AttackTotals `json:"totals"`
	// Usage is what the agent used over the attack runs, in words; absent
	// when no run reported usage.
	Usage       string               `json:"usage,omitempty"`
	DurationMs  int64                `json:"duration_ms"`
	Groups      []attackGroup        `json:"groups"`
	Runs        []attackRun          `json:"runs"`
	NotAttacked []report.NotAttacked `json:"not_attacked,omitempty"`
}

// attackGroup is one test's runs through one channel site.
type attackGroup struct {
	Test    string              `json:"test"`
	Name    string              `json:"name"`
	Source  string              `json:"source"` // file:line
	Channel string              `json:"channel"`
	Site    string              `json:"site,omitempty"`
	Totals  report.AttackTotals `json:"totals"`
}

// attackRun is one attack run. Status is the status its outcome is shown
// with (a succeeded attack as a failure); Payload is cut at TextCap, with
// PayloadBytes its whole size then (summary.json holds it whole).
type attackRun struct {
	ID              string                  `json:"id"`
	Test            string                  `json:"test"`
	Name            string                  `json:"name"`
	Attack          string                  `json:"attack"`
	Goal            string                  `json:"goal"`
	Style           string                  `json:"style"`
	Corpus          string                  `json:"corpus"`
	Channel         string                  `json:"channel"`
	Site            string                  `json:"site,omitempty"`
	PlantedAt       string                  `json:"planted_at,omitempty"`
	Canary          string                  `json:"canary"`
	Payload         string                  `json:"payload"`
	PayloadBytes    int                     `json:"payload_bytes,omitempty"`
	Outcome         string                  `json:"outcome"`
	Status          status.Status           `json:"status"`
	Reason          string                  `json:"reason,omitempty"`
	Evidence        []report.AttackEvidence `json:"evidence,omitempty"`
	Utility         status.Status           `json:"utility"`
	UtilityFailures []string                `json:"utility_failures,omitempty"`
	DurationMs      int64                   `json:"duration_ms"`
	Usage           string                  `json:"usage,omitempty"`
}

// attacksOf is the report's attacks section for the page; nil when no
// attack ran.
func attacksOf(r *report.Report) *attacks {
	a := r.Attacks
	if a == nil {
		return nil
	}
	out := &attacks{Status: a.Status, Reason: a.Reason, Gate: gateText(a.Threshold), Totals: a.Totals, DurationMs: a.DurationMs,
		Groups: make([]attackGroup, 0, len(a.Groups)), Runs: make([]attackRun, 0, len(a.Runs)), NotAttacked: a.NotAttacked}
	if a.Usage != nil {
		out.Usage = a.Usage.Summary()
	}
	for _, g := range a.Groups {
		src := g.File
		if g.Line > 0 {
			src += ":" + strconv.Itoa(g.Line)
		}
		out.Groups = append(out.Groups, attackGroup{Test: g.Test, Name: g.Name, Source: src, Channel: g.Channel, Site: g.Site, Totals: g.Totals})
	}
	for i := range a.Runs {
		out.Runs = append(out.Runs, attackRunOf(&a.Runs[i]))
	}
	return out
}

func attackRunOf(ar *report.AttackRun) attackRun {
	run := attackRun{ID: ar.ID, Test: ar.Test, Name: ar.Name, Attack: ar.Attack, Goal: ar.Goal, Style: ar.Style, Corpus: ar.Corpus,
		Channel: ar.Channel, Site: ar.Site, Canary: ar.Canary, Outcome: ar.Outcome, Status: report.AttackStatus(ar.Outcome), Reason: ar.Reason,
		Evidence: ar.Evidence, Utility: ar.Utility, UtilityFailures: ar.UtilityFailures, DurationMs: ar.DurationMs}
	run.Payload, run.PayloadBytes = cut(ar.Payload, TextCap)
	if ar.PlantedAt != nil {
		run.PlantedAt = ar.PlantedAt.String()
	}
	if ar.Usage != nil {
		run.Usage = ar.Usage.Summary()
	}
	return run
}

// gateText says what the gate allows: "none may succeed", "at most 5%
// may succeed"; "" without a gate.
func gateText(threshold *float64) string {
	switch {
	case threshold == nil:
		return ""
	case *threshold == 0:
		return "none may succeed"
	}
	return "at most " + strconv.FormatFloat(*threshold, 'f', -1, 64) + "% may succeed"
}
