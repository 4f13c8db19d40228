package githubtest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/ananke/action/internal/github/githubtest"
)

const sha = "0123456789abcdef0123456789abcdef01234567"

func annotations(n int, level string) []*github.CheckRunAnnotation {
	out := make([]*github.CheckRunAnnotation, n)
	for i := range out {
		out[i] = &github.CheckRunAnnotation{
			Path:            github.String("tests/refund.ananke.yaml"),
			StartLine:       github.Int(i + 1),
			EndLine:         github.Int(i + 1),
			StartColumn:     github.Int(3),
			EndColumn:       github.Int(9),
			AnnotationLevel: github.String(level),
			Message:         github.String(fmt.Sprintf("assertion %d failed", i)),
			Title:           github.String("refund flow"),
			RawDetails:      github.String("expected tool call"),
		}
	}
	return out
}

func createOpts(anns []*github.CheckRunAnnotation) github.CreateCheckRunOptions {
	return github.CreateCheckRunOptions{
		Name:      "ananke",
		HeadSHA:   sha,
		Status:    github.String("in_progress"),
		StartedAt: &github.Timestamp{Time: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)},
		Output: &github.CheckRunOutput{
			Title:       github.String("3 of 4 tests passed"),
			Summary:     github.String("## Summary"),
			Text:        github.String("details"),
			Annotations: anns,
		},
	}
}

func TestCreateCheckRun(t *testing.T) {
	srv := githubtest.New(t)
	ctx := context.Background()

	run, resp, err := srv.Client().Checks.CreateCheckRun(ctx, owner, repo, createOpts(annotations(50, "failure")))
	if err != nil {
		t.Fatalf("CreateCheckRun: %v", err)
	}
	if resp.StatusCode != http.StatusCreated {
		t.Errorf("status = %d, want 201", resp.StatusCode)
	}
	if run.GetID() == 0 || run.GetName() != "ananke" || run.GetHeadSHA() != sha ||
		run.GetStatus() != "in_progress" || run.Conclusion != nil || run.GetHTMLURL() == "" ||
		run.GetStartedAt().Time != time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC) ||
		run.GetOutput().GetAnnotationsCount() != 50 || run.GetOutput().GetTitle() != "3 of 4 tests passed" {
		t.Errorf("CreateCheckRun returned %v", run)
	}

	runs := srv.CheckRuns()
	if len(runs) != 1 {
		t.Fatalf("stored %d check runs, want 1", len(runs))
	}
	got := runs[0]
	if got.ID != run.GetID() || got.Name != "ananke" || got.HeadSHA != sha || got.Status != "in_progress" ||
		got.Title != "3 of 4 tests passed" || got.Summary != "## Summary" || got.Text != "details" {
		t.Errorf("stored %+v", got)
	}
	wantAnn := githubtest.Annotation{
		Path: "tests/refund.ananke.yaml", StartLine: 50, EndLine: 50, Level: "failure",
		Message: "assertion 49 failed", Title: "refund flow", RawDetails: "expected tool call",
	}
	if len(got.Annotations) != 50 || got.Annotations[49] != wantAnn {
		t.Errorf("stored %d annotations, last %+v; want 50, last %+v", len(got.Annotations), got.Annotations[len(got.Annotations)-1], wantAnn)
	}

	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].Operation != "checks/create" || reqs[0].Method != http.MethodPost ||
		reqs[0].Path != "/repos/ananke/demo/check-runs" {
		t.Fatalf("requests = %+v", reqs)
	}
	var body map[string]any
	if err := json.Unmarshal(reqs[0].Body, &body); err != nil || body["head_sha"] != sha || body["started_at"] != "2026-03-01T12:00:00Z" {
		t.Errorf("recorded body %s (%v)", reqs[0].Body, err)
	}
}

