package github_test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ananke/action/internal/github"
	"github.com/ananke/action/internal/github/githubtest"
)

const historyArtifact = "ananke-history"

// mainRun is a completed run of workflow 7 on main, numbered n, with the
// artifacts it uploaded: "r" a report, "h" a history file, "R" an
// expired report, "x" a report that is no zip, "H" a history artifact
// without history.json; pad makes its report that many bytes larger.
type mainRun struct {
	n          int
	uploaded   string
	conclusion string // "" success
	pad        int
}

// historyRepo stores the runs, oldest first, and the current run (a
// pull request), with runs that must never be taken: a pull request's run
// on a branch named main, another branch's, another workflow's, and one
// still in progress — each with both artifacts.
func historyRepo(t *testing.T, srv *githubtest.Server, runs []mainRun) {
	t.Helper()
	at := func(i int) time.Time { return time.Date(2026, 3, 1, 0, i, 0, 0, time.UTC) }
	decoys := []githubtest.WorkflowRun{
		{WorkflowID: workflow, RunNumber: 900, Branch: "main", Event: "pull_request", Conclusion: "success"},
		{WorkflowID: workflow, RunNumber: 901, Branch: "feature", Conclusion: "success"},
		{WorkflowID: 8, RunNumber: 902, Branch: "main", Conclusion: "success"},
		{WorkflowID: workflow, RunNumber: 903, Branch: "main", Status: "in_progress"},
	}
	for i, d := range decoys {
		d.CreatedAt = at(1000 + i)
		id := srv.AddWorkflowRun(d)
		srv.AddArtifact(id, artifact, reportZip(t, map[string]string{"summary.json": "decoy"}), false)
		srv.AddArtifact(id, historyArtifact, reportZip(t, map[string]string{"history.json": "decoy"}), false)
	}
	for i, r := range runs {
		id := srv.AddWorkflowRun(githubtest.WorkflowRun{ID: int64(5000 + r.n), WorkflowID: workflow, RunNumber: r.n, Branch: "main",
			Conclusion: cmp.Or(r.conclusion, "success"), HeadSHA: fmt.Sprintf("sha%d", r.n), CreatedAt: at(i)})
		for _, c := range r.uploaded {
			switch c {
			case 'r', 'R':
				files := map[string]string{"summary.json": fmt.Sprintf(`{"run":%d}`, r.n), "tests/a.trace.json": "{}"}
				if r.pad > 0 {
					files["tests/pad.bin"] = strings.Repeat("\x00", r.pad)
				}
				srv.AddArtifact(id, artifact, storedZip(t, files), c == 'R')
			case 'x':
				srv.AddArtifact(id, artifact, []byte("not a zip"), false)
			case 'h':
				srv.AddArtifact(id, historyArtifact, reportZip(t, map[string]string{"history.json": fmt.Sprintf(`{"file":%d}`, r.n)}), false)
			case 'H':
				srv.AddArtifact(id, historyArtifact, reportZip(t, map[string]string{"other.json": "{}"}), false)
			}
		}
	}
	srv.AddWorkflowRun(githubtest.WorkflowRun{ID: currentID, WorkflowID: workflow, RunNumber: 999, Branch: "feature",
		Event: "pull_request", Status: "in_progress", CreatedAt: at(2000)})
}

// storedZip is reportZip without compression, so that padding counts in
// the artifact's size.
func storedZip(t *testing.T, files map[string]string) []byte {
	t.Helper()
	return zipOf(t, files, true)
}

// gathered is what a GatherHistory found, in short: "file 45" and the
// report runs, newest first ("44 43").
func gathered(b *github.BaseHistory) string {
	var parts []string
	if b.File != nil {
		parts = append(parts, fmt.Sprintf("file %d=%s", b.File.Run.Number, b.File.Data))
	}
	for _, r := range b.Reports {
		parts = append(parts, fmt.Sprintf("%d=%s", r.Run.Number, r.Summary))
	}
	return strings.Join(parts, " ")
}

func runs(from, to int, uploaded string) []mainRun {
	var out []mainRun
	for n := from; n <= to; n++ {
		out = append(out, mainRun{n: n, uploaded: uploaded})
	}
	return out
}

