package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/history"
	"github.com/ananke/action/internal/history/historytest"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/reporters/jsonreport"
)

// writeReports writes runs' summary.json files as downloaded report
// directories, ananke-report-<number>, under dir; it returns their paths.
func writeReports(t *testing.T, dir string, runs []historytest.Run) []string {
	t.Helper()
	var paths []string
	for _, r := range runs {
		p := filepath.Join(dir, fmt.Sprintf("ananke-report-%d", r.Run.Number))
		writeSummaryFile(t, p, r.Report)
		paths = append(paths, p)
	}
	return paths
}

func writeSummaryFile(t *testing.T, dir string, r *report.Report) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := jsonreport.WriteSummary(f, r); err != nil {
		t.Fatal(err)
	}
}

// TestHistoryTable: `ananke history DIR` prints the table of a directory
// of downloaded reports, in each format, exit 0.
func TestHistoryTable(t *testing.T) {
	dir := t.TempDir()
	writeReports(t, filepath.Join(dir, "reports"), historytest.Main(true))
	r := run(t, dir, nil, "history", "reports")
	if r.code != ExitPass || r.errOut != "" {
		t.Fatalf("history: exit %d %s", r.code, r.errOut)
	}
	// The directories are named by number, so run #22 is the 22 of its name.
	assertGolden(t, "history.golden", r.out)
	md := run(t, dir, nil, "history", "--format", "markdown", "--top", "1", "reports")
	if md.code != ExitPass || !strings.HasPrefix(md.out, "**History: 20 runs, run #\u206022 (2026-03-01) to run #\u206041 (2026-03-20); 6 tests**\n") || !strings.Contains(md.out, "… and 5 more") {
		t.Errorf("markdown: exit %d\n%s", md.code, md.out)
	}
	js := run(t, dir, nil, "history", "reports", "--format=json", "--keep", "3")
	var out struct {
		Runs    []struct{ Number int64 }
		Failing struct{ Tests []struct{ ID string } }
	}
	if err := json.Unmarshal([]byte(js.out), &out); err != nil || js.code != ExitPass || len(out.Runs) != 3 || out.Runs[0].Number != 39 || len(out.Failing.Tests) != 1 {
		t.Errorf("json --keep 3: exit %d, %v: %+v; want the runs #39 to #41, weather failing", js.code, err, out)
	}
}

// TestHistoryAppend: appending each run's report keeps the newest --keep
// runs in one file, which prints the table the reports do; appending a run
// again replaces it; GitHub's variables name the run.
func TestHistoryAppend(t *testing.T) {
	dir := t.TempDir()
	runs := historytest.Main(true)
	paths := writeReports(t, filepath.Join(dir, "reports"), runs)
	file := filepath.Join(dir, "history.json")
	for i, p := range paths {
		env := map[string]string{"GITHUB_RUN_ID": runs[i].Run.ID, "GITHUB_RUN_NUMBER": fmt.Sprint(runs[i].Run.Number), "GITHUB_SHA": runs[i].Run.Commit,
			"GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "o/r"}
		args := []string{"history", "--append", p, "--to", file, "--keep", "15"}
		if i%2 == 1 { // a summary.json names the run as well as its directory
			args[2] = filepath.Join(p, "summary.json")
		}
		r := run(t, dir, env, args...)
		if r.code != ExitPass || r.errOut != "" || !strings.HasPrefix(r.out, file+": ") {
			t.Fatalf("append %s: exit %d %q %q", p, r.code, r.out, r.errOut)
		}
	}
	h, err := history.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Runs) != 15 || h.Runs[0].Number != 27 || h.Runs[14].URL != "https://github.com/o/r/actions/runs/7019" || h.Runs[14].Commit != runs[19].Run.Commit {
		t.Errorf("runs: %d from #%d, newest %+v; want 15 from #27, the newest with its URL and commit", len(h.Runs), h.Runs[0].Number, h.Runs[14])
	}
	fromFile := run(t, dir, nil, "history", file)
	fromDir := run(t, dir, nil, "history", "--keep", "15", "reports")
	if fromFile.code != ExitPass || fromFile.out != fromDir.out {
		t.Errorf("the file's table differs from the reports':\n%s\nwant\n%s", fromFile.out, fromDir.out)
	}
	// The newest run again, by its id: the file keeps 15 runs.
	r := run(t, dir, nil, "history", "--append", paths[19], "--to", file, "--keep", "15", "--run-id", "7019", "--run-number", "41")
	if h, _ := history.ReadFile(file); r.code != ExitPass || len(h.Runs) != 15 || h.Runs[14].URL != "" {
		t.Errorf("appended again: exit %d %s; %d runs", r.code, r.errOut, len(h.Runs))
	}
	// Without GitHub, the run is named by its start.
	other := filepath.Join(dir, "other.json")
	if r := run(t, dir, nil, "history", "--append", paths[0], "--to", other); r.code != ExitPass {
		t.Fatalf("append: exit %d %s", r.code, r.errOut)
	}
	if h, _ := history.ReadFile(other); len(h.Runs) != 1 || h.Runs[0].ID != "20260301T090000Z" || h.Runs[0].Number != 0 {
		t.Errorf("run without GitHub: %+v", h.Runs)
	}
	// A bound of bytes drops the oldest runs.
	small := filepath.Join(dir, "small.json")
	for _, p := range paths {
		if r := run(t, dir, nil, "history", "--append", p, "--to", small, "--max-bytes", "4096"); r.code != ExitPass {
			t.Fatalf("append: exit %d %s", r.code, r.errOut)
		}
	}
	if info, err := os.Stat(small); err != nil || info.Size() > 4096 {
		t.Errorf("--max-bytes 4096: %v, %d bytes", err, info.Size())
	}
}

