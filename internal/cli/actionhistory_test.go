package cli

import (
	"archive/zip"
	"bytes"
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ananke/action/internal/github/artifact/artifacttest"
	"github.com/ananke/action/internal/github/githubtest"
	"github.com/ananke/action/internal/history"
	"github.com/ananke/action/internal/history/historytest"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/reporters/jsonreport"
	"github.com/ananke/action/reporters/reportdir"
)

// The base branch's runs in the history tests: runs #22 to #41 of main,
// ids 1022 to 1041, a minute apart.
const firstMainRun, lastMainRun = 22, 41

// addMainRuns stores main's runs #22 to #41, each with the report
// artifact art(n) (none when nil) and, on the newest, the history
// artifact hist (none when nil).
func addMainRuns(gh *githubtest.Server, art func(n int) []byte, hist []byte) {
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	for n := firstMainRun; n <= lastMainRun; n++ {
		id := gh.AddWorkflowRun(githubtest.WorkflowRun{ID: int64(1000 + n), RunNumber: n, WorkflowID: workflowID, Branch: "main",
			Conclusion: "success", HeadSHA: fmt.Sprintf("sha%d", n), CreatedAt: at.Add(time.Duration(n) * time.Minute)})
		if art != nil {
			gh.AddArtifact(id, "ananke-report", art(n), false)
		}
		if hist != nil && n == lastMainRun {
			gh.AddArtifact(id, "ananke-history", hist, false)
		}
	}
}

