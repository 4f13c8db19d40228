package github_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ananke/action/internal/github"
	"github.com/ananke/action/internal/github/githubtest"
)

// client returns a client for the fake, recording the retry waits.
func client(t *testing.T, srv *githubtest.Server) (*github.Client, *[]time.Duration) {
	t.Helper()
	var mu sync.Mutex
	var waits []time.Duration
	c, err := github.NewClient(&github.Context{Owner: "o", Repo: "r", APIURL: srv.URL}, "tok", github.ClientOptions{
		Sleep: func(_ context.Context, d time.Duration) error {
			mu.Lock()
			defer mu.Unlock()
			waits = append(waits, d)
			return nil
		},
		Now: time.Now,
	})
	if err != nil {
		t.Fatal(err)
	}
	return c, &waits
}

func annotations(n int) []github.Annotation {
	out := make([]github.Annotation, n)
	for i := range out {
		out[i] = github.Annotation{Path: "tests/a.ananke.yaml", Line: i + 1, Level: github.LevelFailure, Title: fmt.Sprintf("a%d", i), Message: "m"}
	}
	return out
}

// TestPublishCheckBatches: annotations go 50 per request and all arrive;
// every request validates against GitHub's OpenAPI description (the fake
// fails the test otherwise).
func TestPublishCheckBatches(t *testing.T) {
	for _, n := range []int{0, 1, 50, 51, 120} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			srv := githubtest.New(t)
			c, _ := client(t, srv)
			id, err := c.PublishCheck(context.Background(), github.CheckRun{Name: "ananke", HeadSHA: "abc123", Conclusion: "failure",
				Title: "1 failed of 2 tests", Summary: "summary", Annotations: annotations(n)})
			if err != nil {
				t.Fatal(err)
			}
			runs := srv.CheckRuns()
			if len(runs) != 1 || runs[0].ID != id || runs[0].Conclusion != "failure" || runs[0].Status != "completed" || runs[0].HeadSHA != "abc123" {
				t.Fatalf("check runs = %+v", runs)
			}
			if got := len(runs[0].Annotations); got != n {
				t.Errorf("%d annotations arrived; want %d", got, n)
			}
			if want := 1 + max(0, (n-1)/50); len(srv.Requests()) != want {
				t.Errorf("%d requests; want %d", len(srv.Requests()), want)
			}
		})
	}
}

// TestPublishCheckTrims: texts over GitHub's limits are cut with a note.
func TestPublishCheckTrims(t *testing.T) {
	srv := githubtest.New(t)
	c, _ := client(t, srv)
	huge := strings.Repeat("é", 40000) // 80000 bytes
	long := annotations(1)
	long[0].Message, long[0].Title = strings.Repeat("x", 70000), strings.Repeat("t", 300)
	if _, err := c.PublishCheck(context.Background(), github.CheckRun{Name: "ananke", HeadSHA: "abc", Conclusion: "success",
		Title: strings.Repeat("T", 300), Summary: huge, Text: huge, Annotations: long}); err != nil {
		t.Fatal(err)
	}
	run := srv.CheckRuns()[0]
	if len(run.Summary) > 65535 || !strings.Contains(run.Summary, "shortened to fit GitHub's limit") || len(run.Title) > 255 {
		t.Errorf("summary %d bytes, title %d", len(run.Summary), len(run.Title))
	}
}