func TestGatherHistory(t *testing.T) {
	const unbounded = 1 << 30
	tests := []struct {
		name     string
		runs     []mainRun
		n        int   // HistoryQuery.Runs (default 3)
		maxBytes int64 // default unbounded
		setup    func(srv *githubtest.Server)
		valid    func([]byte) error
		want     string
		// blobs is the storage requests; overBudget, expired and
		// passedOver what was left out.
		blobs      int
		overBudget int
		expired    int
		passedOver []string
	}{{
		name:  "the newest history file: one download",
		runs:  []mainRun{{n: 40, uploaded: "rh"}, {n: 41, uploaded: "rh"}},
		valid: func([]byte) error { return nil },
		want:  `file 41={"file":41}`,
		blobs: 1,
	}, {
		name:  "runs newer than the history file are read from their reports",
		runs:  []mainRun{{n: 40, uploaded: "rh"}, {n: 41, uploaded: "r", conclusion: "failure"}, {n: 42, uploaded: "r"}, {n: 43}},
		want:  `file 40={"file":40} 42={"run":42} 41={"run":41}`,
		blobs: 3,
	}, {
		name:  "no history file: the newest runs' reports, failed runs too",
		runs:  append(runs(30, 38, "r"), mainRun{n: 39, uploaded: "r", conclusion: "failure"}, mainRun{n: 40}, mainRun{n: 41, uploaded: "r", conclusion: "cancelled"}),
		want:  `41={"run":41} 39={"run":39} 38={"run":38}`,
		blobs: 3,
	}, {
		name: "a history file older than the runs wanted is not read",
		runs: append([]mainRun{{n: 30, uploaded: "rh"}}, runs(31, 34, "r")...),
		want: `34={"run":34} 33={"run":33} 32={"run":32}`, blobs: 3,
	}, {
		name:       "a history artifact without its file: the reports instead",
		runs:       []mainRun{{n: 39, uploaded: "rh"}, {n: 40, uploaded: "r"}, {n: 41, uploaded: "rH"}},
		want:       `41={"run":41} 40={"run":40} 39={"run":39}`,
		blobs:      4,
		passedOver: []string{"artifact ananke-history of run #41 has no history.json"},
	}, {
		name:       "a history file its reader refuses: the reports instead",
		runs:       []mainRun{{n: 40, uploaded: "r"}, {n: 41, uploaded: "rh"}},
		valid:      func([]byte) error { return errors.New(`schema "x"`) },
		want:       `41={"run":41} 40={"run":40}`,
		blobs:      3,
		passedOver: []string{`the history.json of artifact ananke-history of run #41 could not be read: schema "x"`},
	}, {
		name:       "expired and unreadable reports are passed over",
		runs:       []mainRun{{n: 38, uploaded: "r"}, {n: 39, uploaded: "r"}, {n: 40, uploaded: "x"}, {n: 41, uploaded: "R"}},
		want:       `39={"run":39} 38={"run":38}`,
		blobs:      3,
		expired:    1,
		passedOver: []string{"artifact ananke-report of run #40 could not be read: zip: not a valid zip file"},
	}, {
		name: "over the budget: skipped, and a smaller older one still read",
		runs: []mainRun{{n: 38, uploaded: "r"}, {n: 39, uploaded: "r", pad: 10000}, {n: 40, uploaded: "r", pad: 2000}, {n: 41, uploaded: "r"}},
		n:    4, maxBytes: 4000,
		want:       `41={"run":41} 40={"run":40} 38={"run":38}`,
		blobs:      3,
		overBudget: 1,
	}, {
		name:  "at most twice the runs wanted are looked at",
		runs:  append([]mainRun{{n: 10, uploaded: "rh"}}, runs(11, 20, "")...),
		n:     1,
		want:  "",
		blobs: 0,
	}, {
		name:  "an expired download (410) is passed over",
		runs:  []mainRun{{n: 40, uploaded: "r"}, {n: 41, uploaded: "r"}},
		setup: func(srv *githubtest.Server) { srv.Fail("actions/download-artifact", 1, http.StatusGone) },
		n:     2, want: `40={"run":40}`, blobs: 1,
		passedOver: []string{"artifact ananke-report of run #41 has expired (its download answered 410 Gone)"},
	}, {
		name:  "storage failing for good is passed over",
		runs:  []mainRun{{n: 40, uploaded: "r"}, {n: 41, uploaded: "r"}},
		setup: func(srv *githubtest.Server) { srv.Fail(githubtest.BlobOperation, 4, http.StatusServiceUnavailable) },
		n:     2, want: `40={"run":40}`, blobs: 5,
		passedOver: []string{"artifact ananke-report of run #41 could not be downloaded: storage answered 503 Service Unavailable"},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := githubtest.New(t)
			historyRepo(t, srv, tc.runs)
			if tc.setup != nil {
				tc.setup(srv)
			}
			c, _ := client(t, srv)
			q := github.HistoryQuery{RunID: currentID, Branch: "main", HistoryArtifact: historyArtifact, ReportArtifact: artifact,
				Runs: cmp.Or(tc.n, 3), MaxBytes: cmp.Or(tc.maxBytes, unbounded), Valid: tc.valid}
			b, err := c.GatherHistory(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			if got := gathered(b); got != tc.want {
				t.Errorf("gathered %s; want %s", got, tc.want)
			}
			if n := len(srv.BlobRequests()); n != tc.blobs {
				t.Errorf("%d storage requests; want %d", n, tc.blobs)
			}
			if b.OverBudget != tc.overBudget || b.Expired != tc.expired || !slices.Equal(b.PassedOver, tc.passedOver) || b.Stopped != "" {
				t.Errorf("over budget %d, expired %d, passed over %q, stopped %q; want %d, %d, %q", b.OverBudget, b.Expired, b.PassedOver, b.Stopped,
					tc.overBudget, tc.expired, tc.passedOver)
			}
			if served := srv.BlobBytes(); b.Bytes > q.MaxBytes || b.Bytes != served {
				t.Errorf("%d bytes downloaded, %d served; want them equal and at most %d", b.Bytes, served, q.MaxBytes)
			}
			for _, r := range b.Reports {
				if r.Run.HeadSHA != fmt.Sprintf("sha%d", r.Run.Number) || r.Run.ID != 5000+r.Run.Number ||
					r.Run.HTMLURL != fmt.Sprintf("https://github.com/o/r/actions/runs/%d", r.Run.ID) || r.Size == 0 {
					t.Errorf("report run %+v, size %d", r.Run, r.Size)
				}
			}
		})
	}
}

