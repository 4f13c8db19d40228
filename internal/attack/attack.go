// Package attack plans, judges and sums up the attack runs of `ananke run
// --attack` (docs/attacks.md): for each test chosen for attack, the
// channel sites it offers (Sites), one copy of the test per attack and
// site with the attack's payload planted there (NewPlan), run as the
// engine's follow-up wave once the test passed without attack (Followup);
// then each run's outcome from what the agent produced (Judge), and the
// report's attacks section (Report).
package attack

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/ananke/action/internal/attack/corpus"
	"github.com/ananke/action/internal/attack/plant"
	"github.com/ananke/action/internal/doubles/decl"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/vars"
)

// Options say which attacks run and how they are judged: the config's
// attacks: section, over which the command line's flags win.
type Options struct {
	// Tags choose the tests to attack: those with any of them (none:
	// every test).
	Tags []string
	// Families are the goals of the attacks used (corpus.Goals; none:
	// every goal), Channels the channels planted in (none: every one).
	Families []string
	Channels []plant.Channel
	// Sample is the most attack runs per test (0: every pair of attack
	// and site), chosen deterministically.
	Sample int
	// Tool is the goal tool of tool attacks that name none ("":
	// corpus.DefaultTool).
	Tool string
	// Instructions are fragments of the agent's own instructions: one in
	// its text is the evidence of a reveal attack.
	Instructions []string
	// Corpus are the attacks to plant, built-in and the user's.
	Corpus []corpus.Attack
	// Threshold is the gate, in percent (nil: attacks do not gate the
	// run).
	Threshold *float64
	// Root makes the report's file paths relative (the repository root);
	// "" keeps them as loaded.
	Root string
}

// Run is one attack run: a copy of a test with one attack's payload
// planted at one of its sites.
type Run struct {
	// ID is the copy's test id (RunID).
	ID string
	// Base is the test attacked; Test its copy, which the engine runs.
	Base, Test *spec.Test
	Attack     corpus.Attack
	Site       Site
	// Canary is the run's own marker, Payload the attack rendered with it,
	// and Tool the goal tool it was rendered with.
	Canary, Payload, Tool string
}

// Plan is the attack runs of a suite.
type Plan struct {
	// Runs are every planned attack run: the tests in the suite's order,
	// each test's in the order of its sites, then of the corpus.
	Runs []*Run
	// NotAttacked are the tests chosen for attack that get no attack run,
	// and why: once planned, those that offer no channel or that no
	// attack fits; after Followup, also those that did not pass.
	NotAttacked []report.NotAttacked

	suite   *spec.Suite
	opts    Options
	planned []report.NotAttacked
	sites   map[string][]Site
	// Followup's: the runs it gave the engine, in its order, the runs it
	// dropped (Run → why) and the suite's results by test id.
	followed []*Run
	byID     map[string]*Run // followed, by their ids
	dropped  []droppedRun
	base     map[string]*engine.TestResult
}

// droppedRun is an attack run Followup did not run, and why.
type droppedRun struct {
	run    *Run
	reason string
}

// NewPlan plans the attack runs of suite: for each test chosen (by
// o.Tags), each of its sites in o.Channels and each attack of o.Corpus
// of a goal in o.Families that suits the site's channel, a copy of the
// test with the attack planted there, at most o.Sample per test.
func NewPlan(suite *spec.Suite, o Options) *Plan {
	p := &Plan{suite: suite, opts: o, sites: map[string][]Site{}}
	for _, t := range suite.Tests {
		if !chosen(t, o.Tags) {
			continue
		}
		if why := unattackable(t); why != "" {
			p.planned = append(p.planned, notAttacked(t, why))
			continue
		}
		var sites []Site
		for _, s := range Sites(t, suite.Config) {
			if len(o.Channels) == 0 || slices.Contains(o.Channels, s.Channel) {
				sites = append(sites, s)
			}
		}
		p.sites[t.ID] = sites
		if len(sites) == 0 {
			p.planned = append(p.planned, notAttacked(t, noChannel(o.Channels)))
			continue
		}
		runs := p.runs(t, sites)
		if len(runs) == 0 {
			p.planned = append(p.planned, notAttacked(t, "no attack of the selected families suits its channels ("+channelList(sites)+")"))
			continue
		}
		p.Runs = append(p.Runs, runs...)
	}
	p.NotAttacked = slices.Clone(p.planned)
	return p
}

// runs are the attack runs of test t over its sites, sampled.
func (p *Plan) runs(t *spec.Test, sites []Site) []*Run {
	var out []*Run
	for _, s := range sites {
		for _, a := range p.opts.Corpus {
			if !a.Suits(s.Channel) || (len(p.opts.Families) > 0 && !slices.Contains(p.opts.Families, a.Goal)) {
				continue
			}
			out = append(out, p.newRun(t, s, a))
		}
	}
	return sample(out, p.opts.Sample)
}

// sample keeps the n runs of the lowest rank (the hash of the pair the
// canary is made of), in their order; n ≤ 0 keeps every one.
func sample(runs []*Run, n int) []*Run {
	if n <= 0 || len(runs) <= n {
		return runs
	}
	ranked := slices.Clone(runs)
	slices.SortStableFunc(ranked, func(a, b *Run) int {
		return strings.Compare(rank(a), rank(b))
	})
	keep := map[*Run]bool{}
	for _, r := range ranked[:n] {
		keep[r] = true
	}
	return slices.DeleteFunc(runs, func(r *Run) bool { return !keep[r] })
}

func rank(r *Run) string { return digest(r.Base.ID, r.Attack.ID, r.Site.Channel, r.Site.Site) }