// summaryOf is the summary.json of r.
func summaryOf(t *testing.T, r *report.Report) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(writeReport(t, filepath.Join(t.TempDir(), "r"), r), reportdir.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sizedZip is a report artifact of exactly size bytes: summary.json and
// a stored file of padding, as traces make a report large.
func sizedZip(t *testing.T, summary []byte, size int) []byte {
	t.Helper()
	build := func(pad int) []byte {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		w, _ := zw.Create(reportdir.SummaryFile)
		w.Write(summary)
		w, _ = zw.CreateHeader(&zip.FileHeader{Name: "tests/traces.bin", Method: zip.Store})
		w.Write(make([]byte, pad))
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	// A stored entry grows the zip byte for byte.
	z := build(size / 2)
	z = build(size/2 + size - len(z))
	if len(z) != size {
		t.Fatalf("zip of %d bytes; want %d", len(z), size)
	}
	return z
}

// historyZip is a history artifact: history.json for main's runs #22 to
// #41, each passing the reports of usageRun(1).
func historyZip(t *testing.T) []byte {
	t.Helper()
	h := &history.History{}
	for n := firstMainRun; n <= lastMainRun; n++ {
		h.Add(history.Run{ID: strconv.Itoa(1000 + n), Number: int64(n), Commit: fmt.Sprintf("sha%d", n)}, usageRun(1, false))
	}
	data, err := history.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "history.json"), data, 0o644)
	b, err := os.ReadFile(zipDir(t, dir, nil))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// prHistoryEnv is a pull request into main that merges head-report (no
// agent needed), compares with nothing and uploads nothing, so that the
// history is all it downloads.
func prHistoryEnv(t *testing.T, dir string, gh *githubtest.Server) map[string]string {
	t.Helper()
	env, _, _ := actionEnv(t, dir, "pull_request", prOnMain, gh, artifacttest.New(t))
	env["GITHUB_BASE_REF"], env["INPUT_MERGE"], env["INPUT_UPLOAD-ARTIFACT"], env["INPUT_COMPARE"] = "main", "head-report", "false", "off"
	env["INPUT_HISTORY"] = "auto"
	return env
}

// readHistoryOf is the history summary.json of the report in dir says the
// report was read against.
func readHistoryOf(t *testing.T, dir string) *report.History {
	t.Helper()
	r, err := reportdir.ReadSummary(filepath.Join(dir, "ananke-report"))
	if err != nil {
		t.Fatal(err)
	}
	return r.History
}

// TestActionHistoryBudget: with main's last 20 runs each holding a 5 MB
// report artifact and no history artifact, a pull request downloads at
// most history-max-bytes — counted by the bytes storage served — reads
// each downloaded artifact's summary.json, and says so in one line.
func TestActionHistoryBudget(t *testing.T) {
	gh := githubtest.New(t)
	dir := t.TempDir()
	writeReport(t, filepath.Join(dir, "head-report"), usageRun(2, false))
	addCurrentRun(gh)
	const fiveMB = 5_000_000
	base := sizedZip(t, summaryOf(t, usageRun(1, false)), fiveMB)
	addMainRuns(gh, func(int) []byte { return base }, nil)

	for _, tc := range []struct {
		maxBytes string
		budget   int64
		runs     int
		log      string
	}{
		{"", 50_000_000, 10, "history: 10 runs of main from 10 report artifacts (50 MB of 50 MB; 10 skipped over the budget)\n"},
		{"12MB", 12_000_000, 2, "history: 2 runs of main from 2 report artifacts (10 MB of 12 MB; 18 skipped over the budget)\n"},
	} {
		t.Run("history-max-bytes "+tc.maxBytes, func(t *testing.T) {
			env := prHistoryEnv(t, dir, gh)
			env["INPUT_HISTORY-MAX-BYTES"] = tc.maxBytes
			served, requests := gh.BlobBytes(), len(gh.BlobRequests())
			r := run(t, dir, env, "action")
			if r.code != ExitPass {
				t.Fatalf("exit %d\n%s%s", r.code, r.out, r.errOut)
			}
			served, requests = gh.BlobBytes()-served, len(gh.BlobRequests())-requests
			if served > tc.budget || served != int64(tc.runs)*fiveMB || requests != tc.runs {
				t.Errorf("storage served %d bytes in %d downloads; want %d artifacts, at most %d bytes", served, requests, tc.runs, tc.budget)
			}
			if !strings.Contains(r.out, tc.log) || strings.Contains(r.out, "::warning") {
				t.Errorf("the log lacks %q (or warns):\n%s", tc.log, r.out)
			}
			if h := readHistoryOf(t, dir); h == nil || h.Base != "main" || h.Runs != tc.runs {
				t.Errorf("summary.json's history = %+v; want %d runs of main", h, tc.runs)
			}
		})
	}
}

// TestActionHistoryFile plays the history artifact's life: a push to main
// downloads the one history file main's newest run uploaded — not the
// report artifacts — appends itself, keeping 20 runs, and uploads it; a
// pull request then downloads that one file.
func TestActionHistoryFile(t *testing.T) {
	gh, art := githubtest.New(t), artifacttest.New(t)
	dir := t.TempDir()
	writeReport(t, filepath.Join(dir, "head-report"), usageRun(2, false))
	reportArt := sizedZip(t, summaryOf(t, usageRun(1, false)), 100_000)
	addMainRuns(gh, func(int) []byte { return reportArt }, historyZip(t))

	// The push: run #42 (id 99) of main.
	gh.AddWorkflowRun(githubtest.WorkflowRun{ID: 99, RunNumber: 42, WorkflowID: workflowID, Branch: "main", Status: "in_progress", HeadSHA: "merge0000",
		CreatedAt: time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)})
	env, _, _ := actionEnv(t, dir, "push", `{"ref": "refs/heads/main"}`, gh, art)
	env["INPUT_MERGE"], env["INPUT_COMPARE"], env["INPUT_HISTORY"], env["GITHUB_RUN_NUMBER"] = "head-report", "off", "auto", "42"
	r := run(t, dir, env, "action")
	if r.code != ExitPass {
		t.Fatalf("push: exit %d\n%s%s", r.code, r.out, r.errOut)
	}
	blobs := gh.BlobRequests()
	if len(blobs) != 1 || !strings.HasSuffix(blobs[0].Path, fmt.Sprintf("/%d.zip", historyArtifactID(t, gh, 1041))) {
		t.Errorf("push: %d downloads; want one, the history artifact's", len(blobs))
	}
	for _, want := range []string{
		"history: 20 runs of main from the ananke-history artifact of run #41 (1 file, ",
		"history: appended run #42 to the ananke-history artifact (20 runs of main, ",
	} {
		if !strings.Contains(r.out, want) {
			t.Errorf("push: the log lacks %q:\n%s", want, r.out)
		}
	}
	if h := readHistoryOf(t, dir); h == nil || h.Runs != 20 {
		t.Errorf("push: summary.json's history = %+v; want 20 runs", h)
	}
	var uploaded []byte
	for _, a := range art.Artifacts() {
		if a.Name == "ananke-history" {
			uploaded = a.Data
		}
	}
	h := historyIn(t, uploaded)
	if first, last := h.Runs[0], h.Runs[len(h.Runs)-1]; len(h.Runs) != 20 || first.Number != firstMainRun+1 ||
		last.ID != "99" || last.Number != 42 || last.Commit != "merge0000" || last.URL != "https://github.com/acme/shop/actions/runs/99" {
		t.Fatalf("uploaded history: %d runs, first %+v, last %+v; want #23 to #42", len(h.Runs), first, last)
	}

	// The pull request reads the file the push uploaded, and nothing else.
	gh.CompleteWorkflowRun(99, "success")
	gh.AddArtifact(99, "ananke-history", uploaded, false)
	gh.AddArtifact(99, "ananke-report", reportArt, false)
	gh.AddWorkflowRun(githubtest.WorkflowRun{ID: 100, RunNumber: 43, WorkflowID: workflowID, Branch: "rain", Event: "pull_request", Status: "in_progress",
		CreatedAt: time.Date(2026, 3, 1, 11, 0, 0, 0, time.UTC)})
	env = prHistoryEnv(t, dir, gh)
	env["GITHUB_RUN_ID"] = "100"
	r = run(t, dir, env, "action")
	if r.code != ExitPass {
		t.Fatalf("pull request: exit %d\n%s%s", r.code, r.out, r.errOut)
	}
	if blobs := gh.BlobRequests(); len(blobs) != 2 || !strings.HasSuffix(blobs[1].Path, fmt.Sprintf("/%d.zip", historyArtifactID(t, gh, 99))) {
		t.Errorf("pull request: %d downloads in all; want one more, the new history artifact", len(blobs))
	}
	if !strings.Contains(r.out, "history: 20 runs of main from the ananke-history artifact of run #42 (1 file, ") {
		t.Errorf("pull request: the log does not say what was read:\n%s", r.out)
	}
	if h := readHistoryOf(t, dir); h == nil || h.Runs != 20 || h.Base != "main" {
		t.Errorf("pull request: summary.json's history = %+v; want 20 runs of main", h)
	}
}

