package githubtest_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/ananke/action/internal/github/githubtest"
)

func TestListCommentsPaginates(t *testing.T) {
	srv := githubtest.New(t)
	ctx := context.Background()
	var want []int64
	for i := range 75 {
		user := "someone"
		if i%10 == 0 {
			user = "coverage-bot[bot]"
		}
		want = append(want, srv.AddComment(7, user, fmt.Sprintf("comment %d", i)))
		srv.AddComment(8, "someone", "on another PR")
	}

	var got []*github.IssueComment
	var pages int
	opts := &github.IssueListCommentsOptions{}
	for {
		page, resp, err := srv.Client().Issues.ListComments(ctx, owner, repo, 7, opts)
		if err != nil {
			t.Fatalf("ListComments page %d: %v", opts.Page, err)
		}
		pages++
		if pages == 1 {
			link := resp.Header.Get("Link")
			if !strings.Contains(link, `?page=2&per_page=30>; rel="next"`) || !strings.Contains(link, `?page=3&per_page=30>; rel="last"`) {
				t.Errorf("first page Link = %q", link)
			}
			if resp.LastPage != 3 {
				t.Errorf("LastPage = %d, want 3", resp.LastPage)
			}
		}
		got = append(got, page...)
		if resp.NextPage == 0 {
			break
		}
		opts.Page = resp.NextPage
	}
	if pages != 3 || len(got) != 75 {
		t.Fatalf("got %d comments in %d pages, want 75 in 3", len(got), pages)
	}
	for i, c := range got {
		if c.GetID() != want[i] || c.GetBody() != fmt.Sprintf("comment %d", i) || c.GetHTMLURL() == "" {
			t.Fatalf("comment %d = %v, want id %d", i, c, want[i])
		}
	}
	if got[0].GetUser().GetLogin() != "coverage-bot[bot]" || got[0].GetUser().GetType() != "Bot" ||
		got[1].GetUser().GetType() != "User" {
		t.Errorf("users = %v, %v", got[0].GetUser(), got[1].GetUser())
	}

	// per_page is capped at 100, as on GitHub.
	all, resp, err := srv.Client().Issues.ListComments(ctx, owner, repo, 7, &github.IssueListCommentsOptions{
		ListOptions: github.ListOptions{PerPage: 500},
	})
	if err != nil || len(all) != 75 || resp.NextPage != 0 {
		t.Errorf("per_page=500: %d comments, NextPage %d, err %v; want 75, 0, nil", len(all), resp.NextPage, err)
	}

	reqs := srv.Requests()
	if q := reqs[1].Query; reqs[1].Operation != "issues/list-comments" || q.Get("page") != "2" || q.Get("per_page") != "" {
		t.Errorf("second request = %+v", reqs[1])
	}
}

func TestCreateAndEditComment(t *testing.T) {
	srv := githubtest.New(t)
	ctx := context.Background()
	client := srv.Client()
	other := srv.AddComment(7, "someone", "LGTM")

	created, resp, err := client.Issues.CreateComment(ctx, owner, repo, 7, &github.IssueComment{Body: github.String("<!-- ananke:report:ananke -->\nfirst")})
	if err != nil {
		t.Fatalf("CreateComment: %v", err)
	}
	if resp.StatusCode != http.StatusCreated || created.GetID() <= other ||
		created.GetUser().GetLogin() != "github-actions[bot]" || created.GetUser().GetType() != "Bot" ||
		!strings.Contains(created.GetHTMLURL(), "#issuecomment-") {
		t.Errorf("CreateComment = %d %v", resp.StatusCode, created)
	}

	edited, resp, err := client.Issues.EditComment(ctx, owner, repo, created.GetID(), &github.IssueComment{Body: github.String("<!-- ananke:report:ananke -->\nsecond")})
	if err != nil {
		t.Fatalf("EditComment: %v", err)
	}
	if resp.StatusCode != http.StatusOK || edited.GetID() != created.GetID() || !strings.HasSuffix(edited.GetBody(), "second") ||
		!edited.GetUpdatedAt().After(edited.GetCreatedAt().Time) {
		t.Errorf("EditComment = %d %v", resp.StatusCode, edited)
	}

	want := []githubtest.Comment{
		{ID: other, Issue: 7, Body: "LGTM", User: "someone"},
		{ID: created.GetID(), Issue: 7, Body: "<!-- ananke:report:ananke -->\nsecond", User: "github-actions[bot]"},
	}
	if got := srv.Comments(7); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Comments(7) = %+v, want %+v", got, want)
	}

	_, _, err = client.Issues.EditComment(ctx, owner, repo, 424242, &github.IssueComment{Body: github.String("x")})
	wantStatus(t, err, http.StatusNotFound)

	// The limit is 65536 characters, not bytes.
	if _, _, err := client.Issues.CreateComment(ctx, owner, repo, 7, &github.IssueComment{Body: github.String(strings.Repeat("é", 65536))}); err != nil {
		t.Errorf("CreateComment with 65536 characters: %v", err)
	}
}

func TestCommentTooLong(t *testing.T) {
	for _, edit := range []bool{false, true} {
		t.Run(fmt.Sprintf("edit=%v", edit), func(t *testing.T) {
			srv, rec := newRecorded(t)
			ctx := context.Background()
			id := srv.AddComment(7, "github-actions[bot]", "old")
			body := &github.IssueComment{Body: github.String(strings.Repeat("x", 65537))}
			var err error
			if edit {
				_, _, err = srv.Client().Issues.EditComment(ctx, owner, repo, id, body)
			} else {
				_, _, err = srv.Client().Issues.CreateComment(ctx, owner, repo, 7, body)
			}
			er := wantStatus(t, err, http.StatusUnprocessableEntity)
			if len(er.Errors) != 1 || er.Errors[0].Resource != "IssueComment" ||
				er.Errors[0].Message != "Body is too long (maximum is 65536 characters)" || er.Message != "Validation Failed" {
				t.Errorf("error = %+v", er)
			}
			wantReport(t, rec, "issues/", "65537 characters, maximum is 65536")
			if got := srv.Comments(7); len(got) != 1 || got[0].Body != "old" {
				t.Errorf("Comments(7) = %+v, want the seeded comment unchanged", got)
			}
		})
	}
}

func TestCommentWithoutBody(t *testing.T) {
	srv, rec := newRecorded(t)
	_, err := rawDo(t, srv.Client(), http.MethodPost, "repos/ananke/demo/issues/7/comments", map[string]any{"text": "hi"})
	wantStatus(t, err, http.StatusUnprocessableEntity)
	wantReport(t, rec, "issues/create-comment", `property "body" is missing`)
}
