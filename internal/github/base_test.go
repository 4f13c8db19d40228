package github_test

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ananke/action/internal/github"
	"github.com/ananke/action/internal/github/githubtest"
)

// reportZip is an artifact as the upload makes it: entries relative to the
// report directory.
func reportZip(t *testing.T, files map[string]string) []byte {
	t.Helper()
	return zipOf(t, files, false)
}

// zipOf zips files, deflated or stored.
func zipOf(t *testing.T, files map[string]string, stored bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range files {
			if !yield(k) {
				return
			}
		}
	}) {
		h := &zip.FileHeader{Name: name, Method: zip.Deflate}
		if stored {
			h.Method = zip.Store
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(files[name]))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

const (
	workflow  = 7
	currentID = 900
	artifact  = "ananke-report"
)

// baseFixture is a repository whose workflow 7 ran on main and elsewhere;
// the current run is a pull request's. It returns the run id of each run
// number on main.
func baseFixture(t *testing.T, srv *githubtest.Server) map[int]int64 {
	t.Helper()
	at := func(h int) time.Time { return time.Date(2026, 3, 1, h, 0, 0, 0, time.UTC) }
	ids := map[int]int64{}
	for i, r := range []githubtest.WorkflowRun{
		{RunNumber: 40, Branch: "main", Conclusion: "success", HeadSHA: "sha40"},
		{RunNumber: 41, Branch: "main", Conclusion: "success", HeadSHA: "sha41"},
		{RunNumber: 42, Branch: "main", Conclusion: "failure", HeadSHA: "sha42"},
		{RunNumber: 43, Branch: "feature", Conclusion: "success", HeadSHA: "shaf"},
		{RunNumber: 44, Branch: "main", Event: "pull_request", Conclusion: "success", HeadSHA: "fork-main"}, // a fork's main
		{RunNumber: 45, Branch: "main", Status: "in_progress", HeadSHA: "sha45"},
	} {
		r.ID, r.WorkflowID, r.CreatedAt = int64(1000+i), workflow, at(i)
		ids[r.RunNumber] = srv.AddWorkflowRun(r)
	}
	srv.AddWorkflowRun(githubtest.WorkflowRun{ID: 2000, WorkflowID: 8, RunNumber: 99, Branch: "main", Conclusion: "success", CreatedAt: at(20)})
	srv.AddWorkflowRun(githubtest.WorkflowRun{ID: currentID, WorkflowID: workflow, RunNumber: 50, Branch: "feature",
		Event: "pull_request", Status: "in_progress", CreatedAt: at(21)})
	// Runs that must not be chosen carry the artifact too.
	for _, n := range []int{42, 43, 44} {
		srv.AddArtifact(ids[n], artifact, reportZip(t, map[string]string{"summary.json": "wrong run"}), false)
	}
	srv.AddArtifact(2000, artifact, reportZip(t, map[string]string{"summary.json": "other workflow"}), false)
	return ids
}

func TestBaseReport(t *testing.T) {
	good := func(n string) map[string]string {
		return map[string]string{"summary.json": `{"run":` + n + `}`, "tests/refund.trace.json": "{}"}
	}
	tests := []struct {
		name string
		// fixture declares the runs (nil: baseFixture), setup the rest.
		fixture func(t *testing.T, srv *githubtest.Server) map[int]int64
		setup   func(t *testing.T, srv *githubtest.Server, ids map[int]int64)
		max     int64
		// want: the run number chosen, its summary and the runs skipped;
		// or an error containing wantErr.
		wantRun     int64
		wantSummary string
		wantSkipped []string
		wantErr     string
		noBase      bool
		forbidden   bool
		wantWaits   []time.Duration
	}{{
		name: "newest successful run on the branch",
		setup: func(t *testing.T, srv *githubtest.Server, ids map[int]int64) {
			srv.AddArtifact(ids[40], artifact, reportZip(t, good("40")), false)
			srv.AddArtifact(ids[41], "coverage", []byte("not ours"), false)
			srv.AddArtifact(ids[41], artifact, reportZip(t, good("41")), false)
		},
		wantRun: 41, wantSummary: `{"run":41}`,
	}, {
		name: "newest without the artifact: the one before",
		setup: func(t *testing.T, srv *githubtest.Server, ids map[int]int64) {
			srv.AddArtifact(ids[40], artifact, reportZip(t, good("40")), false)
		},
		wantRun: 40, wantSummary: `{"run":40}`,
		wantSkipped: []string{"the newest successful run on main (#41) has no artifact ananke-report"},
	}, {
		name:    "no run has the artifact",
		setup:   func(*testing.T, *githubtest.Server, map[int]int64) {},
		wantErr: "no base report: the newest successful run on main (#41) has no artifact ananke-report; the successful run before it has no unexpired ananke-report either",
		noBase:  true,
	}, {
		name: "expired artifact",
		setup: func(t *testing.T, srv *githubtest.Server, ids map[int]int64) {
			srv.AddArtifact(ids[41], artifact, reportZip(t, good("41")), true)
			srv.AddArtifact(ids[40], artifact, reportZip(t, good("40")), true)
		},
		wantErr: "no base report: artifact ananke-report of run #41 expired on 2026-03-02; the successful run before it",
		noBase:  true,
	}, {
		name: "expired on download (410), the one before is fine",
		setup: func(t *testing.T, srv *githubtest.Server, ids map[int]int64) {
			srv.AddArtifact(ids[41], artifact, reportZip(t, good("41")), false)
			srv.AddArtifact(ids[40], artifact, reportZip(t, good("40")), false)
			srv.Fail("actions/download-artifact", 1, http.StatusGone)
		},
		wantRun: 40, wantSummary: `{"run":40}`,
		wantSkipped: []string{"artifact ananke-report of run #41 has expired (its download answered 410 Gone)"},
	}, {
		name: "server errors are retried",
		setup: func(t *testing.T, srv *githubtest.Server, ids map[int]int64) {
			srv.AddArtifact(ids[41], artifact, reportZip(t, good("41")), false)
			srv.Fail("actions/list-workflow-runs", 2, http.StatusBadGateway)
			srv.Fail(githubtest.BlobOperation, 1, http.StatusServiceUnavailable)
		},
		wantRun: 41, wantSummary: `{"run":41}`,
		wantWaits: []time.Duration{2 * time.Second, 4 * time.Second, 2 * time.Second},
	}, {
		name: "server errors that last",
		setup: func(_ *testing.T, srv *githubtest.Server, _ map[int]int64) {
			srv.Fail("actions/get-workflow-run", 10, http.StatusInternalServerError)
		},
		wantErr:   "get workflow run 900: GET http://",
		wantWaits: []time.Duration{2 * time.Second, 4 * time.Second, 8 * time.Second},
	}, {
		name: "no actions: read",
		setup: func(_ *testing.T, srv *githubtest.Server, _ map[int]int64) {
			srv.Fail("actions/get-workflow-run", 1, http.StatusForbidden)
		},
		wantErr: "Resource not accessible by integration", forbidden: true,
	}, {
		name: "download forbidden",
		setup: func(t *testing.T, srv *githubtest.Server, ids map[int]int64) {
			srv.AddArtifact(ids[41], artifact, reportZip(t, good("41")), false)
			srv.Fail("actions/download-artifact", 1, http.StatusForbidden)
		},
		wantErr: "download artifact ananke-report of run #41: GET http://", forbidden: true,
	}, {
		name: "oversized",
		setup: func(t *testing.T, srv *githubtest.Server, ids map[int]int64) {
			srv.AddArtifact(ids[41], artifact, reportZip(t, map[string]string{"summary.json": strings.Repeat("x", 5000)}), false)
		},
		max:     100,
		wantErr: "download artifact ananke-report of run #41: larger than the 100-byte limit",
	}, {
		name: "not a zip",
		setup: func(_ *testing.T, srv *githubtest.Server, ids map[int]int64) {
			srv.AddArtifact(ids[41], artifact, []byte("not a zip"), false)
		},
		wantErr: "read artifact ananke-report of run #41: zip: not a valid zip file",
	}, {
		name: "zip without summary.json",
		setup: func(t *testing.T, srv *githubtest.Server, ids map[int]int64) {
			srv.AddArtifact(ids[41], artifact, reportZip(t, map[string]string{
				"report/summary.json": "{}", "../summary.json": "{}", "/summary.json": "{}", "summary.json/": "",
			}), false)
			srv.AddArtifact(ids[40], artifact, reportZip(t, good("40")), false)
		},
		wantErr: "no base report: artifact ananke-report of run #41 has no summary.json", noBase: true,
	}, {
		name: "no successful run on the branch",
		fixture: func(_ *testing.T, srv *githubtest.Server) map[int]int64 {
			srv.AddWorkflowRun(githubtest.WorkflowRun{ID: currentID, WorkflowID: workflow, Branch: "feature", Event: "pull_request", Status: "in_progress"})
			srv.AddWorkflowRun(githubtest.WorkflowRun{WorkflowID: workflow, Branch: "main", Conclusion: "failure"})
			srv.AddWorkflowRun(githubtest.WorkflowRun{WorkflowID: workflow, Branch: "main", Event: "pull_request", Conclusion: "success"})
			return nil
		},
		setup:   func(*testing.T, *githubtest.Server, map[int]int64) {},
		wantErr: "no base report: no successful run of this workflow on main",
		noBase:  true,
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := githubtest.New(t)
			fixture := tc.fixture
			if fixture == nil {
				fixture = baseFixture
			}
			ids := fixture(t, srv)
			tc.setup(t, srv, ids)
			c, waits := client(t, srv)
			b, err := c.BaseReport(context.Background(), github.BaseQuery{RunID: currentID, Branch: "main", ArtifactName: artifact, MaxBytes: tc.max})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("BaseReport error = %v; want one containing %q", err, tc.wantErr)
				}
				if got := errors.Is(err, github.ErrNoBase); got != tc.noBase {
					t.Errorf("errors.Is(%v, ErrNoBase) = %v, want %v", err, got, tc.noBase)
				}
				if got := github.Forbidden(err); got != tc.forbidden {
					t.Errorf("Forbidden(%v) = %v, want %v", err, got, tc.forbidden)
				}
			} else {
				if err != nil {
					t.Fatalf("BaseReport: %v", err)
				}
				if b.RunNumber != tc.wantRun || string(b.Summary) != tc.wantSummary || !slices.Equal(b.Skipped, tc.wantSkipped) {
					t.Errorf("base = run #%d, summary %s, skipped %q; want #%d, %s, %q", b.RunNumber, b.Summary, b.Skipped, tc.wantRun, tc.wantSummary, tc.wantSkipped)
				}
				if b.RunID != ids[int(tc.wantRun)] || b.Branch != "main" || b.HeadSHA != fmt.Sprintf("sha%d", tc.wantRun) || b.ArtifactName != artifact ||
					b.HTMLURL != fmt.Sprintf("https://github.com/o/r/actions/runs/%d", b.RunID) || b.ArtifactID == 0 {
					t.Errorf("base = %+v", b)
				}
				if trace, err := b.ReadFile("tests/refund.trace.json"); err != nil || string(trace) != "{}" {
					t.Errorf("ReadFile(trace) = %q, %v", trace, err)
				}
			}
			if !slices.Equal(*waits, tc.wantWaits) {
				t.Errorf("retry waits = %v, want %v", *waits, tc.wantWaits)
			}
			// The fake fails the test on any request outside GitHub's
			// description; check that each one was an operation, carried the
			// token, and that storage never saw it.
			for _, r := range srv.Requests() {
				if r.Operation == "" || r.Header.Get("Authorization") != "Bearer tok" {
					t.Errorf("API request %s %s: operation %q, Authorization %q", r.Method, r.Path, r.Operation, r.Header.Get("Authorization"))
				}
			}
			for _, r := range srv.BlobRequests() {
				if _, ok := r.Header["Authorization"]; ok {
					t.Errorf("storage request %s carried an Authorization header", r.Path)
				}
			}
		})
	}
}

