package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/variants"
	"github.com/ananke/action/reporters/diff"
)

// variantRun is one run of the suite: under a variant (name set), or the
// plain config.
type variantRun struct {
	name  string
	suite *spec.Suite
}

// selectVariants resolves --variant and --variants into the config's
// variants to run, in the config's order; nil without those flags.
func selectVariants(cfg *spec.Config, named []string, all string) ([]*spec.Variant, error) {
	switch {
	case all != "" && all != "all":
		return nil, invalidf("run", "--variants %q: write --variants all, or name each with --variant", all)
	case all != "" && len(named) > 0:
		return nil, invalidf("run", "--variants all runs every variant; remove --variant")
	case all == "" && len(named) == 0:
		return nil, nil
	case len(cfg.Variants) == 0:
		return nil, invalidf("run", "the config declares no variants: (docs/variants.md)")
	}
	var names []string
	for _, v := range cfg.Variants {
		names = append(names, v.Name)
	}
	for _, n := range named {
		if !slices.Contains(names, n) {
			return nil, invalidf("run", "--variant %q: the config's variants are %s", n, strings.Join(names, ", "))
		}
	}
	var out []*spec.Variant
	for _, v := range cfg.Variants {
		if all != "" || slices.Contains(named, v.Name) {
			out = append(out, v)
		}
	}
	return out, nil
}

// variantRuns are the runs of the suite, one per variant: its config's
// target the variant's, its runs, min_pass_rate and retries over the
// config's, each test's id qualified by the variant (report.VariantID).
// Without variants, the suite alone.
func variantRuns(suite *spec.Suite, vs []*spec.Variant) []variantRun {
	if len(vs) == 0 {
		return []variantRun{{suite: suite}}
	}
	out := make([]variantRun, 0, len(vs))
	for _, v := range vs {
		cfg := *suite.Config
		if v.Target != nil {
			cfg.Target = *v.Target
			if !slices.Contains(v.Overrides, "endpoint") {
				// --endpoint reaches the variants that keep the
				// config's endpoint.
				cfg.Target.Endpoint = suite.Config.Target.Endpoint
			}
		}
		cfg.Stability = overStability(cfg.Stability, v.Stability)
		s := *suite
		s.Config = &cfg
		s.Tests = make([]*spec.Test, len(suite.Tests))
		for i, t := range suite.Tests {
			c := *t
			c.ID = report.VariantID(t.ID, v.Name)
			s.Tests[i] = &c
		}
		out = append(out, variantRun{name: v.Name, suite: &s})
	}
	return out
}

// overStability is base with each field over sets.
func overStability(base, over spec.Stability) spec.Stability {
	if over.RunsSet() {
		base.Runs, base.Adaptive = over.Runs, over.Adaptive
	}
	if over.MinPassRate != nil {
		base.MinPassRate, base.MinPassRatePos = over.MinPassRate, over.MinPassRatePos
	}
	if over.Retries != nil {
		base.Retries = over.Retries
	}
	return base
}

// allVariants is one suite of every run's tests: what the backend serves
// and a recording keeps.
func allVariants(runs []variantRun) *spec.Suite {
	if len(runs) == 1 {
		return runs[0].suite
	}
	s := *runs[0].suite
	s.Tests = nil
	for _, r := range runs {
		s.Tests = append(s.Tests, r.suite.Tests...)
	}
	return &s
}

// markVariants sets each test's variant in a report merged from the
// variants' runs.
func markVariants(r *report.Report, runs []variantRun) {
	of := map[string]string{}
	for _, run := range runs {
		for _, t := range run.suite.Tests {
			of[t.ID] = run.name
		}
	}
	for i := range r.Tests {
		r.Tests[i].Variant = of[r.Tests[i].ID]
	}
}

// variantHeader is the line before a variant's live lines.
func variantHeader(run variantRun, vs []*spec.Variant) string {
	for _, v := range vs {
		if v.Name == run.name && len(v.Overrides) > 0 {
			return fmt.Sprintf("Variant %s (%s)", v.Name, strings.Join(v.Overrides, ", "))
		}
	}
	return "Variant " + run.name
}

// compared is the run's report: the one part without variants; else the
// variants' parts merged, each test marked with its variant, and their
// comparison.
func (a *app) compared(parts []*report.Report, runs []variantRun, vs []*spec.Variant) (*report.Report, error) {
	if len(vs) == 0 {
		return parts[0], nil
	}
	r, err := report.Merge(parts)
	if err != nil {
		return nil, errorf("", "merge the variants' reports: %v", err)
	}
	markVariants(r, runs)
	names := make([]string, len(vs))
	for i, v := range vs {
		names[i] = v.Name
	}
	r.Variants = variants.Compare(r, names, diff.DefaultSignificance)
	for i := range r.Variants.Variants {
		for _, v := range vs {
			if v.Name == r.Variants.Variants[i].Name {
				r.Variants.Variants[i].Overrides = strings.Join(v.Overrides, ", ")
			}
		}
	}
	return r, nil
}

// compareAgain compares the variants of a merged report again, from its
// tests (each part's comparison saw only its own variants); the
// variants' overrides are kept from the parts. Nothing without variants.
func compareAgain(m *report.Report, parts []*report.Report) {
	// The variants in the parts' order, each part's in its own.
	var names []string
	add := func(name string) {
		if name != "" && !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	for _, p := range parts {
		if p.Variants != nil {
			for _, v := range p.Variants.Variants {
				add(v.Name)
			}
		}
		for _, t := range p.Tests {
			add(t.Variant)
		}
	}
	if len(names) == 0 {
		return
	}
	overrides := map[string]string{}
	for _, p := range parts {
		if p.Variants != nil {
			for _, v := range p.Variants.Variants {
				overrides[v.Name] = v.Overrides
			}
		}
	}
	m.Variants = variants.Compare(m, names, diff.DefaultSignificance)
	for i := range m.Variants.Variants {
		m.Variants.Variants[i].Overrides = overrides[m.Variants.Variants[i].Name]
	}
}

// variantModels is the gateway's model for each test of a variant that
// sets gateway.model (by its qualified id); nil when none does.
func variantModels(runs []variantRun, vs []*spec.Variant) func(testID string) string {
	models := map[string]string{}
	for i, run := range runs {
		if run.name == "" || vs[i].GatewayModel == "" {
			continue
		}
		for _, t := range run.suite.Tests {
			models[t.ID] = vs[i].GatewayModel
		}
	}
	if len(models) == 0 {
		return nil
	}
	return func(id string) string { return models[id] }
}
