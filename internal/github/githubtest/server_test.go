package githubtest_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/ananke/action/internal/github/githubtest"
)

func TestUnknownRoutes(t *testing.T) {
	tests := []struct {
		name string
		send func(ctx context.Context, c *github.Client) error
		want []string
	}{{
		name: "path outside the description",
		send: func(ctx context.Context, c *github.Client) error {
			_, _, err := c.PullRequests.List(ctx, owner, repo, nil)
			return err
		},
		want: []string{"GET /repos/ananke/demo/pulls", "not an operation"},
	}, {
		name: "method outside the description",
		send: func(ctx context.Context, c *github.Client) error {
			_, err := c.Issues.DeleteComment(ctx, owner, repo, 1)
			return err
		},
		want: []string{"DELETE /repos/ananke/demo/issues/comments/1", "method not allowed"},
	}, {
		name: "path parameter of the wrong type",
		send: func(ctx context.Context, c *github.Client) error {
			_, err := rawDo(t, c, http.MethodPatch, "repos/ananke/demo/check-runs/abc", map[string]any{"name": "x"})
			return err
		},
		want: []string{"checks/update", `parameter "check_run_id"`},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv, rec := newRecorded(t)
			err := tc.send(context.Background(), srv.Client())
			if err == nil {
				t.Fatal("request succeeded, want an error")
			}
			wantReport(t, rec, tc.want...)
		})
	}
}

func TestWriteWithoutToken(t *testing.T) {
	srv, rec := newRecorded(t)
	resp, err := http.Post(srv.URL+"/repos/ananke/demo/issues/7/comments", "application/json", strings.NewReader(`{"body":"hi"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("status = %d, want 401", resp.StatusCode)
	}
	wantReport(t, rec, "issues/create-comment", "Authorization")
}

func TestRequestsRecorded(t *testing.T) {
	srv := githubtest.New(t)
	ctx := context.Background()
	client := srv.Client()
	if _, _, err := client.Issues.ListComments(ctx, owner, repo, 3, &github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: 50, Page: 2}}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := client.Issues.CreateComment(ctx, owner, repo, 3, &github.IssueComment{Body: github.String("hi")}); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	if r := reqs[0]; r.Method != "GET" || r.Path != "/repos/ananke/demo/issues/3/comments" || r.Operation != "issues/list-comments" ||
		r.Query.Get("per_page") != "50" || r.Query.Get("page") != "2" || len(r.Body) != 0 {
		t.Errorf("request 0 = %+v", r)
	}
	if r := reqs[1]; r.Method != "POST" || r.Operation != "issues/create-comment" || strings.TrimSpace(string(r.Body)) != `{"body":"hi"}` || len(r.Query) != 0 {
		t.Errorf("request 1 = %+v (body %s)", r, r.Body)
	}
	reqs[1].Body[0] = 'X' // a copy: the fake's record is unchanged
	if srv.Requests()[1].Body[0] != '{' {
		t.Error("Requests returned the fake's own buffers")
	}
}

// TestConcurrentRequests runs writers in parallel; with -race it also checks
// the fake's locking.
func TestConcurrentRequests(t *testing.T) {
	srv := githubtest.New(t)
	ctx := context.Background()
	const n = 20
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			client := srv.Client()
			run, _, err := client.Checks.CreateCheckRun(ctx, owner, repo, createOpts(annotations(5, "notice")))
			if err != nil {
				t.Errorf("CreateCheckRun %d: %v", i, err)
				return
			}
			if _, _, err := client.Checks.UpdateCheckRun(ctx, owner, repo, run.GetID(), github.UpdateCheckRunOptions{
				Name: "ananke", Conclusion: github.String("success"),
				Output: &github.CheckRunOutput{Summary: github.String("ok"), Annotations: annotations(5, "notice")},
			}); err != nil {
				t.Errorf("UpdateCheckRun %d: %v", i, err)
			}
			if _, _, err := client.Issues.CreateComment(ctx, owner, repo, 1, &github.IssueComment{Body: github.String("c")}); err != nil {
				t.Errorf("CreateComment %d: %v", i, err)
			}
			if _, _, err := client.Issues.ListComments(ctx, owner, repo, 1, nil); err != nil {
				t.Errorf("ListComments %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	runs := srv.CheckRuns()
	ids := make(map[int64]bool)
	for _, r := range runs {
		ids[r.ID] = true
		if len(r.Annotations) != 10 || r.Conclusion != "success" {
			t.Errorf("run %d: %d annotations, conclusion %q", r.ID, len(r.Annotations), r.Conclusion)
		}
	}
	comments := srv.Comments(1)
	if len(ids) != n || len(comments) != n || len(srv.Requests()) != 4*n {
		t.Errorf("%d distinct runs, %d comments, %d requests; want %d, %d, %d", len(ids), len(comments), len(srv.Requests()), n, n, 4*n)
	}
	for i := 1; i < len(comments); i++ {
		if comments[i].ID <= comments[i-1].ID {
			t.Errorf("comment ids not ascending: %d after %d", comments[i].ID, comments[i-1].ID)
		}
	}
}
