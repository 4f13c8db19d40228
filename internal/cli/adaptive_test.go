package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/github/artifact/artifacttest"
	"github.com/ananke/action/internal/github/githubtest"
	"github.com/ananke/action/internal/spec"
)

// TestRunsFlag: --runs takes N or MIN..MAX within 1 to 1000, and says
// which it wants.
func TestRunsFlag(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want spec.Stability
		err  string
	}{
		{"5", spec.Stability{Runs: 5}, ""},
		{"3..30", spec.Stability{Adaptive: &spec.RunRange{Min: 3, Max: 30}}, ""},
		{"2..2", spec.Stability{Adaptive: &spec.RunRange{Min: 2, Max: 2}}, ""},
		{"0", spec.Stability{}, "want a whole number from 1 to 1000"},
		{"0..3", spec.Stability{}, "want MIN..MAX with 1 <= MIN <= MAX <= 1000, e.g. 3..30"},
		{"5..3", spec.Stability{}, "want MIN..MAX with 1 <= MIN <= MAX <= 1000, e.g. 3..30"},
		{"3..1001", spec.Stability{}, "want MIN..MAX with 1 <= MIN <= MAX <= 1000, e.g. 3..30"},
		{"3..", spec.Stability{}, "want MIN..MAX with 1 <= MIN <= MAX <= 1000, e.g. 3..30"},
		{"3-30", spec.Stability{}, "want a whole number from 1 to 1000"},
	} {
		var f runsFlag
		err := f.Set(tc.in)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("Set(%q) = %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		var got spec.Stability
		f.level(&got)
		if err != nil || got.Runs != tc.want.Runs || (got.Adaptive == nil) != (tc.want.Adaptive == nil) ||
			got.Adaptive != nil && *got.Adaptive != *tc.want.Adaptive || f.String() != tc.in {
			t.Errorf("Set(%q): %v, level %+v, String %q", tc.in, err, got, f.String())
		}
	}
}

// TestRunAdaptive: the flaky example's coin alternates, failing first.
// --runs 1..10 at 100% settles a failure after its first run; at 50% the
// alternation never settles, so the test is inconclusive at its maximum —
// a pass unless --fail-on-inconclusive; summary.json says so, and
// matches the schema.
func TestRunAdaptive(t *testing.T) {
	dir := copySuite(t, "flaky")
	for _, tc := range []struct {
		name         string
		args         []string
		exit         int
		status       string
		runs         int
		stop         string
		inconclusive bool
		line         string
	}{
		{"settles a failure", []string{"--runs", "1..10"}, ExitFail, "fail", 1, "settled_fail", false, "· 0/1 run (0%, 95% CI 0–79%) · settled: fail"},
		{"inconclusive pass", []string{"--runs", "1..4", "--min-pass-rate", "50"}, ExitPass, "pass", 4, "max_runs", true, "· 2/4 runs (50%, 95% CI 15–85%) · flaky · ? inconclusive"},
		{"fail on inconclusive", []string{"--runs", "1..4", "--min-pass-rate", "50", "--fail-on-inconclusive"}, ExitFail, "pass", 4, "max_runs", true,
			"Inconclusive tests fail the run (--fail-on-inconclusive)."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "report")
			r := run(t, dir, nil, append([]string{"run", "--report-dir", out}, tc.args...)...)
			if r.code != tc.exit || !strings.Contains(plain(r.out), tc.line) {
				t.Fatalf("exit %d (want %d), stdout lacks %q:\n%s%s", r.code, tc.exit, tc.line, r.out, r.errOut)
			}
			var s struct {
				Totals struct {
					Adaptive struct {
						Runs         int `json:"runs"`
						MaxRuns      int `json:"max_runs"`
						RunsSaved    int `json:"runs_saved"`
						Inconclusive int `json:"inconclusive"`
					} `json:"adaptive"`
				} `json:"totals"`
				Tests []struct {
					Status       string `json:"status"`
					Runs         int    `json:"runs"`
					Inconclusive bool   `json:"inconclusive"`
					Adaptive     struct {
						StopReason string `json:"stop_reason"`
						MaxRuns    int    `json:"max_runs"`
					} `json:"adaptive"`
				} `json:"tests"`
			}
			b, _ := os.ReadFile(filepath.Join(out, "summary.json"))
			if err := json.Unmarshal(b, &s); err != nil {
				t.Fatal(err)
			}
			got := s.Tests[0]
			if got.Status != tc.status || got.Runs != tc.runs || got.Adaptive.StopReason != tc.stop || got.Inconclusive != tc.inconclusive {
				t.Errorf("test: %+v; want %s, %d runs, %s, inconclusive %v", got, tc.status, tc.runs, tc.stop, tc.inconclusive)
			}
			if a := s.Totals.Adaptive; a.Runs != tc.runs || a.MaxRuns != got.Adaptive.MaxRuns || a.RunsSaved != map[bool]int{true: 0, false: a.MaxRuns - tc.runs}[tc.inconclusive] {
				t.Errorf("totals: %+v", a)
			}
			validateReportFiles(t, out)
		})
	}
}

// TestActionAdaptiveInputs: the action's runs input takes MIN..MAX, and
// fail-on-inconclusive fails the step on an inconclusive test.
func TestActionAdaptiveInputs(t *testing.T) {
	gh, art := githubtest.New(t), artifacttest.New(t)
	dir := copySuite(t, "flaky")
	env, _, _ := actionEnv(t, dir, "push", `{}`, gh, art)
	env["INPUT_RUNS"], env["INPUT_MIN-PASS-RATE"], env["INPUT_FAIL-ON-INCONCLUSIVE"] = "1..4", "50", "true"
	r := run(t, dir, env, "action")
	if r.code != ExitFail || !strings.Contains(plain(r.out), "2/4 runs (50%, 95% CI 15–85%) · flaky · ? inconclusive") {
		t.Errorf("exit %d; want 1 (passed at 50%%, but inconclusive fails the run)\n%s%s", r.code, r.out, r.errOut)
	}
	env, _, _ = actionEnv(t, dir, "push", `{}`, gh, art)
	env["INPUT_RUNS"] = "5..3"
	want := `input runs: want MIN..MAX with 1 <= MIN <= MAX <= 1000, e.g. 3..30, got "5..3"`
	if r := run(t, dir, env, "action"); r.code != ExitInvalid || !strings.Contains(r.out, want) {
		t.Errorf("exit %d, output lacks %q:\n%s%s", r.code, want, r.out, r.errOut)
	}
}
