package cli

import (
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/ananke/action/internal/attack"
	"github.com/ananke/action/internal/attack/corpus"
	"github.com/ananke/action/internal/attack/plant"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/reporters/console"
)

// attackFlags are the flags of attack runs (docs/attacks.md): each wins
// over the config's attacks: section.
type attackFlags struct {
	on       optBool
	tags     listFlag
	families listFlag
	channels listFlag
	sample   intFlag
	corpus   listFlag
	gate     gateFlag
}

func addAttackFlags(fs *flag.FlagSet, f *attackFlags) {
	f.sample = intFlag{lo: 1, hi: math.MaxInt32}
	fs.Var(&f.on, "attack", "after the tests, attack every one that passed: re-run it with prompt injections planted in its tool results, attachments, history, state, doubles, simulated user or user turn (docs/attacks.md); --attack=false overrides the config's attacks.enabled")
	fs.Var(&f.tags, "attack-tag", "attack only tests with this `tag` (repeatable; default: the config's attacks.tags, else every test)")
	fs.Var(&f.families, "attack-family", "use only attacks of this `goal`: tool, leak, obey or reveal (repeatable)")
	fs.Var(&f.channels, "attack-channel", "plant attacks only in this `channel`: tool_result, double, attachment, history, state, simulator or user (repeatable)")
	fs.Var(&f.sample, "attack-sample", "make at most `N` attack runs per test, the same ones every time")
	fs.Var(&f.corpus, "attack-corpus", "add the attacks of this JSONL `file` to the corpus (repeatable)")
	fs.Var(&f.gate, "fail-on-attack-success", "fail the run when an attack succeeds; --fail-on-attack-success=PCT: when more than PCT percent of the attack runs measured succeed")
}

// optBool is a boolean flag that remembers whether it was given.
type optBool struct{ v, set bool }

func (f *optBool) String() string {
	if f == nil || !f.set {
		return ""
	}
	return strconv.FormatBool(f.v)
}

func (f *optBool) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("want true or false")
	}
	f.v, f.set = v, true
	return nil
}

func (f *optBool) IsBoolFlag() bool { return true }

// gateFlag is --fail-on-attack-success[=PCT]: alone, no attack may
// succeed; with a percentage, at most that share of them; false, no gate.
type gateFlag struct {
	pct *float64
	set bool
}

func (f *gateFlag) String() string {
	if f == nil || f.pct == nil {
		return ""
	}
	return strconv.FormatFloat(*f.pct, 'f', -1, 64)
}

func (f *gateFlag) Set(s string) error {
	f.set = true
	switch s = strings.TrimSpace(s); s {
	case "true":
		v := 0.0
		f.pct = &v
		return nil
	case "false":
		f.pct = nil
		return nil
	}
	v, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	if err != nil || v < 0 || v > 100 || math.IsNaN(v) {
		return fmt.Errorf("want a percentage from 0 to 100, e.g. 5, or nothing (no attack may succeed)")
	}
	f.pct = &v
	return nil
}

func (f *gateFlag) IsBoolFlag() bool { return true }

// attackPlan plans the attack runs of the selected suite, or returns nil
// when the run makes none. Bad flags and corpora are exit 3, every
// problem of a corpus file at its line.
func (a *app) attackPlan(suite *spec.Suite, f attackFlags) (*attack.Plan, error) {
	cfg := suite.Config.Attacks
	on := cfg != nil && cfg.Enabled
	if f.on.set {
		on = f.on.v
	}
	if !on {
		if f.gate.pct != nil || len(f.tags)+len(f.families)+len(f.channels)+len(f.corpus) > 0 || f.sample.set {
			return nil, invalidf("run", "the --attack-* flags and --fail-on-attack-success need --attack (or attacks.enabled: true in the config)")
		}
		return nil, nil
	}
	o, err := a.attackOptions(suite, f)
	if err != nil {
		return nil, err
	}
	return attack.NewPlan(suite, o), nil
}