// TestGatherHistoryDeadline: when the time budget runs out, what was read
// by then is the history, and the search says it stopped.
func TestGatherHistoryDeadline(t *testing.T) {
	srv := githubtest.New(t)
	historyRepo(t, srv, runs(30, 41, "r"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var blobs atomic.Int32
	hc := &http.Client{Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
		if strings.Contains(r.URL.Path, "/_githubtest/blob/") && blobs.Add(1) == 3 {
			cancel() // the deadline passes as the third download starts
		}
		return http.DefaultTransport.RoundTrip(r)
	})}
	c, err := github.NewClient(&github.Context{Owner: "o", Repo: "r", APIURL: srv.URL}, "tok", github.ClientOptions{HTTP: hc, Now: time.Now})
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.GatherHistory(ctx, github.HistoryQuery{RunID: currentID, Branch: "main", HistoryArtifact: historyArtifact,
		ReportArtifact: artifact, Runs: 10, MaxBytes: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	if got := gathered(b); got != `41={"run":41} 40={"run":40}` || b.Stopped != "the time budget ran out" || len(b.PassedOver) != 0 {
		t.Errorf("gathered %s, stopped %q, passed over %q; want runs 41 and 40 and the time budget", got, b.Stopped, b.PassedOver)
	}
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestGatherHistoryErrors(t *testing.T) {
	tests := []struct {
		name      string
		setup     func(srv *githubtest.Server)
		q         func(q *github.HistoryQuery)
		wantErr   string
		forbidden bool
	}{
		{name: "no actions: read", setup: func(srv *githubtest.Server) { srv.Fail("actions/list-workflow-runs", 1, http.StatusForbidden) },
			wantErr: "list runs of workflow 7 on main", forbidden: true},
		{name: "download forbidden", setup: func(srv *githubtest.Server) { srv.Fail("actions/download-artifact", 1, http.StatusForbidden) },
			wantErr: "download artifact ananke-report of run #41", forbidden: true},
		{name: "no branch", q: func(q *github.HistoryQuery) { q.Branch = "" }, wantErr: "history: no branch"},
		{name: "too many runs", q: func(q *github.HistoryQuery) { q.Runs = 101 }, wantErr: "history: 101 runs; want 1 to 100"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := githubtest.New(t)
			historyRepo(t, srv, runs(40, 41, "r"))
			if tc.setup != nil {
				tc.setup(srv)
			}
			q := github.HistoryQuery{RunID: currentID, Branch: "main", HistoryArtifact: historyArtifact, ReportArtifact: artifact, Runs: 3, MaxBytes: 1 << 20}
			if tc.q != nil {
				tc.q(&q)
			}
			c, _ := client(t, srv)
			_, err := c.GatherHistory(context.Background(), q)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || github.Forbidden(err) != tc.forbidden {
				t.Errorf("GatherHistory error %v; want one containing %q, forbidden %v", err, tc.wantErr, tc.forbidden)
			}
			if errors.Is(err, github.ErrNoBase) {
				t.Errorf("%v wraps ErrNoBase", err)
			}
		})
	}
}

func TestHumanBytes(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 999: "999 B", 1000: "1 KB", 23_456: "23 KB", 1_260_000: "1.3 MB",
		38_000_000: "38 MB", 50_000_000: "50 MB", 9_940_000: "9.9 MB", 9_960_000: "10 MB", 2_000_000_000: "2 GB"} {
		if got := github.HumanBytes(n); got != want {
			t.Errorf("HumanBytes(%d) = %q; want %q", n, got, want)
		}
	}
}
