package dryrun_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/dryrun"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/stability"
)

// TestPlanAdaptive: a test with adaptive runs shows its range, and the
// plan's total is a bound.
func TestPlanAdaptive(t *testing.T) {
	t.Chdir(filepath.Join("..", ".."))
	s, err := spec.Load(spec.Options{ConfigPath: filepath.Join("examples", "quickstart", "ananke.config.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	s.Tests = s.Tests[:2]
	s.Tests[0].Stability.Adaptive = &spec.RunRange{Min: 3, Max: 30}
	var b bytes.Buffer
	err = dryrun.Write(&b, s, dryrun.Options{Parallel: 1, Policy: func(t *spec.Test) stability.Policy {
		return stability.Resolve(t.Stability, spec.Stability{}, s.Config.Stability)
	}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Plan:    2 tests, at most 31 runs, parallel 1", "3–30 runs (adaptive), min pass rate 100%", "1 run, min pass rate 100%"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the plan has no %q:\n%s", want, b.String())
		}
	}
}