// TestBaseReportRequests: the requests of a found report, in order, and
// the current run is never a candidate even when it looks like one.
func TestBaseReportRequests(t *testing.T) {
	srv := githubtest.New(t)
	srv.AddWorkflowRun(githubtest.WorkflowRun{ID: 1, RunNumber: 1, WorkflowID: workflow, Branch: "main", Conclusion: "success", HeadSHA: "sha01"})
	// A re-run on main that already succeeded, with an artifact: itself.
	srv.AddWorkflowRun(githubtest.WorkflowRun{ID: 2, RunNumber: 2, WorkflowID: workflow, Branch: "main", Conclusion: "success"})
	srv.AddArtifact(1, artifact, reportZip(t, map[string]string{"summary.json": "base"}), false)
	srv.AddArtifact(2, artifact, reportZip(t, map[string]string{"summary.json": "self"}), false)
	c, _ := client(t, srv)
	b, err := c.BaseReport(context.Background(), github.BaseQuery{RunID: 2, Branch: "main", ArtifactName: artifact})
	if err != nil || string(b.Summary) != "base" || len(b.Skipped) != 0 {
		t.Fatalf("BaseReport = %+v, %v; want run 1's report", b, err)
	}
	var ops []string
	for _, r := range srv.Requests() {
		ops = append(ops, r.Operation)
	}
	wantOps := []string{"actions/get-workflow-run", "actions/list-workflow-runs", "actions/list-workflow-run-artifacts", "actions/download-artifact"}
	if !slices.Equal(ops, wantOps) {
		t.Errorf("operations = %q, want %q", ops, wantOps)
	}
	reqs := srv.Requests()
	if q := reqs[1].Query; q.Get("branch") != "main" || q.Get("status") != "success" || q.Get("per_page") != "10" {
		t.Errorf("runs query = %v", q)
	}
	if q := reqs[2].Query; q.Get("name") != artifact {
		t.Errorf("artifacts query = %v", q)
	}
	if blobs := srv.BlobRequests(); len(blobs) != 1 || blobs[0].Header.Get("Authorization") != "" {
		t.Errorf("storage requests = %+v", blobs)
	}
	for _, name := range []string{"../summary.json", "/summary.json", "", ".", "missing.json"} {
		if _, err := b.ReadFile(name); err == nil {
			t.Errorf("ReadFile(%q) succeeded", name)
		}
	}
}

func TestContextBaseQuery(t *testing.T) {
	tests := []struct {
		name    string
		c       github.Context
		want    github.BaseQuery
		wantErr string
		noBase  bool
	}{
		{"pull request", github.Context{EventName: "pull_request", BaseRef: "main", RunID: "42"}, github.BaseQuery{RunID: 42, Branch: "main", ArtifactName: "r"}, "", false},
		{"push", github.Context{EventName: "push", RunID: "42"}, github.BaseQuery{}, "no base report: the push event has no base branch", true},
		{"bad run id", github.Context{EventName: "pull_request", BaseRef: "main", RunID: "x"}, github.BaseQuery{}, `GITHUB_RUN_ID "x"`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.c.BaseQuery("r")
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || errors.Is(err, github.ErrNoBase) != tc.noBase {
					t.Errorf("BaseQuery() error = %v; want %q (ErrNoBase: %v)", err, tc.wantErr, tc.noBase)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("BaseQuery() = %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
}