func TestUpdateCheckRunAppendsAnnotations(t *testing.T) {
	srv := githubtest.New(t)
	ctx := context.Background()
	client := srv.Client()

	run, _, err := client.Checks.CreateCheckRun(ctx, owner, repo, createOpts(annotations(50, "warning")))
	if err != nil {
		t.Fatalf("CreateCheckRun: %v", err)
	}
	updated, resp, err := client.Checks.UpdateCheckRun(ctx, owner, repo, run.GetID(), github.UpdateCheckRunOptions{
		Name:       "ananke",
		Conclusion: github.String("failure"),
		Output: &github.CheckRunOutput{
			Title:       github.String("1 of 4 tests passed"),
			Summary:     github.String("## Final"),
			Annotations: annotations(10, "notice"),
		},
	})
	if err != nil {
		t.Fatalf("UpdateCheckRun: %v", err)
	}
	if resp.StatusCode != http.StatusOK || updated.GetStatus() != "completed" || updated.GetConclusion() != "failure" ||
		updated.GetCompletedAt().IsZero() || updated.GetOutput().GetAnnotationsCount() != 60 {
		t.Errorf("UpdateCheckRun = %d %v", resp.StatusCode, updated)
	}
	got := srv.CheckRuns()[0]
	if got.Status != "completed" || got.Conclusion != "failure" || got.Title != "1 of 4 tests passed" ||
		got.Summary != "## Final" || got.Text != "details" || len(got.Annotations) != 60 ||
		got.Annotations[0].Level != "warning" || got.Annotations[59].Level != "notice" {
		t.Errorf("stored %+v (%d annotations)", got, len(got.Annotations))
	}

	// Annotations read back page by page, in order, with their columns.
	var listed []*github.CheckRunAnnotation
	opts := &github.ListOptions{PerPage: 25}
	for {
		page, resp, err := client.Checks.ListCheckRunAnnotations(ctx, owner, repo, run.GetID(), opts)
		if err != nil {
			t.Fatalf("ListCheckRunAnnotations: %v", err)
		}
		listed = append(listed, page...)
		if resp.NextPage == 0 {
			break
		}
		opts.Page = resp.NextPage
	}
	if len(listed) != 60 || listed[59].GetMessage() != "assertion 9 failed" || listed[0].GetStartColumn() != 3 {
		t.Errorf("listed %d annotations", len(listed))
	}

	if _, _, err := client.Checks.UpdateCheckRun(ctx, owner, repo, 999, github.UpdateCheckRunOptions{Name: "ananke"}); err != nil {
		wantStatus(t, err, http.StatusNotFound)
	} else {
		t.Errorf("UpdateCheckRun(999) succeeded, want 404")
	}
}

