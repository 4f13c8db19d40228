package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ananke/action/internal/status"
)

// summaryFile is the part of summary.json these tests read.
type summaryFile struct {
	Status      string `json:"status"`
	FailOnFlaky bool   `json:"fail_on_flaky"`
	Shard       *struct {
		Index, Total int
	} `json:"shard"`
	Totals struct {
		Total, Passed, Failed, Errored, Skipped, Flaky int
	} `json:"totals"`
	Tests []struct {
		ID         string  `json:"id"`
		Status     string  `json:"status"`
		Reason     string  `json:"reason"`
		Runs       int     `json:"runs"`
		PassedRuns int     `json:"passed_runs"`
		PassRate   float64 `json:"pass_rate"`
		Flaky      bool    `json:"flaky"`
		Attempts   []struct {
			Run, Retry int
			Status     string `json:"status"`
			TraceFile  string `json:"trace_file"`
		} `json:"attempts"`
		Assertions []struct {
			ID         string `json:"id"`
			FailedRuns int    `json:"failed_runs"`
		} `json:"assertions"`
	} `json:"tests"`
}

func readSummaryFile(t *testing.T, dir string) summaryFile {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s summaryFile
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestRunFlaky: the example agent's coin alternates; the flaky example's
// test (4 runs from the config) is measured, not hidden, and the flags
// decide what the measurement means.
func TestRunFlaky(t *testing.T) {
	dir := copySuite(t, "flaky")
	for _, tc := range []struct {
		name     string
		args     []string
		exit     int
		status   status.Status
		runs     int
		passed   int
		rate     float64
		statuses []string // in order; nil: only counted
		line     string
	}{
		{"runs from the config", nil, ExitFail, "fail", 4, 2, 50, []string{"fail", "pass", "fail", "pass"},
			"✗ the agent tosses the coin with its tool ("},
		{"min pass rate", []string{"--min-pass-rate", "50"}, ExitPass, "pass", 4, 2, 50, nil, "· 2/4 runs (50%, 95% CI 15–85%) · flaky"},
		{"retries", []string{"--runs", "1", "--retries", "2"}, ExitPass, "pass", 1, 1, 100, []string{"fail", "pass"}, "✓ the agent tosses the coin with its tool ("},
		{"fail on flaky", []string{"--min-pass-rate", "50", "--fail-on-flaky"}, ExitFail, "pass", 4, 2, 50, nil, "Flaky tests fail the run"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "report")
			r := run(t, dir, nil, append([]string{"run", "--report-dir", out}, tc.args...)...)
			if r.code != tc.exit || !strings.Contains(r.out, tc.line) {
				t.Fatalf("exit %d (want %d), stdout lacks %q:\n%s%s", r.code, tc.exit, tc.line, r.out, r.errOut)
			}
			s := readSummaryFile(t, out)
			if len(s.Tests) != 1 {
				t.Fatalf("%d tests", len(s.Tests))
			}
			got := s.Tests[0]
			if status.Status(got.Status) != tc.status || got.Runs != tc.runs || got.PassedRuns != tc.passed || got.PassRate != tc.rate || !got.Flaky || s.Totals.Flaky != 1 {
				t.Errorf("status %s runs %d passed %d rate %v flaky %v (totals flaky %d); want %s %d %d %v flaky",
					got.Status, got.Runs, got.PassedRuns, got.PassRate, got.Flaky, s.Totals.Flaky, tc.status, tc.runs, tc.passed, tc.rate)
			}
			var statuses []string
			for _, a := range got.Attempts {
				statuses = append(statuses, a.Status)
				if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(a.TraceFile))); err != nil {
					t.Errorf("attempt trace: %v", err)
				}
			}
			if tc.statuses != nil && !slices.Equal(statuses, tc.statuses) {
				t.Errorf("attempts %q, want %q", statuses, tc.statuses)
			}
			for _, a := range got.Assertions {
				if a.ID == "turn[0].tools.require[0]" && a.FailedRuns != len(statuses)-tc.passed {
					t.Errorf("require failed in %d attempts, want %d", a.FailedRuns, len(statuses)-tc.passed)
				}
			}
			if wantRun := map[int]string{ExitFail: "fail", ExitPass: "pass"}[tc.exit]; s.Status != wantRun {
				t.Errorf("run status %q, want %q", s.Status, wantRun)
			}
			validateReportFiles(t, out)
		})
	}
}

