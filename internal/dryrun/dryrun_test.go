package dryrun_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/dryrun"
	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/stability"
)

// TestPlan prints the quickstart's plan (hooks, server, variables, turns
// with inherited assertions), one test run three times, and a skipped test.
func TestPlan(t *testing.T) {
	t.Chdir(filepath.Join("..", "..")) // paths as a user in the repository root sees them
	s, err := spec.Load(spec.Options{ConfigPath: filepath.Join("examples", "quickstart", "ananke.config.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	s.Tests[1].Stability.Runs = 3
	s.Tests[4].Skip = "planned skip"
	var b bytes.Buffer
	err = dryrun.Write(&b, s, dryrun.Options{Parallel: 2, Selected: "shard 1/2", Of: 12,
		Policy: func(t *spec.Test) stability.Policy {
			return stability.Resolve(t.Stability, spec.Stability{}, s.Config.Stability)
		}})
	if err != nil {
		t.Fatal(err)
	}
	golden.Assert(t, "internal/dryrun/testdata/quickstart.golden.txt", b.String())
	for _, want := range []string{"Dry run:", "${CITY}", "(turn[0].tools.require[0])", "3 runs, min pass rate 100%", "skipped: planned skip"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the plan has no %q", want)
		}
	}
}

// TestPlanHidesSecrets: ${ENV.*} values are never resolved into the plan.
func TestPlanHidesSecrets(t *testing.T) {
	t.Setenv("PLAN_TOKEN", "tok-secret-value")
	dir := t.TempDir()
	files := map[string]string{
		"ananke.config.yaml": "version: \"1.0\"\ntarget: {type: agui, endpoint: \"http://x/${ENV.PLAN_TOKEN}\", agentId: a, headers: {Authorization: \"${ENV.PLAN_TOKEN}\"}}\n",
		"t.ananke.yaml":      "version: \"1.0\"\nname: t\nturns: [{user: \"key ${ENV.PLAN_TOKEN}\", assert: {text: {must_match: \"${ENV.PLAN_TOKEN}\"}}}]\n",
	}
	for name, body := range files {
		if err := writeFile(filepath.Join(dir, name), body); err != nil {
			t.Fatal(err)
		}
	}
	s, err := spec.Load(spec.Options{ConfigPath: filepath.Join(dir, "ananke.config.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := dryrun.Write(&b, s, dryrun.Options{Policy: func(*spec.Test) stability.Policy { return stability.Resolve() }}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "tok-secret-value") || !strings.Contains(b.String(), "${ENV.PLAN_TOKEN}") {
		t.Errorf("plan:\n%s", b.String())
	}
}
