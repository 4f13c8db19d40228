package dryrun_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/dryrun"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/stability"
)

// TestPlanQuarantine: a quarantined test's plan says so, with its entry's
// reason and place; the others' say nothing of it.
func TestPlanQuarantine(t *testing.T) {
	t.Chdir(filepath.Join("..", ".."))
	s, err := spec.Load(spec.Options{ConfigPath: filepath.Join("examples", "quickstart", "ananke.config.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	s.Tests = s.Tests[:2]
	s.Tests[0].Quarantine = &spec.Quarantine{Test: s.Tests[0].ID, Reason: "the sandbox is down", Pos: diag.Pos{File: "ananke.config.yaml", Line: 12, Col: 5}}
	var b bytes.Buffer
	err = dryrun.Write(&b, s, dryrun.Options{Parallel: 1, Policy: func(t *spec.Test) stability.Policy {
		return stability.Resolve(t.Stability, spec.Stability{}, s.Config.Stability)
	}})
	if err != nil {
		t.Fatal(err)
	}
	want := "  quarantined: the sandbox is down (ananke.config.yaml:12:5); runs and reports, never fails the run\n"
	if got := strings.Count(b.String(), "quarantined"); got != 1 || !strings.Contains(b.String(), want) {
		t.Errorf("the plan has %d quarantine lines, want one %q:\n%s", got, want, b.String())
	}
}
