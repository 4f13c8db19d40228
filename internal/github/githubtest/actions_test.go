package githubtest_test

import (
	"context"
	"io"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/ananke/action/internal/github/githubtest"
)

// runsFixture declares runs of two workflows on several branches.
func runsFixture(srv *githubtest.Server) {
	at := func(h int) time.Time { return time.Date(2026, 2, 1, h, 0, 0, 0, time.UTC) }
	for _, r := range []githubtest.WorkflowRun{
		{ID: 101, RunNumber: 1, WorkflowID: 7, Branch: "main", Conclusion: "success", HeadSHA: "a1", CreatedAt: at(1)},
		{ID: 102, RunNumber: 2, WorkflowID: 7, Branch: "main", Conclusion: "failure", HeadSHA: "a2", CreatedAt: at(2)},
		{ID: 103, RunNumber: 3, WorkflowID: 7, Branch: "feature", Event: "pull_request", Conclusion: "success", HeadSHA: "b1", CreatedAt: at(3)},
		{ID: 104, RunNumber: 4, WorkflowID: 7, Branch: "main", Conclusion: "success", HeadSHA: "a3", CreatedAt: at(4)},
		{ID: 105, RunNumber: 5, WorkflowID: 7, Branch: "main", Status: "in_progress", HeadSHA: "a4", CreatedAt: at(5)},
		{ID: 201, RunNumber: 1, WorkflowID: 8, Path: ".github/workflows/nightly.yml", Branch: "main", Event: "schedule", Conclusion: "success", CreatedAt: at(6)},
	} {
		srv.AddWorkflowRun(r)
	}
}

func TestListWorkflowRuns(t *testing.T) {
	srv := githubtest.New(t)
	runsFixture(srv)
	ctx := context.Background()
	tests := []struct {
		name     string
		workflow int64
		opts     github.ListWorkflowRunsOptions
		want     []int64
	}{
		{"all, newest first", 7, github.ListWorkflowRunsOptions{}, []int64{105, 104, 103, 102, 101}},
		{"branch", 7, github.ListWorkflowRunsOptions{Branch: "main"}, []int64{105, 104, 102, 101}},
		{"status=success matches the conclusion", 7, github.ListWorkflowRunsOptions{Branch: "main", Status: "success"}, []int64{104, 101}},
		{"status as a status", 7, github.ListWorkflowRunsOptions{Status: "in_progress"}, []int64{105}},
		{"event", 7, github.ListWorkflowRunsOptions{Event: "pull_request"}, []int64{103}},
		{"head_sha", 7, github.ListWorkflowRunsOptions{HeadSHA: "a2"}, []int64{102}},
		{"page 2 of 2", 7, github.ListWorkflowRunsOptions{ListOptions: github.ListOptions{PerPage: 3, Page: 2}}, []int64{102, 101}},
		{"other workflow", 8, github.ListWorkflowRunsOptions{}, []int64{201}},
		{"unknown workflow", 9, github.ListWorkflowRunsOptions{}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			runs, _, err := srv.Client().Actions.ListWorkflowRunsByID(ctx, owner, repo, tc.workflow, &tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			var got []int64
			for _, r := range runs.WorkflowRuns {
				got = append(got, r.GetID())
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("runs = %v, want %v", got, tc.want)
			}
			if tc.opts.Page == 0 && runs.GetTotalCount() != len(tc.want) {
				t.Errorf("total_count = %d, want %d", runs.GetTotalCount(), len(tc.want))
			}
		})
	}
	runs, _, err := srv.Client().Actions.ListWorkflowRunsByFileName(ctx, owner, repo, "nightly.yml", nil)
	if err != nil || len(runs.WorkflowRuns) != 1 || runs.WorkflowRuns[0].GetEvent() != "schedule" {
		t.Errorf("by file name: %v, %v", runs, err)
	}
}

// TestCompleteWorkflowRun: a run marked completed is listed by its
// conclusion, and no longer as in progress.
func TestCompleteWorkflowRun(t *testing.T) {
	srv := githubtest.New(t)
	runsFixture(srv)
	srv.CompleteWorkflowRun(105, "failure")
	ctx := context.Background()
	for status, want := range map[string][]int64{"failure": {105, 102}, "completed": {105, 104, 103, 102, 101}, "in_progress": nil} {
		runs, _, err := srv.Client().Actions.ListWorkflowRunsByID(ctx, owner, repo, 7, &github.ListWorkflowRunsOptions{Status: status})
		if err != nil {
			t.Fatal(err)
		}
		var got []int64
		for _, r := range runs.WorkflowRuns {
			got = append(got, r.GetID())
		}
		if !slices.Equal(got, want) {
			t.Errorf("status %s: runs %v, want %v", status, got, want)
		}
	}
}

