package gitlab

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"time"

	"github.com/ananke/action/internal/artifactzip"
)

// ErrNoBase is wrapped by the errors of BaseReport that mean there is no
// base report to compare with — no successful pipeline on the branch with
// the job's artifacts, or artifacts without the report — as opposed to a
// failure to fetch one. The error's text, "no base report: <why>", says
// what was found.
var ErrNoBase = errors.New("no base report")

func noBase(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrNoBase, fmt.Sprintf(format, args...))
}

// Limits of the base report download.
const (
	// DefaultMaxBaseBytes bounds the artifacts archive when
	// BaseQuery.MaxBytes is 0. The whole zip is held in memory.
	DefaultMaxBaseBytes = 256 << 20
	// maxSummaryBytes bounds summary.json read from it, whatever its zip
	// entry claims.
	maxSummaryBytes = 64 << 20
	// downloadTimeout bounds one attempt at downloading the archive.
	downloadTimeout = 5 * time.Minute
)

// BaseQuery says which base report to fetch.
type BaseQuery struct {
	// Ref is the branch, e.g. CI_MERGE_REQUEST_TARGET_BRANCH_NAME.
	Ref string
	// Job is the name of the job whose artifacts hold the report.
	Job string
	// Summary is summary.json's path in the artifacts archive, which keeps
	// the job's paths relative to the project directory, e.g.
	// "ananke-report/summary.json".
	Summary string
	// MaxBytes bounds the archive (0: DefaultMaxBaseBytes).
	MaxBytes int64
}

// BaseReport is a report found on a branch: summary.json from the
// artifacts of the job of the branch's latest successful pipeline.
type BaseReport struct {
	Ref, Job string
	// Summary is summary.json's content.
	Summary []byte
}

// BaseReport downloads the artifacts archive of q.Job from the latest
// successful pipeline on q.Ref that has it (GitLab's "download the
// artifacts archive from a ref", asked to search the recent successful
// pipelines, not only the newest) and reads q.Summary from it, without
// extracting anything.
//
// Errors wrapping ErrNoBase mean there is no base report, and say why.
// Others are failures: GitLab failing (after retries), an oversized or
// unreadable archive. Forbidden(err) is true when the token may not read
// the project's job artifacts.
func (c *Client) BaseReport(ctx context.Context, q BaseQuery) (*BaseReport, error) {
	switch {
	case q.Ref == "":
		return nil, noBase("no target branch")
	case q.Job == "" || q.Summary == "":
		return nil, errors.New("base report: no job name or summary path")
	}
	limit := cmp.Or(q.MaxBytes, DefaultMaxBaseBytes)
	resp, err := c.do(ctx, request{
		method:  http.MethodGet,
		path:    c.projectPath("jobs/artifacts/" + url.PathEscape(q.Ref) + "/download"),
		query:   url.Values{"job": {q.Job}, "search_recent_successful_pipelines": {"true"}},
		limit:   limit,
		timeout: downloadTimeout,
	})
	var e *APIError
	switch {
	case errors.As(err, &e) && e.Status == http.StatusNotFound:
		return nil, noBase("no successful pipeline on %s has artifacts of job %s", q.Ref, q.Job)
	case err != nil:
		return nil, fmt.Errorf("download the artifacts of job %s on %s: %w", q.Job, q.Ref, err)
	}
	zr, err := artifactzip.Open(resp.body)
	if err != nil {
		return nil, fmt.Errorf("read the artifacts of job %s on %s: %w", q.Job, q.Ref, err)
	}
	data, err := artifactzip.ReadFile(zr, q.Summary, maxSummaryBytes)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, noBase("the artifacts of job %s on %s have no %s", q.Job, q.Ref, q.Summary)
	case err != nil:
		return nil, fmt.Errorf("read the artifacts of job %s on %s: %w", q.Job, q.Ref, err)
	}
	return &BaseReport{Ref: q.Ref, Job: q.Job, Summary: data}, nil
}