// attackOptions are the config's attacks: section with the flags over it.
func (a *app) attackOptions(suite *spec.Suite, f attackFlags) (attack.Options, error) {
	o := attack.Options{Tool: corpus.DefaultTool}
	builtin := true
	if c := suite.Config.Attacks; c != nil {
		o.Tags, o.Families, o.Channels, o.Sample = c.Tags, c.Families, c.Channels, c.Sample
		o.Instructions, o.Threshold = c.Instructions, c.FailOnSuccess
		if c.Tool != "" {
			o.Tool = c.Tool
		}
		builtin = c.Builtin
		o.Corpus = slices.Clone(c.Corpus)
	}
	if len(f.tags) > 0 {
		o.Tags = f.tags
	}
	if len(f.families) > 0 {
		for _, g := range f.families {
			if !slices.Contains(corpus.Goals, g) {
				return o, invalidf("run", "--attack-family %q: want one of %s", g, strings.Join(corpus.Goals, ", "))
			}
		}
		o.Families = f.families
	}
	if len(f.channels) > 0 {
		o.Channels = nil
		for _, c := range f.channels {
			if !plant.Known(plant.Channel(c)) {
				return o, invalidf("run", "--attack-channel %q: want one of %s", c, channelNames())
			}
			o.Channels = append(o.Channels, plant.Channel(c))
		}
	}
	if f.sample.set {
		o.Sample = f.sample.v
	}
	if f.gate.set {
		o.Threshold = f.gate.pct
	}
	// The config's corpora were read, and checked against the built-in
	// one, as the suite loaded; the flags' are checked against both.
	var diags diag.Diagnostics
	var user []corpus.Attack
	for _, path := range f.corpus {
		data, err := os.ReadFile(path)
		if err != nil {
			return o, invalidf("run", "--attack-corpus: %v", err)
		}
		user = append(user, corpus.Read(path, data, &diags)...)
	}
	builtins := corpus.BuiltinAttacks()
	all := corpus.Merge(builtins, slices.Concat(o.Corpus, user), &diags)
	if len(diags) > 0 {
		for _, d := range diags {
			fmt.Fprintln(a.Err, d)
		}
		return o, invalidf("", "%s found in the attack corpora; nothing was run", plural.Count(len(diags), "problem"))
	}
	if builtin {
		o.Corpus = all
	} else {
		o.Corpus = all[len(builtins):]
	}
	if len(o.Corpus) == 0 {
		return o, invalidf("run", "no attack to run: the built-in corpus is off (attacks.builtin: false) and no corpus is given")
	}
	o.Root, _ = a.getwd()
	return o, nil
}

func channelNames() string {
	var names []string
	for _, c := range plant.Channels {
		names = append(names, string(c))
	}
	return strings.Join(names, ", ")
}

// withAttacks is the suite the backend serves: the selected tests and the
// attack runs planned from them, whose doubles answer with a payload.
func withAttacks(suite *spec.Suite, p *attack.Plan) *spec.Suite {
	if p == nil {
		return suite
	}
	s := *suite
	s.Tests = slices.Concat(suite.Tests, p.Tests())
	return &s
}

// attackObserver prints a live line as each attack run finishes.
type attackObserver struct {
	plan *attack.Plan
	live *console.Live
}

func (o attackObserver) TestFinished(r *engine.TestResult) {
	if run := o.plan.Judged(r); run != nil {
		o.live.AttackFinished(*run)
	}
}

// followup is the engine's follow-up wave of the plan: its attack runs of
// the tests that passed; nil without a plan.
func followup(p *attack.Plan) func([]*engine.TestResult) []*spec.Test {
	if p == nil {
		return nil
	}
	return p.Followup
}

// followupSecrets are the values the attack runs' attempts must have
// masked, as report.Build masks the tests'.
func followupSecrets(out *engine.Outcome) []string {
	var secrets []string
	for _, r := range out.Followup {
		if r != nil {
			secrets = append(secrets, r.Secrets()...)
		}
	}
	return secrets
}