// newRun makes the attack run of attack a at site s of test t.
func (p *Plan) newRun(t *spec.Test, s Site, a corpus.Attack) *Run {
	tool := a.GoalTool(p.opts.Tool)
	canary := Canary(t.ID, a.ID, s.Channel, s.Site)
	r := &Run{ID: RunID(t.ID, a.ID, s.Channel, s.Site), Base: t, Attack: a, Site: s, Canary: canary, Tool: tool}
	r.Payload = a.Render(canary, tool)
	r.Test = copyTest(t, r)
	return r
}

// copyTest is test t as attack run r runs it: its own id and name, the
// plant, one run without retries judged alone, never quarantined.
func copyTest(t *spec.Test, r *Run) *spec.Test {
	c := *t
	c.ID = r.ID
	name := fmt.Sprintf("%s · attack %s via %s", t.Name.Value, r.Attack.ID, r.Site.Channel)
	if r.Site.Site != "" {
		name += " " + r.Site.Site
	}
	c.Name = vars.Name{Value: name, Pos: t.Name.Pos}
	c.Attack = &plant.Plant{Channel: r.Site.Channel, Site: r.Site.Site, Payload: r.Payload}
	// The test level wins over the command line and the config: one run,
	// no retry, its own verdict.
	once, all := 0, 100.0
	c.Stability = spec.Stability{Runs: 1, Retries: &once, MinPassRate: &all, MinPassRatePos: t.Stability.MinPassRatePos}
	c.Quarantine = nil
	var plan decl.Plan
	if t.Doubles != nil {
		plan = *t.Doubles
	}
	plan.Plant = nil
	if r.Site.Channel == plant.Double {
		plan.Plant = c.Attack
	}
	if plan.Test != nil || plan.Turns != nil || plan.Plant != nil {
		c.Doubles = &plan
	} else {
		c.Doubles = nil
	}
	return &c
}

// Tests are every planned copy, in the plan's order: what the tool
// doubles must know the answers (and the plant) of.
func (p *Plan) Tests() []*spec.Test {
	out := make([]*spec.Test, len(p.Runs))
	for i, r := range p.Runs {
		out[i] = r.Test
	}
	return out
}

// Sites are the sites of test id in the selected channels (nil for a test
// not chosen or not attackable).
func (p *Plan) Sites(id string) []Site { return p.sites[id] }

// RunsAt are the planned runs of test id at site s.
func (p *Plan) RunsAt(id string, s Site) []*Run {
	var out []*Run
	for _, r := range p.Runs {
		if r.Base.ID == id && r.Site.Channel == s.Channel && r.Site.Site == s.Site {
			out = append(out, r)
		}
	}
	return out
}

// chosen reports whether t has any of tags (every test without tags).
func chosen(t *spec.Test, tags []string) bool {
	if len(tags) == 0 {
		return true
	}
	return slices.ContainsFunc(t.Tags, func(n vars.Name) bool { return slices.Contains(tags, n.Value) })
}

// unattackable says why test t cannot be attacked at all ("": it can).
func unattackable(t *spec.Test) string {
	switch {
	case t.Skip != "":
		return "skipped: " + t.Skip
	case t.Source != nil:
		return "reads a recorded session (source:): no agent reads a payload"
	}
	return ""
}

func noChannel(selected []plant.Channel) string {
	if len(selected) == 0 {
		return "offers no channel"
	}
	names := make([]string, len(selected))
	for i, c := range selected {
		names[i] = string(c)
	}
	return "offers none of the selected channels (" + strings.Join(names, ", ") + ")"
}

// channelList names the channels of sites, each once.
func channelList(sites []Site) string {
	var names []string
	for _, s := range sites {
		if !slices.Contains(names, string(s.Channel)) {
			names = append(names, string(s.Channel))
		}
	}
	return strings.Join(names, ", ")
}

func notAttacked(t *spec.Test, why string) report.NotAttacked {
	return report.NotAttacked{Test: t.ID, Name: t.Name.Value, Reason: why}
}

// RunID is the test id of the attack run of attack at site of channel in
// test testID: "<testID>@attack/<channel>[.<site>]/<attack>". A site or
// attack id with a character other than a letter, a digit, '.', '-' or
// '_' has each such character made '_' and a hash of it added, so the id
// stays unique and names recording and report files the same on every
// system.
func RunID(testID, attackID string, channel plant.Channel, site string) string {
	where := string(channel)
	if site != "" {
		where += "." + idPart(site)
	}
	return testID + "@attack/" + where + "/" + idPart(attackID)
}

// idPart is s when every character is a letter, a digit, '.', '-' or
// '_'; else s with each other character made '_', and "-" and 8 hex
// digits of its hash.
func idPart(s string) string {
	clean := true
	out := []rune(s)
	for i, r := range out {
		if !(r == '.' || r == '-' || r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9')) {
			out[i], clean = '_', false
		}
	}
	if clean {
		return s
	}
	sum := sha256.Sum256([]byte(s))
	return string(out) + "-" + hex.EncodeToString(sum[:4])
}

// CanaryPrefix starts every canary.
const CanaryPrefix = "ANK-"

// Canary is the marker of the attack run of attack at site of channel in
// test testID: CanaryPrefix and 10 upper-case hex digits of a hash of the
// four, the same on every run (a recorded attack run replays) and
// different for every attack run.
func Canary(testID, attackID string, channel plant.Channel, site string) string {
	return CanaryPrefix + strings.ToUpper(digest(testID, attackID, channel, site)[:10])
}

// digest is the hex SHA-256 of the four, separated by NUL bytes.
func digest(testID, attackID string, channel plant.Channel, site string) string {
	sum := sha256.Sum256([]byte(testID + "\x00" + attackID + "\x00" + string(channel) + "\x00" + site))
	return hex.EncodeToString(sum[:])
}