// historyArtifactID is the id of run's ananke-history artifact.
func historyArtifactID(t *testing.T, gh *githubtest.Server, run int64) int64 {
	t.Helper()
	list, _, err := gh.Client().Actions.ListWorkflowRunArtifacts(t.Context(), "acme", "shop", run, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range list.Artifacts {
		if a.GetName() == "ananke-history" {
			return a.GetID()
		}
	}
	t.Fatalf("run %d has no ananke-history artifact", run)
	return 0
}

// historyIn reads the history file in an artifact's zip.
func historyIn(t *testing.T, data []byte) *history.History {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("history artifact: %v", err)
	}
	if len(zr.File) != 1 || zr.File[0].Name != "history.json" {
		t.Fatalf("history artifact holds %d files; want history.json alone", len(zr.File))
	}
	rc, err := zr.File[0].Open()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	var b bytes.Buffer
	b.ReadFrom(rc)
	h, err := history.Parse(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestActionHistoryWithout: a history that cannot be read is a warning
// (or, when there is none yet, a line) and never fails the step nor
// changes its verdict; a push appends itself only to a history read whole.
func TestActionHistoryWithout(t *testing.T) {
	for _, tc := range []struct {
		name string
		push bool
		// ref is the push's ref (default refs/heads/main).
		ref   string
		setup func(gh *githubtest.Server)
		log   string
		// warns: the log has a warning (as it does when log is one).
		warns bool
		// appended: the push uploaded a history of this many runs (0: none).
		appended int
	}{{
		name: "no run yet",
		log:  "history: no run of main has an ananke-history or ananke-report artifact yet\n",
	}, {
		name:     "the first push starts the history",
		push:     true,
		log:      "history: appended run #42 to the ananke-history artifact (1 run of main, ",
		appended: 1,
	}, {
		name: "a tag is on no branch",
		push: true,
		ref:  "refs/tags/v1.0.0",
		log:  "history: none: the push event is on no branch\n",
	}, {
		name:  "no actions: read",
		setup: func(gh *githubtest.Server) { gh.Fail("actions/list-workflow-runs", 1, 403) },
		log:   "::warning::history: the token cannot read this workflow's runs (permissions lack actions: read): the tests are read without the history of main\n",
	}, {
		name:  "no actions: read on a push: nothing uploaded",
		push:  true,
		setup: func(gh *githubtest.Server) { gh.Fail("actions/get-workflow-run", 1, 403) },
		log:   "history: this run is not appended: the history of main could not be read\n",
		warns: true,
	}, {
		name:  "the API failing",
		setup: func(gh *githubtest.Server) { gh.Fail("actions/list-workflow-runs", 1, 422) },
		log:   "::warning::history: list runs of workflow 7 on main: GET ",
	}, {
		name: "unreadable artifacts are passed over",
		setup: func(gh *githubtest.Server) {
			addMainRuns(gh, func(n int) []byte {
				if n == lastMainRun {
					return []byte("not a zip")
				}
				return []byte("PK\x05\x06" + strings.Repeat("\x00", 18)) // an empty zip
			}, nil)
		},
		log: "history: passed over artifact ananke-report of run #41 could not be read: zip: not a valid zip file\n" +
			"history: passed over artifact ananke-report of run #40 has no summary.json\n",
	}, {
		name: "nothing readable",
		setup: func(gh *githubtest.Server) {
			addMainRuns(gh, func(int) []byte { return []byte("not a zip") }, nil)
		},
		log: "history: none of main: no artifact of its runs could be read\n",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			gh, art := githubtest.New(t), artifacttest.New(t)
			dir := t.TempDir()
			writeReport(t, filepath.Join(dir, "head-report"), usageRun(2, false))
			var env map[string]string
			if tc.push {
				gh.AddWorkflowRun(githubtest.WorkflowRun{ID: 99, RunNumber: 42, WorkflowID: workflowID, Branch: "main", Status: "in_progress"})
				env, _, _ = actionEnv(t, dir, "push", `{"ref": "`+cmp.Or(tc.ref, "refs/heads/main")+`"}`, gh, art)
				env["INPUT_MERGE"], env["INPUT_COMPARE"], env["INPUT_HISTORY"], env["GITHUB_RUN_NUMBER"] = "head-report", "off", "auto", "42"
			} else {
				addCurrentRun(gh)
				env = prHistoryEnv(t, dir, gh)
			}
			if tc.setup != nil {
				tc.setup(gh)
			}
			r := run(t, dir, env, "action")
			if r.code != ExitPass || r.errOut != "" {
				t.Fatalf("exit %d; want 0, as without a history\n%s%s", r.code, r.out, r.errOut)
			}
			if !strings.Contains(r.out, tc.log) {
				t.Errorf("the log lacks %q:\n%s", tc.log, r.out)
			}
			if strings.Contains(r.out, "::warning") != (tc.warns || strings.Contains(tc.log, "::warning")) {
				t.Errorf("want a warning only for a failure:\n%s", r.out)
			}
			var runs int
			for _, a := range art.Artifacts() {
				if a.Name == "ananke-history" {
					runs = len(historyIn(t, a.Data).Runs)
				}
			}
			if runs != tc.appended {
				t.Errorf("uploaded a history of %d runs; want %d", runs, tc.appended)
			}
			if h := readHistoryOf(t, dir); h != nil && tc.appended == 0 {
				t.Errorf("summary.json has a history of %d runs; want none", h.Runs)
			}
		})
	}
}

// TestActionHistoryInputs: history, history-runs and history-max-bytes are
// checked before anything runs.
func TestActionHistoryInputs(t *testing.T) {
	for _, tc := range []struct {
		input, value, want string
	}{
		{"HISTORY", "on", "input history: want auto or off, got \"on\""},
		{"HISTORY-RUNS", "0", "input history-runs: want a number from 1 to 100, got \"0\""},
		{"HISTORY-RUNS", "101", "input history-runs: want a number from 1 to 100, got \"101\""},
		{"HISTORY-MAX-BYTES", "50 parsecs", "input history-max-bytes: want a size such as 50MB, 200 MB or 1GB (or a number of bytes), got \"50 parsecs\""},
		{"HISTORY-MAX-BYTES", "0", "input history-max-bytes: want a size"},
	} {
		t.Run(tc.input+"="+tc.value, func(t *testing.T) {
			dir := t.TempDir()
			env, _, _ := actionEnv(t, dir, "push", `{}`, githubtest.New(t), artifacttest.New(t))
			env["INPUT_"+tc.input] = tc.value
			r := run(t, dir, env, "action")
			if r.code != ExitInvalid || !strings.Contains(r.out, "::error::"+tc.want) {
				t.Errorf("exit %d; want 3 and an error %q\n%s%s", r.code, tc.want, r.out, r.errOut)
			}
		})
	}
}

func TestParseBytes(t *testing.T) {
	for s, want := range map[string]int64{"1000": 1000, "50MB": 50_000_000, "50 MB": 50_000_000, "1.5gb": 1_500_000_000,
		"64 MiB": 64 << 20, "2KiB": 2048, "700 kb": 700_000, " 12MB ": 12_000_000, "10B": 10} {
		if got, err := parseBytes(s); err != nil || got != want {
			t.Errorf("parseBytes(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"", "MB", "-5MB", "0", "1e3", "5 TB", "1.2.3MB", "999999999GB"} {
		if got, err := parseBytes(s); err == nil {
			t.Errorf("parseBytes(%q) = %d; want an error", s, got)
		}
	}
}

func TestHistoryArtifactName(t *testing.T) {
	for in, want := range map[string]string{"ananke-report": "ananke-history", "e2e-report": "e2e-history", "suite-a": "suite-a-history"} {
		if got := historyArtifactName(in); got != want {
			t.Errorf("historyArtifactName(%q) = %q; want %q", in, got, want)
		}
	}
}

// TestActionFailOnNewFromArtifacts is the example with the
// history gathered by the action itself: main's 20 runs each uploaded
// their report, in which one test fails 4 times and another never; a
// pull request failing both, with history: auto and no history-file,
// reads their summary.json files, marks the first known flaky and the
// second a new failure, and fail-on new fails the step for the second
// alone, listing both.
func TestActionFailOnNewFromArtifacts(t *testing.T) {
	gh, art := githubtest.New(t), artifacttest.New(t)
	dir := failingWorkspace(t)
	runs := historytest.Runs(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC), firstMainRun, []historytest.Test{
		{ID: "declined", Name: declinedName, File: "declined.ananke.yaml", Pattern: "ppfpppfppppfpppppfpp"},
		{ID: "wrong-city", Name: wrongCityName, File: "wrong-city.ananke.yaml", Pattern: "pppppppppppppppppppp"},
	})
	addMainRuns(gh, func(n int) []byte {
		var b bytes.Buffer
		if err := jsonreport.WriteSummary(&b, runs[n-firstMainRun].Report); err != nil {
			t.Fatal(err)
		}
		return sizedZip(t, b.Bytes(), 200_000)
	}, nil)
	addCurrentRun(gh)
	env, _, _ := actionEnv(t, dir, "pull_request", prOnMain, gh, art)
	env["GITHUB_BASE_REF"], env["INPUT_RUN"], env["INPUT_COMPARE"], env["INPUT_FAIL-ON"] = "main", "^(declined|wrong-city)$", "off", "new"
	env["INPUT_HISTORY"], env["INPUT_UPLOAD-ARTIFACT"] = "auto", "false"
	r := run(t, dir, env, "action")
	if r.code != ExitFail {
		t.Fatalf("exit %d, want 1: wrong-city is a new failure\n%s%s", r.code, r.out, r.errOut)
	}
	log := plain(r.out)
	for _, want := range []string{
		"history: 20 runs of main from 20 report artifacts (4 MB of 50 MB)\n",
		"  history: known flaky on main (fails 4 of the last 20); p = 0.24, within noise  ✓✓✗✓✓✓✗✓✓✓✓✗✓✓✓✓✓✗✓✓\n",
		"  history: new failure (passed the last 20 runs on main)  ✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓\n",
		"fail-on new: 1 of 2 failing tests counted as new against the last 20 runs on main:\n" +
			"  fails the step: " + wrongCityName + ": new failure (passed the last 20 runs on main)\n" +
			"  not failing the step: " + declinedName + ": known flaky on main (fails 4 of the last 20)\n",
	} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	if c := gh.Comments(5); len(c) != 1 || !strings.Contains(c[0].Body, "2 failed of 2 tests (1 new failure, 1 known flaky on main)") {
		t.Errorf("the comment does not count the verdicts: %+v", c)
	}
	if n := len(gh.BlobRequests()); n != 20 {
		t.Errorf("%d downloads; want the 20 report artifacts", n)
	}
}
