package githubtest_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/ananke/action/internal/github/githubtest"
)

func TestReadOnly(t *testing.T) {
	srv := githubtest.New(t)
	ctx := context.Background()
	id := srv.AddComment(7, "github-actions[bot]", "old")
	srv.ReadOnly()
	client := srv.Client()

	_, _, err := client.Checks.CreateCheckRun(ctx, owner, repo, createOpts(nil))
	er := wantStatus(t, err, http.StatusForbidden)
	if er.Message != "Resource not accessible by integration" {
		t.Errorf("CreateCheckRun message = %q", er.Message)
	}
	_, _, err = client.Issues.CreateComment(ctx, owner, repo, 7, &github.IssueComment{Body: github.String("new")})
	wantStatus(t, err, http.StatusForbidden)
	_, _, err = client.Issues.EditComment(ctx, owner, repo, id, &github.IssueComment{Body: github.String("new")})
	wantStatus(t, err, http.StatusForbidden)

	// Reads still work with a read-only token.
	if got, _, err := client.Issues.ListComments(ctx, owner, repo, 7, nil); err != nil || len(got) != 1 {
		t.Errorf("ListComments = %d comments, %v", len(got), err)
	}
	if len(srv.CheckRuns()) != 0 || srv.Comments(7)[0].Body != "old" {
		t.Errorf("a read-only write changed state")
	}
}

// TestSecondaryRateLimit: go-github v66 maps a 403 whose documentation_url
// ends in "secondary-rate-limits" to *github.AbuseRateLimitError, with
// RetryAfter from the Retry-After header.
func TestSecondaryRateLimit(t *testing.T) {
	srv := githubtest.New(t)
	ctx := context.Background()
	srv.RateLimit("issues/create-comment", 1, true, 7*time.Second)
	client := srv.Client()
	comment := &github.IssueComment{Body: github.String("hi")}

	_, resp, err := client.Issues.CreateComment(ctx, owner, repo, 7, comment)
	var abuse *github.AbuseRateLimitError
	if !errors.As(err, &abuse) {
		t.Fatalf("CreateComment error = %T %v, want *github.AbuseRateLimitError", err, err)
	}
	if abuse.RetryAfter == nil || *abuse.RetryAfter != 7*time.Second || resp.StatusCode != http.StatusForbidden ||
		abuse.Message != "You have exceeded a secondary rate limit. Please wait a few minutes before you try again." {
		t.Errorf("AbuseRateLimitError = %+v (RetryAfter %v)", abuse, abuse.RetryAfter)
	}

	// The same client now refuses to call until RetryAfter has passed…
	sent := len(srv.Requests())
	if _, _, err := client.Issues.CreateComment(ctx, owner, repo, 7, comment); !errors.As(err, &abuse) || len(srv.Requests()) != sent {
		t.Errorf("second call on the same client: %v, %d requests sent; want a local AbuseRateLimitError", err, len(srv.Requests())-sent)
	}
	// …while a fresh client gets through: the fault was for one request.
	if _, _, err := srv.Client().Issues.CreateComment(ctx, owner, repo, 7, comment); err != nil {
		t.Errorf("fresh client: %v", err)
	}
	if got := srv.Comments(7); len(got) != 1 {
		t.Errorf("stored %d comments, want 1", len(got))
	}
}

// TestPrimaryRateLimit429: go-github v66 only maps 403s to its rate-limit
// errors, so a 429 is a plain *github.ErrorResponse with StatusCode 429; the
// Retry-After header is in ErrorResponse.Response.Header.
func TestPrimaryRateLimit429(t *testing.T) {
	srv := githubtest.New(t)
	ctx := context.Background()
	srv.RateLimit("checks/update", 2, false, 1500*time.Millisecond)
	client := srv.Client()
	run, _, err := client.Checks.CreateCheckRun(ctx, owner, repo, createOpts(nil))
	if err != nil {
		t.Fatalf("CreateCheckRun: %v", err)
	}
	update := github.UpdateCheckRunOptions{Name: "ananke", Conclusion: github.String("success")}
	for i := range 2 {
		_, _, err := client.Checks.UpdateCheckRun(ctx, owner, repo, run.GetID(), update)
		er := wantStatus(t, err, http.StatusTooManyRequests)
		if got := er.Response.Header.Get("Retry-After"); got != "2" {
			t.Errorf("attempt %d: Retry-After = %q, want 2 (1.5s rounded up)", i, got)
		}
		var rle *github.RateLimitError
		var abuse *github.AbuseRateLimitError
		if errors.As(err, &rle) || errors.As(err, &abuse) {
			t.Errorf("attempt %d: error is %T, want a plain *github.ErrorResponse", i, err)
		}
	}
	if _, _, err := client.Checks.UpdateCheckRun(ctx, owner, repo, run.GetID(), update); err != nil {
		t.Errorf("third attempt: %v", err)
	}
	if got := srv.CheckRuns()[0].Conclusion; got != "success" {
		t.Errorf("conclusion = %q, want success", got)
	}
}

// TestExhaustedRateLimit: a 403 with X-RateLimit-Remaining: 0 is a
// *github.RateLimitError carrying the parsed Rate.
func TestExhaustedRateLimit(t *testing.T) {
	srv := githubtest.New(t)
	srv.ExhaustRateLimit("issues/list-comments", 1, time.Hour)
	_, _, err := srv.Client().Issues.ListComments(context.Background(), owner, repo, 7, nil)
	var rle *github.RateLimitError
	if !errors.As(err, &rle) {
		t.Fatalf("error = %T %v, want *github.RateLimitError", err, err)
	}
	if rle.Rate.Remaining != 0 || rle.Rate.Limit != 5000 || rle.Response.StatusCode != http.StatusForbidden ||
		time.Until(rle.Rate.Reset.Time) < 59*time.Minute {
		t.Errorf("RateLimitError = %+v", rle)
	}
}

func TestRateLimitUnknownOperation(t *testing.T) {
	srv, rec := newRecorded(t)
	srv.RateLimit("checks/create-run", 1, false, time.Second)
	wantReport(t, rec, `"checks/create-run"`, "no such operationId")
}