// TestHistoryFails: what cannot be read exits 3 with what to do, what
// cannot be written 2.
func TestHistoryFails(t *testing.T) {
	dir := t.TempDir()
	runs := historytest.Main(false)
	paths := writeReports(t, filepath.Join(dir, "reports"), runs[:2])
	shard := *runs[0].Report
	shard.Shard = &report.Shard{Index: 1, Total: 2}
	writeSummaryFile(t, filepath.Join(dir, "shard"), &shard)
	if err := os.WriteFile(filepath.Join(dir, "bad.json"), []byte(`{"schema":"ananke.history/v9"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"history"}, ExitInvalid, "ananke history: name one directory of reports (a subdirectory per run) or one history file\n"},
		{[]string{"history", "reports", "reports"}, ExitInvalid, "name one directory"},
		{[]string{"history", "--format", "html", "reports"}, ExitInvalid, `--format "html": want text, markdown or json`},
		{[]string{"history", "--keep", "0", "reports"}, ExitInvalid, "--keep 0: want a number from 1 to 1000"},
		{[]string{"history", "--top", "-1", "reports"}, ExitInvalid, "--top -1: want 0 (all) or more"},
		{[]string{"history", "--top", "x", "reports"}, ExitInvalid, `--top: "x" is not a whole number`},
		{[]string{"history", "missing"}, ExitInvalid, "ananke history: read history: stat missing: no such file or directory\n"},
		{[]string{"history", paths[0]}, ExitInvalid, "is one report directory: name the directory that holds one report directory a run"},
		{[]string{"history", filepath.Join(paths[0], "summary.json")}, ExitInvalid, "is a run's summary.json, not a history file"},
		{[]string{"history", "bad.json"}, ExitInvalid, `history file has schema "ananke.history/v9"`},
		{[]string{"history", "--append", paths[0]}, ExitInvalid, "--append needs --to FILE"},
		{[]string{"history", "--append", paths[0], "--to", "h.json", "reports"}, ExitInvalid, "--append takes no DIR or FILE"},
		{[]string{"history", "--to", "h.json", "reports"}, ExitInvalid, "--to is for --append"},
		{[]string{"history", "--append", "missing", "--to", "h.json"}, ExitInvalid, "read report: open missing"},
		{[]string{"history", "--append", "shard", "--to", "h.json"}, ExitInvalid, "is shard 1/2 of a run: merge the shards first"},
		{[]string{"history", "--append", paths[0], "--to", "bad.json"}, ExitInvalid, `history file has schema "ananke.history/v9"`},
		{[]string{"history", "--append", paths[0], "--to", "h.json", "--max-bytes", "100"}, ExitInvalid, "--max-bytes 100: want at least 1024"},
		{[]string{"history", "--append", paths[0], "--to", filepath.Join("nowhere", "h.json")}, ExitError, "ananke history: write history"},
	} {
		r := run(t, dir, nil, tc.args...)
		if r.code != tc.code || !strings.Contains(r.errOut, tc.want) || r.out != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %d and %q", tc.args, r.code, r.out, r.errOut, tc.code, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "h.json")); err == nil {
		t.Error("a failed append wrote the history file")
	}
}
