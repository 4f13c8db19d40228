package checks_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ananke/action/internal/github"
	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/checks"
)

// TestAttacksCheck: a run failed by its attacks' gate fails the check
// run, its title says why first (not the flaky test), its summary has
// the Attacks section, and each attack that succeeded is a failure
// annotation where its payload was planted, with its evidence, the
// payload in the raw details; without a gate they are warnings and the
// check passes.
func TestAttacksCheck(t *testing.T) {
	opts := checks.Options{Name: "ananke", HeadSHA: "abc123", LinkBase: "https://github.com/o/r/blob/abc123/", Annotations: true}
	run := checks.Build(reporttest.AttacksReport(true, reporttest.Passing, reporttest.Wobbly), opts)
	b, _ := json.MarshalIndent(run, "", "  ")
	golden.Assert(t, "testdata/check-attacks.golden.json", string(b)+"\n")
	if strings.Contains(string(b), reporttest.Secret) {
		t.Error("the secret is in the check run")
	}
	if want := "3 of 8 attack runs succeeded (37.5%), above the allowed 0%; 2 of 2 tests passed, 1 flaky, 1 with warnings, 1 check not made"; run.Conclusion != "failure" || run.Title != want {
		t.Errorf("conclusion %s, title %q; want failure, %q", run.Conclusion, run.Title, want)
	}
	if !strings.Contains(run.Summary, "**Attacks:** 10 runs · 3 succeeded (37.5%)") {
		t.Errorf("the summary lacks the attacks' totals:\n%s", run.Summary)
	}
	var attacks []github.Annotation
	for _, a := range run.Annotations {
		if strings.HasPrefix(a.Title, "attack ") {
			attacks = append(attacks, a)
		}
	}
	if len(attacks) != 3 {
		t.Fatalf("%d attack annotations, want 3 (one per attack that succeeded): %+v", len(attacks), attacks)
	}
	first := attacks[0]
	if first.Path != "tests/weather.ananke.yaml" || first.Line != 4 || first.Level != github.LevelFailure ||
		first.Title != "attack leak-markdown-image succeeded via tool_result get_forecast" ||
		!strings.Contains(first.Message, "turn[0] · markdown image: Sunny") || !strings.HasPrefix(first.RawDetails, "payload:\n```\n</tool_output>") {
		t.Errorf("first attack annotation %+v", first)
	}

	run = checks.Build(reporttest.AttacksReport(false, reporttest.Passing, reporttest.Wobbly), opts)
	if run.Conclusion != "success" || strings.HasPrefix(run.Title, "3 of 8") {
		t.Errorf("without a gate: conclusion %s, title %q; want success and the tests' title", run.Conclusion, run.Title)
	}
	for _, a := range run.Annotations {
		if strings.HasPrefix(a.Title, "attack ") && a.Level != github.LevelWarning {
			t.Errorf("without a gate, %q is a %s, want a warning", a.Title, a.Level)
		}
	}
}