// TestRunConfidence: the config's confidence sets the level of the
// intervals the console and summary.json give, and summary.json records it.
func TestRunConfidence(t *testing.T) {
	dir := copySuite(t, "flaky")
	cfg := filepath.Join(dir, "ananke.config.yaml")
	b, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, append(b, "confidence: 90\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "report")
	r := run(t, dir, nil, "run", "--report-dir", out, "--min-pass-rate", "50")
	for _, want := range []string{"· 2/4 runs (50%, 90% CI 18–82%) · flaky", "2 of 4 runs passed (50%, 90% CI 18–82%); min_pass_rate 50%"} {
		if !strings.Contains(r.out, want) {
			t.Errorf("stdout lacks %q:\n%s%s", want, r.out, r.errOut)
		}
	}
	var s struct {
		Confidence float64 `json:"confidence"`
		Tests      []struct {
			PassRateCI struct{ Level, Lo, Hi float64 } `json:"pass_rate_ci"`
		} `json:"tests"`
	}
	raw, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	if ci := s.Tests[0].PassRateCI; s.Confidence != 90 || ci.Level != 90 || ci.Lo != 18.2 || ci.Hi != 81.8 {
		t.Errorf("confidence %v, pass_rate_ci %+v; want 90 and 18.2–81.8 at 90", s.Confidence, ci)
	}
	validateReportFiles(t, out)
}

// TestRunShardsMerge: the quickstart split in three shards runs every test
// once, and the merged report has the totals of one full run.
func TestRunShardsMerge(t *testing.T) {
	dir := copySuite(t, "quickstart")
	full := filepath.Join(t.TempDir(), "full")
	if r := run(t, dir, nil, "run", "--report-dir", full); r.code != ExitPass {
		t.Fatalf("full run: exit %d\n%s%s", r.code, r.out, r.errOut)
	}
	var shardDirs []string
	seen := map[string]int{}
	for _, shard := range []string{"1/3", "2/3", "3/3"} {
		out := filepath.Join(t.TempDir(), "shard")
		r := run(t, dir, nil, "run", "--shard", shard, "--report-dir", out)
		if r.code != ExitPass {
			t.Fatalf("shard %s: exit %d\n%s%s", shard, r.code, r.out, r.errOut)
		}
		s := readSummaryFile(t, out)
		if s.Shard == nil || s.Shard.Total != 3 || len(s.Tests) != 2 {
			t.Errorf("shard %s: shard %+v, %d tests; want 2 of the 6", shard, s.Shard, len(s.Tests))
		}
		for _, tt := range s.Tests {
			seen[tt.ID]++
		}
		shardDirs = append(shardDirs, out)
	}
	whole := readSummaryFile(t, full)
	for _, tt := range whole.Tests {
		if seen[tt.ID] != 1 {
			t.Errorf("test %s ran in %d shards", tt.ID, seen[tt.ID])
		}
	}
	merged := filepath.Join(t.TempDir(), "merged")
	md := filepath.Join(t.TempDir(), "summary.md")
	r := run(t, "", nil, append([]string{"merge", "--report-dir", merged, "--summary", md}, shardDirs...)...)
	if r.code != ExitPass || !strings.Contains(r.out, "Merged 6 tests from 3 reports") {
		t.Fatalf("merge: exit %d\n%s%s", r.code, r.out, r.errOut)
	}
	m := readSummaryFile(t, merged)
	if m.Totals != whole.Totals || m.Status != whole.Status || m.Shard != nil {
		t.Errorf("merged totals %+v status %s shard %v; full run %+v %s", m.Totals, m.Status, m.Shard, whole.Totals, whole.Status)
	}
	var mergedIDs, wholeIDs []string
	for i := range m.Tests {
		mergedIDs, wholeIDs = append(mergedIDs, m.Tests[i].ID), append(wholeIDs, whole.Tests[i].ID)
	}
	if !slices.Equal(mergedIDs, wholeIDs) {
		t.Errorf("merged order %q, full run %q", mergedIDs, wholeIDs)
	}
	validateReportFiles(t, merged)
	if b, err := os.ReadFile(md); err != nil || !strings.Contains(string(b), "all 6 tests passed") {
		t.Errorf("merged summary (%v):\n%s", err, b)
	}
	// A missing shard fails the merge instead of losing its tests.
	r = run(t, "", nil, "merge", "--report-dir", filepath.Join(t.TempDir(), "m2"), shardDirs[0], shardDirs[2])
	if r.code != ExitInvalid || !strings.Contains(r.errOut, "shard 2/3 is missing") {
		t.Errorf("merge without shard 2: exit %d %q", r.code, r.errOut)
	}
	if r := run(t, "", nil, "merge", "--report-dir", shardDirs[0], shardDirs[0]); r.code != ExitInvalid || !strings.Contains(r.errOut, "is also an input") {
		t.Errorf("merge into an input: exit %d %q", r.code, r.errOut)
	}
}

// TestRunSelection: --run and --tag choose tests; a filter matching nothing
// is a mistake; --fail-fast skips what it did not start.
func TestRunSelection(t *testing.T) {
	dir := copySuite(t, "quickstart")
	for _, tc := range []struct {
		name string
		args []string
		exit int
		ids  []string
		err  string
	}{
		{"run by id", []string{"--run", "^weather$"}, ExitPass, []string{"weather"}, ""},
		{"run by name", []string{"--run", "client tool"}, ExitPass, []string{"purchase"}, ""},
		{"tag", []string{"--tag", "shopping"}, ExitPass, []string{"shopping"}, ""},
		{"excluded tag", []string{"--tag", "!shopping", "--run", "weather|shopping"}, ExitPass, []string{"weather"}, ""},
		{"no match", []string{"--run", "nothing-is-called-this"}, ExitInvalid, nil, `no test matches --run "nothing-is-called-this" (of 6 tests); nothing was run`},
		{"bad regexp", []string{"--run", "("}, ExitInvalid, nil, `--run "(": error parsing regexp`},
		{"bad shard", []string{"--shard", "4/3"}, ExitInvalid, nil, `ananke run: --shard: "4/3" is not i/n with 1 <= i <= n <= 1000, e.g. 2/3`},
		{"bad runs", []string{"--runs", "0"}, ExitInvalid, nil, `ananke run: --runs: "0" is not a whole number from 1 to 1000`},
		{"bad rate", []string{"--min-pass-rate", "120"}, ExitInvalid, nil, `ananke run: --min-pass-rate: "120" is not a percentage from 0 to 100`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "report")
			r := run(t, dir, nil, append([]string{"run", "--report-dir", out}, tc.args...)...)
			if r.code != tc.exit || !strings.Contains(r.errOut, tc.err) {
				t.Fatalf("exit %d (want %d), stderr %q (want %q)\n%s", r.code, tc.exit, r.errOut, tc.err, r.out)
			}
			if tc.ids == nil {
				if _, err := os.Stat(out); err == nil {
					t.Error("a report was written for a run that did not run")
				}
				return
			}
			var ids []string
			for _, tt := range readSummaryFile(t, out).Tests {
				ids = append(ids, tt.ID)
			}
			if !slices.Equal(ids, tc.ids) {
				t.Errorf("ran %q, want %q", ids, tc.ids)
			}
		})
	}
}

