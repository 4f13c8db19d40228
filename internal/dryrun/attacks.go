package dryrun

import (
	"fmt"
	"slices"

	"github.com/ananke/action/internal/attack"
	"github.com/ananke/action/internal/attack/plant"
	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/spec"
)

// attacks prints the plan of attack runs: per test chosen, each channel
// site it offers (in the selected channels), where its files write it and
// how many attack runs plant there; then the tests chosen that get none,
// and why (docs/attacks.md).
func (p *printer) attacks(s *spec.Suite, plan *attack.Plan) {
	p.line(0, "")
	var tests []*spec.Test
	for _, r := range plan.Runs {
		if !slices.Contains(tests, r.Base) {
			tests = append(tests, r.Base)
		}
	}
	p.line(0, "Attacks: %s over %s, each run once without retries, once its test passed without attack",
		plural.Count(len(plan.Runs), "attack run"), plural.Count(len(tests), "test"))
	for _, t := range s.Tests {
		sites := plan.Sites(t.ID)
		if len(sites) == 0 {
			continue
		}
		p.line(0, "")
		p.line(0, "%s  [%s]", t.Name.Value, t.ID)
		for _, site := range sites {
			where := string(site.Channel)
			if site.Site != "" && site.Channel != plant.State {
				where += " " + site.Site
			}
			at := ""
			if site.Pos.IsValid() {
				at = fmt.Sprintf("  %s:%d", site.Pos.File, site.Pos.Line)
			}
			runs := "no attack fits"
			if n := len(plan.RunsAt(t.ID, site)); n > 0 {
				runs = plural.Count(n, "attack run")
			}
			p.line(1, "%s%s  %s", where, at, runs)
		}
	}
	if len(plan.NotAttacked) > 0 {
		p.line(0, "")
		p.line(0, "Not attacked:")
		for _, n := range plan.NotAttacked {
			p.line(1, "%s  [%s]: %s", n.Name, n.Test, n.Reason)
		}
	}
}