func TestGetWorkflowRun(t *testing.T) {
	srv := githubtest.New(t)
	runsFixture(srv)
	ctx := context.Background()
	run, _, err := srv.Client().Actions.GetWorkflowRunByID(ctx, owner, repo, 104)
	if err != nil {
		t.Fatal(err)
	}
	if run.GetWorkflowID() != 7 || run.GetRunNumber() != 4 || run.GetHeadBranch() != "main" || run.GetHeadSHA() != "a3" ||
		run.GetConclusion() != "success" || run.GetStatus() != "completed" || run.GetEvent() != "push" ||
		run.GetHTMLURL() != "https://github.com/ananke/demo/actions/runs/104" || !run.GetCreatedAt().Time.Equal(time.Date(2026, 2, 1, 4, 0, 0, 0, time.UTC)) {
		t.Errorf("run = %+v", run)
	}
	running, _, err := srv.Client().Actions.GetWorkflowRunByID(ctx, owner, repo, 105)
	if err != nil || running.Conclusion != nil {
		t.Errorf("running run: conclusion %v, %v; want null", running.Conclusion, err)
	}
	_, _, err = srv.Client().Actions.GetWorkflowRunByID(ctx, owner, repo, 999)
	wantStatus(t, err, http.StatusNotFound)
}

func TestArtifacts(t *testing.T) {
	srv := githubtest.New(t)
	runsFixture(srv)
	ctx := context.Background()
	client := srv.Client()
	report := srv.AddArtifact(104, "ananke-report", []byte("PK zip"), false)
	srv.AddArtifact(104, "coverage", []byte("other"), false)
	old := srv.AddArtifact(101, "ananke-report", []byte("old"), true)

	list, _, err := client.Actions.ListWorkflowRunArtifacts(ctx, owner, repo, 104, nil)
	if err != nil || list.GetTotalCount() != 2 || list.Artifacts[0].GetName() != "coverage" {
		t.Fatalf("artifacts of 104 = %+v, %v; want 2, newest first", list, err)
	}
	// go-github v66 has no name option here; the query is GitHub's.
	req, err := client.NewRequest("GET", "repos/ananke/demo/actions/runs/104/artifacts?name=ananke-report", nil)
	if err != nil {
		t.Fatal(err)
	}
	var named github.ArtifactList
	if _, err := client.Do(ctx, req, &named); err != nil || len(named.Artifacts) != 1 {
		t.Fatalf("artifacts named ananke-report = %+v, %v", named, err)
	}
	a := named.Artifacts[0]
	if a.GetID() != report || a.GetSizeInBytes() != 6 || a.GetExpired() || a.GetWorkflowRun().GetID() != 104 ||
		a.GetWorkflowRun().GetHeadBranch() != "main" || !a.GetExpiresAt().After(a.GetCreatedAt().Time) {
		t.Errorf("artifact = %+v", a)
	}
	list, _, err = client.Actions.ListWorkflowRunArtifacts(ctx, owner, repo, 101, nil)
	if err != nil || !list.Artifacts[0].GetExpired() {
		t.Errorf("expired artifact listed as %+v, %v", list, err)
	}
	_, _, err = client.Actions.ListWorkflowRunArtifacts(ctx, owner, repo, 999, nil)
	wantStatus(t, err, http.StatusNotFound)

	// Download: a redirect to storage, which wants no token.
	loc, resp, err := client.Actions.DownloadArtifact(ctx, owner, repo, report, 0)
	if err != nil || resp.StatusCode != http.StatusFound || loc.Query().Get("sig") == "" {
		t.Fatalf("DownloadArtifact = %v, %v, %v", loc, resp, err)
	}
	blob, err := http.Get(loc.String())
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(blob.Body)
	blob.Body.Close()
	if blob.StatusCode != http.StatusOK || string(body) != "PK zip" || blob.Header.Get("Content-Type") != "application/zip" {
		t.Errorf("blob = %d %q", blob.StatusCode, body)
	}
	if got := srv.BlobRequests(); len(got) != 1 || got[0].Header.Get("Authorization") != "" {
		t.Errorf("blob requests = %+v", got)
	}
	if n := srv.BlobBytes(); n != int64(len("PK zip")) {
		t.Errorf("BlobBytes = %d; want %d", n, len("PK zip"))
	}
	forged := *loc
	q := forged.Query()
	q.Set("sig", "forged")
	forged.RawQuery = q.Encode()
	if blob, err := http.Get(forged.String()); err != nil || blob.StatusCode != http.StatusForbidden {
		t.Errorf("forged signature: %v, %v; want 403", blob, err)
	} else {
		blob.Body.Close()
	}
	if n := srv.BlobBytes(); n != int64(len("PK zip")) {
		t.Errorf("BlobBytes after a refused download = %d; want %d: an error body is not an artifact's", n, len("PK zip"))
	}

	_, resp, err = client.Actions.DownloadArtifact(ctx, owner, repo, old, 0)
	if err == nil || resp == nil || resp.StatusCode != http.StatusGone {
		t.Errorf("expired download = %v, %v; want 410", resp, err)
	}
	_, resp, err = client.Actions.DownloadArtifact(ctx, owner, repo, 999, 0)
	if err == nil || resp == nil || resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown download = %v, %v; want 404", resp, err)
	}
	if _, err := rawDo(t, client, "GET", "repos/ananke/demo/actions/artifacts/1/tar", nil); err == nil {
		t.Error("archive format tar accepted")
	}
	for _, r := range srv.Requests() {
		if r.Operation == "" || r.Header.Get("Authorization") == "" {
			t.Errorf("request %s %s: operation %q, authorised %v", r.Method, r.Path, r.Operation, r.Header.Get("Authorization") != "")
		}
	}
}