// TestInvalidCheckRuns checks that the fake reports requests GitHub rejects,
// whether the schema or a hand-written limit catches them.
func TestInvalidCheckRuns(t *testing.T) {
	long := strings.Repeat("t", 256)
	tests := []struct {
		name string
		// send makes the request against a fake that already holds check run 1.
		send func(ctx context.Context, c *github.Client) error
		want []string // substrings of the report
	}{{
		name: "annotation level error",
		send: func(ctx context.Context, c *github.Client) error {
			_, _, err := c.Checks.CreateCheckRun(ctx, owner, repo, createOpts(annotations(1, "error")))
			return err
		},
		want: []string{"checks/create", "annotation_level", "OpenAPI"},
	}, {
		name: "create without head_sha",
		send: func(ctx context.Context, c *github.Client) error {
			_, err := rawDo(t, c, http.MethodPost, "repos/ananke/demo/check-runs", map[string]any{"name": "ananke"})
			return err
		},
		want: []string{"checks/create", "head_sha"},
	}, {
		name: "create with empty head_sha (go-github's zero HeadSHA)",
		send: func(ctx context.Context, c *github.Client) error {
			opts := createOpts(nil)
			opts.HeadSHA = ""
			_, _, err := c.Checks.CreateCheckRun(ctx, owner, repo, opts)
			return err
		},
		want: []string{"checks/create", "head_sha"},
	}, {
		name: "completed without conclusion",
		send: func(ctx context.Context, c *github.Client) error {
			_, _, err := c.Checks.UpdateCheckRun(ctx, owner, repo, 1, github.UpdateCheckRunOptions{
				Name: "ananke", Status: github.String("completed"),
			})
			return err
		},
		want: []string{"checks/update", "conclusion"},
	}, {
		name: "create completed without conclusion",
		send: func(ctx context.Context, c *github.Client) error {
			opts := createOpts(nil)
			opts.Status = github.String("completed")
			_, _, err := c.Checks.CreateCheckRun(ctx, owner, repo, opts)
			return err
		},
		want: []string{"checks/create", "conclusion is required"},
	}, {
		name: "51 annotations",
		send: func(ctx context.Context, c *github.Client) error {
			_, _, err := c.Checks.UpdateCheckRun(ctx, owner, repo, 1, github.UpdateCheckRunOptions{
				Name: "ananke", Output: &github.CheckRunOutput{Summary: github.String("s"), Annotations: annotations(51, "notice")},
			})
			return err
		},
		want: []string{"checks/update", "annotations", "50"},
	}, {
		name: "output title 256 characters",
		send: func(ctx context.Context, c *github.Client) error {
			opts := createOpts(nil)
			opts.Output.Title = github.String(long)
			_, _, err := c.Checks.CreateCheckRun(ctx, owner, repo, opts)
			return err
		},
		want: []string{"checks/create", "output.title", "256 characters, maximum is 255"},
	}, {
		name: "annotation title 256 characters",
		send: func(ctx context.Context, c *github.Client) error {
			anns := annotations(2, "warning")
			anns[1].Title = github.String(long)
			_, _, err := c.Checks.CreateCheckRun(ctx, owner, repo, createOpts(anns))
			return err
		},
		want: []string{"output.annotations[1].title", "maximum is 255"},
	}, {
		name: "summary 65536 characters",
		send: func(ctx context.Context, c *github.Client) error {
			_, _, err := c.Checks.UpdateCheckRun(ctx, owner, repo, 1, github.UpdateCheckRunOptions{
				Name: "ananke", Output: &github.CheckRunOutput{Summary: github.String(strings.Repeat("é", 65536))},
			})
			return err
		},
		want: []string{"checks/update", "maximum string length is 65535"},
	}, {
		name: "columns on a multi-line annotation",
		send: func(ctx context.Context, c *github.Client) error {
			anns := annotations(1, "failure")
			anns[0].EndLine = github.Int(4)
			_, _, err := c.Checks.CreateCheckRun(ctx, owner, repo, createOpts(anns))
			return err
		},
		want: []string{"output.annotations[0].start_column", "start_line == end_line"},
	}, {
		name: "update without name",
		send: func(ctx context.Context, c *github.Client) error {
			_, _, err := c.Checks.UpdateCheckRun(ctx, owner, repo, 1, github.UpdateCheckRunOptions{Conclusion: github.String("success")})
			return err
		},
		want: []string{"checks/update", "name can't be blank"},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv, rec := newRecorded(t)
			ctx := context.Background()
			client := srv.Client()
			if _, _, err := client.Checks.CreateCheckRun(ctx, owner, repo, createOpts(nil)); err != nil {
				t.Fatalf("seed CreateCheckRun: %v", err)
			}
			before := srv.CheckRuns()

			err := tc.send(ctx, client)
			wantStatus(t, err, http.StatusUnprocessableEntity)
			wantReport(t, rec, tc.want...)
			if after := srv.CheckRuns(); len(after) != len(before) || len(after[0].Annotations) != len(before[0].Annotations) ||
				after[0].Status != before[0].Status || after[0].Name != before[0].Name {
				t.Errorf("rejected request changed the stored runs: %+v -> %+v", before, after)
			}
		})
	}
}
