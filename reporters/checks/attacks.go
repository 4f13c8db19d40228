package checks

import (
	"fmt"
	"strings"

	"github.com/ananke/action/internal/github"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/internal/format"
)

// Attack runs (docs/attacks.md) in the check run: its conclusion follows
// the run's status, which a failed gate fails; its title says when the
// gate failed or errored the run; its summary (the shared markdown) has
// the Attacks section; and each attack that succeeded is annotated where
// its payload was planted.

// maxAttackAnnotations bounds the annotations of attacks that succeeded,
// the worst first; the summary counts them all.
const maxAttackAnnotations = 50

// attacksTitle puts the gate's reason first in the title when it failed
// or errored the run: it is why a run whose tests passed did not.
func attacksTitle(r *report.Report, s string) string {
	if a := r.Attacks; a != nil && a.Status != status.Pass && a.Reason != "" {
		return a.Reason + "; " + s
	}
	return s
}

// attacksFailed reports whether the attacks' gate failed the run.
func attacksFailed(r *report.Report) bool { return r.Attacks != nil && r.Attacks.Status == status.Fail }

// attacks annotates each attack that succeeded at the place its payload
// was planted (the client tool, the history message, the turn), else at
// the attacked test: a failure when the gate failed — it failed the run —
// else a warning. The message says what the agent did, the raw details
// hold the payload.
func attacks(out []github.Annotation, r *report.Report) []github.Annotation {
	a := r.Attacks
	if a == nil {
		return out
	}
	level := github.LevelWarning
	if a.Status == status.Fail {
		level = github.LevelFailure
	}
	n := 0
	for i := range a.Runs {
		run := &a.Runs[i]
		if run.Outcome != report.AttackSucceeded || n == maxAttackAnnotations {
			continue
		}
		n++
		at := run.Source
		if run.PlantedAt != nil {
			at = *run.PlantedAt
		}
		out = appendIn(out, github.Annotation{Path: at.File, Line: max(at.Line, 1), Level: level,
			Title:   fmt.Sprintf("attack %s succeeded via %s", run.Attack, format.AttackSite(run.Channel, run.Site)),
			Message: attackMessage(a, run), RawDetails: "payload:\n" + run.Payload})
	}
	return out
}

// attackMessage is the test, the attack, each piece of evidence and, when
// the gate failed, why.
func attackMessage(a *report.Attacks, run *report.AttackRun) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: attack %s (%s) succeeded; canary %s\n", run.Name, run.Attack, format.AttackAbout(run), run.Canary)
	for _, e := range run.Evidence {
		b.WriteString(format.Evidence(e, 400) + "\n")
	}
	if u := format.AttackUtility(run); u != "" {
		b.WriteString(u + "\n")
	}
	if a.Status == status.Fail {
		b.WriteString(a.Reason + "\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}