func TestRunFailFast(t *testing.T) {
	dir := copySuite(t, "failing")
	out := filepath.Join(t.TempDir(), "report")
	r := runWall(t, dir, nil, "run", "--fail-fast", "--report-dir", out)
	if r.code != ExitFail {
		t.Fatalf("exit %d\n%s%s", r.code, r.out, r.errOut)
	}
	s := readSummaryFile(t, out)
	if s.Totals.Failed != 1 || s.Totals.Skipped != 5 {
		t.Errorf("totals %+v; want 1 failed, the other 5 skipped", s.Totals)
	}
	for _, tt := range s.Tests[1:] {
		if tt.Status != "skipped" || !strings.HasPrefix(tt.Reason, "not run: --fail-fast stopped the run after ") {
			t.Errorf("%s: %s %q", tt.ID, tt.Status, tt.Reason)
		}
	}
	validateReportFiles(t, out)
}

// TestRunDryRun: the plan of a suite whose agent is down, and whose hooks
// would fail: nothing runs, nothing is written, exit 0.
func TestRunDryRun(t *testing.T) {
	dir := t.TempDir()
	writeSuite(t, dir, "http://"+freePort(t)+"/agent", `runs: 3
hooks: [{cmd: [sh, -c, "touch hook-ran; exit 1"]}]
turns:
  - user: "hello ${NAME}"
    assert: {tools: {require: [{name: greet}]}}
`)
	out := filepath.Join(dir, "report")
	r := run(t, dir, nil, "run", "--dry-run", "--report-dir", out)
	if r.code != ExitPass {
		t.Fatalf("exit %d\n%s%s", r.code, r.out, r.errOut)
	}
	for _, want := range []string{"Dry run: nothing is sent", "Plan:    1 test, 3 runs", `turn[0] "hello ${NAME}"`, "`greet` at least 1 time  (turn[0].tools.require[0])",
		"3 runs, min pass rate 100%, 0 retries", "hooks[0]: sh -c touch hook-ran; exit 1"} {
		if !strings.Contains(r.out, want) {
			t.Errorf("plan lacks %q:\n%s", want, r.out)
		}
	}
	for _, f := range []string{out, filepath.Join(dir, "hook-ran")} {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("%s exists: the dry run did something", f)
		}
	}
	if r := run(t, dir, nil, "run", "--dry-run", "--shard", "2/2"); r.code != ExitPass || !strings.Contains(r.out, "Plan:    0 tests, 0 runs, parallel 1; shard 2/2 selects them from 1 test") {
		t.Errorf("dry run of an empty shard: exit %d\n%s%s", r.code, r.out, r.errOut)
	}
}