// TestBlobWithToken: sending the GitHub token to storage fails the test.
func TestBlobWithToken(t *testing.T) {
	srv, rec := newRecorded(t)
	srv.AddWorkflowRun(githubtest.WorkflowRun{ID: 1, WorkflowID: 7, Branch: "main", Conclusion: "success"})
	id := srv.AddArtifact(1, "ananke-report", []byte("zip"), false)
	loc, _, err := srv.Client().Actions.DownloadArtifact(context.Background(), owner, repo, id, 0)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("GET", loc.String(), nil)
	req.Header.Set("Authorization", "Bearer ghs_x")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("status = %d, want 400", resp.StatusCode)
	}
	wantReport(t, rec, "Authorization header", "/_githubtest/blob/artifacts/1.zip")
}

func TestFail(t *testing.T) {
	srv := githubtest.New(t)
	runsFixture(srv)
	ctx := context.Background()
	client := srv.Client()
	srv.Fail("actions/get-workflow-run", 1, http.StatusForbidden)
	srv.Fail("actions/get-workflow-run", 1, http.StatusBadGateway)
	_, _, err := client.Actions.GetWorkflowRunByID(ctx, owner, repo, 101)
	er := wantStatus(t, err, http.StatusForbidden)
	if er.Message != "Resource not accessible by integration" || er.Response.Header.Get("X-Accepted-GitHub-Permissions") != "actions=read" {
		t.Errorf("403 = %q, permissions %q", er.Message, er.Response.Header.Get("X-Accepted-GitHub-Permissions"))
	}
	_, _, err = client.Actions.GetWorkflowRunByID(ctx, owner, repo, 101)
	wantStatus(t, err, http.StatusBadGateway)
	if _, _, err := client.Actions.GetWorkflowRunByID(ctx, owner, repo, 101); err != nil {
		t.Errorf("after the faults: %v", err)
	}

	id := srv.AddArtifact(101, "r", []byte("zip"), false)
	srv.Fail("actions/download-artifact", 1, http.StatusGone)
	if _, resp, err := client.Actions.DownloadArtifact(ctx, owner, repo, id, 0); err == nil || resp.StatusCode != http.StatusGone {
		t.Errorf("download with a 410 fault = %v, %v", resp, err)
	}
	srv.Fail(githubtest.BlobOperation, 1, http.StatusServiceUnavailable)
	loc, _, err := client.Actions.DownloadArtifact(ctx, owner, repo, id, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []int{http.StatusServiceUnavailable, http.StatusOK} {
		resp, err := http.Get(loc.String())
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("blob status = %d, want %d", resp.StatusCode, want)
		}
	}
}

func TestFailMisuse(t *testing.T) {
	tests := []struct {
		name string
		do   func(*githubtest.Server)
		want string
	}{
		{"unknown operation", func(s *githubtest.Server) { s.Fail("actions/list-jobs", 1, 500) }, "no such operationId"},
		{"not an error status", func(s *githubtest.Server) { s.Fail("actions/get-workflow-run", 1, 302) }, "not an error status"},
		{"rate limit on storage", func(s *githubtest.Server) { s.RateLimit(githubtest.BlobOperation, 1, false, time.Second) }, "Fail(BlobOperation"},
		{"artifact of an unknown run", func(s *githubtest.Server) { s.AddArtifact(5, "x", nil, false) }, "no such workflow run"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv, rec := newRecorded(t)
			tc.do(srv)
			wantReport(t, rec, tc.want)
		})
	}
}
