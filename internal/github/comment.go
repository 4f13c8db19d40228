package github

import (
	"context"
	"fmt"
	"strings"

	gh "github.com/google/go-github/v66/github"
)

// maxCommentBytes keeps a comment under GitHub's 65536-character limit
// (the server answers 422 "Body is too long (maximum is 65536
// characters)"); counting bytes is safe because bytes ≥ characters.
const maxCommentBytes = 65000

// FindComment returns the id of the first comment on pull request pr whose
// body contains marker, or 0. Every page is read: a busy PR has hundreds
// of comments and the marker's may be anywhere.
func (c *Client) FindComment(ctx context.Context, pr int, marker string) (int64, error) {
	opts := &gh.IssueListCommentsOptions{ListOptions: gh.ListOptions{PerPage: 100}}
	for {
		comments, resp, err := c.gh.Issues.ListComments(ctx, c.owner, c.repo, pr, opts)
		if err != nil {
			return 0, fmt.Errorf("list comments of #%d: %w", pr, err)
		}
		for _, cm := range comments {
			if strings.Contains(cm.GetBody(), marker) {
				return cm.GetID(), nil
			}
		}
		if resp.NextPage == 0 {
			return 0, nil
		}
		opts.Page = resp.NextPage
	}
}

// UpsertComment edits the comment carrying marker, or creates one when
// there is none and create is true. The marker must be in body (it is how
// the next run finds the comment). It returns the comment id (0 when none
// was created) and whether it was new.
func (c *Client) UpsertComment(ctx context.Context, pr int, marker, body string, create bool) (int64, bool, error) {
	if !strings.Contains(body, marker) {
		return 0, false, fmt.Errorf("comment body lacks its marker %q", marker)
	}
	body = clip(body, maxCommentBytes, truncatedNote)
	id, err := c.FindComment(ctx, pr, marker)
	if err != nil {
		return 0, false, err
	}
	if id != 0 {
		if _, _, err := c.gh.Issues.EditComment(ctx, c.owner, c.repo, id, &gh.IssueComment{Body: gh.String(body)}); err != nil {
			return id, false, fmt.Errorf("edit comment %d: %w", id, err)
		}
		return id, false, nil
	}
	if !create {
		return 0, false, nil
	}
	cm, _, err := c.gh.Issues.CreateComment(ctx, c.owner, c.repo, pr, &gh.IssueComment{Body: gh.String(body)})
	if err != nil {
		return 0, false, fmt.Errorf("comment on #%d: %w", pr, err)
	}
	return cm.GetID(), true, nil
}