func TestComments(t *testing.T) {
	srv := githubtest.New(t)
	for i := range 140 { // other bots and people, over two pages of 100
		srv.AddComment(7, "someone", fmt.Sprintf("comment %d", i))
	}
	c, _ := client(t, srv)
	marker := "<!-- ananke:report:ananke -->"
	ctx := context.Background()
	id, created, err := c.UpsertComment(ctx, 7, marker, marker+"\nfirst run", true)
	if err != nil || !created {
		t.Fatalf("first upsert = %d %v %v", id, created, err)
	}
	for i := range 5 {
		srv.AddComment(7, "someone", fmt.Sprintf("later %d", i))
	}
	id2, created, err := c.UpsertComment(ctx, 7, marker, marker+"\nsecond run", true)
	if err != nil || created || id2 != id {
		t.Fatalf("second upsert = %d %v %v; want an edit of %d", id2, created, err, id)
	}
	var ours []githubtest.Comment
	for _, cm := range srv.Comments(7) {
		if strings.Contains(cm.Body, marker) {
			ours = append(ours, cm)
		}
	}
	if len(ours) != 1 || !strings.HasPrefix(ours[0].Body, marker) || !strings.Contains(ours[0].Body, "second run") {
		t.Errorf("our comments = %+v; want one, edited, marker kept", ours)
	}
	other := "<!-- ananke:report:other-check -->"
	if _, created, _ := c.UpsertComment(ctx, 7, other, other+"\nx", false); created {
		t.Error("create=false created a comment")
	}
	if _, _, err := c.UpsertComment(ctx, 7, marker, "no marker", true); err == nil {
		t.Error("a body without its marker was accepted")
	}
	huge := marker + strings.Repeat("ü", 40000)
	if _, _, err := c.UpsertComment(ctx, 7, marker, huge, true); err != nil {
		t.Fatalf("oversize comment: %v", err)
	}
	for _, cm := range srv.Comments(7) {
		if cm.ID == id && (len(cm.Body) > 65000 || !strings.HasPrefix(cm.Body, marker)) {
			t.Errorf("oversize comment stored with %d bytes", len(cm.Body))
		}
	}
}

func TestReadOnlyToken(t *testing.T) {
	srv := githubtest.New(t)
	srv.ReadOnly()
	c, _ := client(t, srv)
	_, err := c.PublishCheck(context.Background(), github.CheckRun{Name: "ananke", HeadSHA: "abc", Conclusion: "success", Title: "t", Summary: "s"})
	if !github.Forbidden(err) || !strings.Contains(err.Error(), "Resource not accessible by integration") {
		t.Errorf("PublishCheck = %v; want a Forbidden error with GitHub's message", err)
	}
	_, _, err = c.UpsertComment(context.Background(), 1, "<!-- m -->", "<!-- m --> x", true)
	if !github.Forbidden(err) {
		t.Errorf("UpsertComment = %v; want a Forbidden error", err)
	}
	if github.Forbidden(errors.New("other")) {
		t.Error("Forbidden(other error) = true")
	}
}

// TestRateLimits: 429 and secondary limits are retried after Retry-After,
// a bounded number of times.
func TestRateLimits(t *testing.T) {
	for _, secondary := range []bool{false, true} {
		t.Run(fmt.Sprintf("secondary=%v", secondary), func(t *testing.T) {
			srv := githubtest.New(t)
			srv.RateLimit("issues/create-comment", 2, secondary, 7*time.Second)
			c, waits := client(t, srv)
			if _, _, err := c.UpsertComment(context.Background(), 3, "<!-- m -->", "<!-- m --> hi", true); err != nil {
				t.Fatalf("UpsertComment = %v; want success after retries", err)
			}
			if len(*waits) != 2 || (*waits)[0] != 7*time.Second {
				t.Errorf("waits = %v; want two of 7s", *waits)
			}
			if n := len(srv.Comments(3)); n != 1 {
				t.Errorf("%d comments; a retried POST must not duplicate", n)
			}
			srv.RateLimit("issues/create-comment", 10, secondary, 200*time.Second)
			if _, _, err := c.UpsertComment(context.Background(), 4, "<!-- m -->", "<!-- m --> hi", true); err == nil {
				t.Error("an endless rate limit succeeded")
			}
			if w := (*waits)[len(*waits)-1]; w != time.Minute {
				t.Errorf("last wait %v; want it capped at 1m", w)
			}
		})
	}
}

