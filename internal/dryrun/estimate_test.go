package dryrun_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/dryrun"
	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/stability"
	"github.com/ananke/action/internal/status"
)

// TestPlanEstimate estimates each test's usage from a previous report's
// means per attempt times the runs planned, sums them, and says which
// tests have no estimate and why.
func TestPlanEstimate(t *testing.T) {
	goldenFile, err := filepath.Abs(filepath.Join("testdata", "estimate.golden.txt"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir()) // the plan names the files as written
	files := map[string]string{
		"ananke.config.yaml": "version: \"1.0\"\ntarget: {type: agui, endpoint: \"http://localhost:8000/agent\", agentId: a}\n",
		"a.ananke.yaml":      "version: \"1.0\"\nname: priced\nruns: 3\nturns: [{user: hi}]\n",
		"b.ananke.yaml":      "version: \"1.0\"\nname: unpriced\nturns: [{user: hi}]\n",
		"c.ananke.yaml":      "version: \"1.0\"\nname: brand new\nturns: [{user: hi}]\n",
		"d.ananke.yaml":      "version: \"1.0\"\nname: silent agent\nturns: [{user: hi}]\n",
		"e.ananke.yaml":      "version: \"1.0\"\nname: was skipped\nturns: [{user: hi}]\n",
		"f.ananke.yaml":      "version: \"1.0\"\nname: skipped now\nskip: later\nturns: [{user: hi}]\n",
	}
	for name, body := range files {
		if err := writeFile(name, body); err != nil {
			t.Fatal(err)
		}
	}
	s, err := spec.Load(spec.Options{ConfigPath: "ananke.config.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]string{}
	for _, x := range s.Tests {
		ids[x.Name.Value] = x.ID
	}
	f := func(v float64) *float64 { return &v }
	prev := &report.Report{Tests: []report.Test{
		{ID: ids["priced"], Status: status.Pass, PerAttempt: &report.AttemptUsage{Attempts: 2, MeanTokens: f(830), MeanCostUSD: f(0.0083)}},
		{ID: ids["unpriced"], Status: status.Fail, PerAttempt: &report.AttemptUsage{Attempts: 1, MeanTokens: f(1200)}},
		{ID: ids["silent agent"], Status: status.Pass},
		{ID: ids["was skipped"], Status: status.Skipped},
		{ID: ids["skipped now"], Status: status.Pass, PerAttempt: &report.AttemptUsage{Attempts: 1, MeanTokens: f(99), MeanCostUSD: f(1)}},
	}}
	var b bytes.Buffer
	err = dryrun.Write(&b, s, dryrun.Options{Previous: &dryrun.Previous{Report: prev, From: "ananke-report-main"},
		Policy: func(t *spec.Test) stability.Policy {
			return stability.Resolve(t.Stability, spec.Stability{}, s.Config.Stability)
		}})
	if err != nil {
		t.Fatal(err)
	}
	out := b.String()
	golden.Assert(t, goldenFile, out)
	for _, want := range []string{
		"  estimate: 2.5k tokens · $0.025 (3 runs × 830 tokens · $0.0083)\n",
		"  estimate: 1.2k tokens, cost unknown (1 run × 1.2k tokens)\n",
		"  estimate: none (not in the previous report)\n",
		"  estimate: none (usage unknown in the previous report)\n",
		"  estimate: none (skipped in the previous report)\n",
		"  total: 3.7k tokens · $0.025 (1 test priced), for 2 of 5 tests\n",
		"  no estimate for 3 tests: brand new (not in the previous report); silent agent (usage unknown in the previous report); was skipped (skipped in the previous report)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the plan lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "$1") || strings.Contains(out, "99") {
		t.Errorf("a skipped test was estimated:\n%s", out)
	}
}