func TestContextFrom(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o644)
		return p
	}
	base := map[string]string{"GITHUB_REPOSITORY": "acme/shop", "GITHUB_SHA": "merge123", "GITHUB_RUN_ID": "42",
		"GITHUB_SERVER_URL": "https://github.example.com", "GITHUB_API_URL": "https://github.example.com/api/v3/"}
	tests := []struct {
		name, event, eventName, ref string
		baseRefEnv                  string // GITHUB_BASE_REF
		pr                          int
		sha, baseRef                string
		branch                      string
	}{
		{"pull_request", `{"number": 12, "pull_request": {"number": 12, "head": {"sha": "head456"}, "base": {"ref": "main"}}}`, "pull_request", "", "main", 12, "head456", "main", ""},
		{"base ref from the payload", `{"pull_request": {"number": 12, "base": {"ref": "release/1.x"}}}`, "pull_request_target", "", "", 12, "merge123", "release/1.x", ""},
		{"push", `{"ref": "refs/heads/main"}`, "push", "", "", 0, "merge123", "", "main"},
		{"push, GITHUB_REF first", `{"ref": "refs/heads/main"}`, "push", "refs/heads/release/2.x", "", 0, "merge123", "", "release/2.x"},
		{"tag", `{"ref": "refs/tags/v1.0.0"}`, "push", "", "", 0, "merge123", "", ""},
		{"schedule", `{}`, "schedule", "refs/heads/main", "", 0, "merge123", "", "main"},
		{"issue comment on a PR", `{"issue": {"number": 9, "pull_request": {"url": "x"}}}`, "issue_comment", "", "", 9, "merge123", "", ""},
		{"issue comment on an issue", `{"issue": {"number": 9}}`, "issue_comment", "", "", 0, "merge123", "", ""},
		{"pull_request without number", `{}`, "pull_request", "refs/pull/31/merge", "develop", 31, "merge123", "develop", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env := map[string]string{"GITHUB_EVENT_PATH": write(tc.name+".json", tc.event), "GITHUB_EVENT_NAME": tc.eventName, "GITHUB_REF": tc.ref,
				"GITHUB_BASE_REF": tc.baseRefEnv, "GITHUB_WORKFLOW_REF": "acme/shop/.github/workflows/ci.yml@" + tc.ref}
			for k, v := range base {
				env[k] = v
			}
			c, err := github.ContextFrom(func(k string) string { return env[k] }, nil)
			if err != nil {
				t.Fatal(err)
			}
			if c.PR != tc.pr || c.SHA != tc.sha || c.BaseRef != tc.baseRef || c.Branch != tc.branch || c.Owner != "acme" || c.Repo != "shop" ||
				c.APIURL != "https://github.example.com/api/v3" || c.WorkflowRef != "acme/shop/.github/workflows/ci.yml@"+tc.ref {
				t.Errorf("context = %+v", c)
			}
			if got := c.RunURL(); got != "https://github.example.com/acme/shop/actions/runs/42" {
				t.Errorf("RunURL = %s", got)
			}
		})
	}
	if _, err := github.ContextFrom(func(string) string { return "" }, nil); err == nil {
		t.Error("no GITHUB_REPOSITORY accepted")
	}
}

// TestServerErrors: a read that meets a 5xx is sent again after a growing
// wait; a write is not, as GitHub may have acted on it.
func TestServerErrors(t *testing.T) {
	tests := []struct {
		name      string
		op        string
		n         int
		wantErr   bool
		wantWaits []time.Duration
		wantSent  int // requests of op
	}{
		{"read retried", "issues/list-comments", 2, false, []time.Duration{2 * time.Second, 4 * time.Second}, 3},
		{"read gives up", "issues/list-comments", 4, true, []time.Duration{2 * time.Second, 4 * time.Second, 8 * time.Second}, 4},
		{"write not retried", "issues/create-comment", 1, true, nil, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := githubtest.New(t)
			srv.Fail(tc.op, tc.n, 502)
			c, waits := client(t, srv)
			_, _, err := c.UpsertComment(context.Background(), 3, "<!-- m -->", "<!-- m --> hi", true)
			if (err != nil) != tc.wantErr {
				t.Errorf("UpsertComment = %v; want error: %v", err, tc.wantErr)
			}
			sent := 0
			for _, r := range srv.Requests() {
				if r.Operation == tc.op {
					sent++
				}
			}
			if sent != tc.wantSent || !slices.Equal(*waits, tc.wantWaits) {
				t.Errorf("%d requests of %s, waits %v; want %d, %v", sent, tc.op, *waits, tc.wantSent, tc.wantWaits)
			}
		})
	}
}
