package github

import (
	"archive/zip"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	gh "github.com/google/go-github/v66/github"

	"github.com/ananke/action/internal/artifactzip"
)

// ErrNoBase is wrapped by the errors of BaseReport that mean there is no
// base report to compare with — not a pull request, no successful run of
// the workflow on the base branch, no unexpired artifact — as opposed to a
// failure to fetch one. The error's text, "no base report: <why>", says
// what was found.
var ErrNoBase = errors.New("no base report")

func noBase(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrNoBase, fmt.Sprintf(format, args...))
}

// Limits of the base report search.
const (
	// maxBaseRuns bounds the successful runs looked at: one page of the
	// workflow's runs on the base branch, newest first.
	maxBaseRuns = 10
	// DefaultMaxBaseBytes bounds the artifact download when
	// BaseQuery.MaxBytes is 0. The whole zip is held in memory.
	DefaultMaxBaseBytes = 256 << 20
	// maxBaseFileBytes bounds one file read from the artifact, whatever its
	// zip entry claims: a small zip can inflate to gigabytes.
	maxBaseFileBytes = 64 << 20
	// blobAttemptTimeout bounds one attempt at downloading an artifact from
	// storage; API requests get attemptTimeout.
	blobAttemptTimeout = 5 * time.Minute
	// summaryFile is the report's summary, at the artifact's root.
	summaryFile = "summary.json"
)

// BaseQuery says which base report to look for.
type BaseQuery struct {
	// RunID is the current workflow run (GITHUB_RUN_ID): its workflow's
	// runs are searched, and it is never chosen itself.
	RunID int64
	// Branch is the base branch, e.g. "main".
	Branch string
	// ArtifactName is the report artifact's name, e.g. "ananke-report".
	ArtifactName string
	// MaxBytes bounds the artifact's zip (0: DefaultMaxBaseBytes).
	MaxBytes int64
}

// BaseQuery is the query for the base report of this run's pull request.
// Outside a pull request the error wraps ErrNoBase.
func (c *Context) BaseQuery(artifactName string) (BaseQuery, error) {
	if c.BaseRef == "" {
		return BaseQuery{}, noBase("the %s event has no base branch", orDefault(c.EventName, "current"))
	}
	id, err := strconv.ParseInt(c.RunID, 10, 64)
	if err != nil {
		return BaseQuery{}, fmt.Errorf("GITHUB_RUN_ID %q is not a run id", c.RunID)
	}
	return BaseQuery{RunID: id, Branch: c.BaseRef, ArtifactName: artifactName}, nil
}

// BaseReport is a report found on the base branch: the artifact of a
// successful run of the same workflow.
type BaseReport struct {
	RunID     int64
	RunNumber int64
	HTMLURL   string // the run's page
	HeadSHA   string
	Branch    string
	CreatedAt time.Time

	ArtifactID   int64
	ArtifactName string
	// Skipped says why newer successful runs on the branch were passed
	// over, newest first, e.g. "the newest successful run on main (#41)
	// has no artifact ananke-report"; empty when the newest had the report.
	Skipped []string
	// Summary is summary.json from the artifact's root.
	Summary []byte

	zip *zip.Reader
}

// BaseReport finds the report of the newest successful run of the current
// run's workflow on q.Branch and downloads it.
//
// Selection: the newest successful runs on the branch (one page of
// maxBaseRuns, newest first) are looked at in order, leaving out the
// current run and pull_request* runs (their head_branch is a pull
// request's branch that happens to share the name, e.g. a fork's main). A
// run without an unexpired artifact named q.ArtifactName is passed over
// (BaseReport.Skipped says so); the first run that has one decides: its
// report is returned, or the error says what is wrong with it.
//
// Errors wrapping ErrNoBase mean there is no base report, and say why.
// Others are failures: the API or storage failing (after retries), an
// oversized or unreadable artifact. Forbidden(err) is true when the token
// may not read workflow runs (a workflow's permissions without
// actions: read).
func (c *Client) BaseReport(ctx context.Context, q BaseQuery) (*BaseReport, error) {
	if q.Branch == "" {
		return nil, noBase("no base branch")
	}
	if q.ArtifactName == "" {
		return nil, errors.New("base report: no artifact name")
	}
	current, _, err := c.gh.Actions.GetWorkflowRunByID(ctx, c.owner, c.repo, q.RunID)
	if err != nil {
		return nil, fmt.Errorf("get workflow run %d: %w", q.RunID, err)
	}
	runs, err := c.baseRuns(ctx, current, q.Branch)
	if err != nil {
		return nil, err
	}
	if len(runs) == 0 {
		return nil, noBase("no successful run of this workflow on %s", q.Branch)
	}
	var skipped []string
	for i, run := range runs {
		label := fmt.Sprintf("the successful run #%d on %s", run.GetRunNumber(), q.Branch)
		if i == 0 {
			label = fmt.Sprintf("the newest successful run on %s (#%d)", q.Branch, run.GetRunNumber())
		}
		art, err := c.findArtifact(ctx, run, q.ArtifactName)
		if err != nil {
			return nil, err
		}
		switch {
		case art == nil:
			skipped = append(skipped, fmt.Sprintf("%s has no artifact %s", label, q.ArtifactName))
			continue
		case art.GetExpired():
			skipped = append(skipped, expired(art, run))
			continue
		}
		data, gone, err := c.downloadArtifact(ctx, art.GetID(), cmp.Or(q.MaxBytes, DefaultMaxBaseBytes))
		if err != nil {
			return nil, fmt.Errorf("download artifact %s of run #%d: %w", q.ArtifactName, run.GetRunNumber(), err)
		}
		if gone {
			skipped = append(skipped, fmt.Sprintf("artifact %s of run #%d has expired (its download answered 410 Gone)",
				q.ArtifactName, run.GetRunNumber()))
			continue
		}
		b, err := newBaseReport(run, art, data)
		if err != nil {
			return nil, err
		}
		b.Skipped = skipped
		return b, nil
	}
	why := skipped[0]
	switch n := len(skipped) - 1; n {
	case 0:
	case 1:
		why += fmt.Sprintf("; the successful run before it has no unexpired %s either", q.ArtifactName)
	default:
		why += fmt.Sprintf("; the %d successful runs before it have no unexpired %s either", n, q.ArtifactName)
	}
	return nil, noBase("%s", why)
}

// baseRuns lists the candidate runs: successful runs of current's workflow
// on branch, newest first.
func (c *Client) baseRuns(ctx context.Context, current *gh.WorkflowRun, branch string) ([]*gh.WorkflowRun, error) {
	list, _, err := c.gh.Actions.ListWorkflowRunsByID(ctx, c.owner, c.repo, current.GetWorkflowID(), &gh.ListWorkflowRunsOptions{
		Branch: branch, Status: "success", ListOptions: gh.ListOptions{PerPage: maxBaseRuns},
	})
	if err != nil {
		return nil, fmt.Errorf("list successful runs of workflow %d on %s: %w", current.GetWorkflowID(), branch, err)
	}
	var runs []*gh.WorkflowRun
	for _, r := range list.WorkflowRuns {
		if r.GetID() == current.GetID() || strings.HasPrefix(r.GetEvent(), "pull_request") ||
			r.GetHeadBranch() != branch || r.GetConclusion() != "success" {
			continue
		}
		runs = append(runs, r)
	}
	return runs, nil
}

// findArtifact returns run's artifact named name: the newest unexpired
// one, else the newest expired one, else nil. (go-github v66's
// ListWorkflowRunArtifacts cannot send the name filter, hence the raw
// request.)
func (c *Client) findArtifact(ctx context.Context, run *gh.WorkflowRun, name string) (*gh.Artifact, error) {
	u := fmt.Sprintf("repos/%s/%s/actions/runs/%d/artifacts?name=%s&per_page=100", c.owner, c.repo, run.GetID(), url.QueryEscape(name))
	req, err := c.gh.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	var list gh.ArtifactList
	if _, err := c.gh.Do(ctx, req, &list); err != nil {
		return nil, fmt.Errorf("list artifacts of run #%d: %w", run.GetRunNumber(), err)
	}
	var best *gh.Artifact
	for _, a := range list.Artifacts {
		if a.GetName() != name {
			continue
		}
		if best == nil || best.GetExpired() && !a.GetExpired() ||
			best.GetExpired() == a.GetExpired() && a.GetID() > best.GetID() {
			best = a
		}
	}
	return best, nil
}

func expired(a *gh.Artifact, run *gh.WorkflowRun) string {
	if a.ExpiresAt == nil {
		return fmt.Sprintf("artifact %s of run #%d has expired", a.GetName(), run.GetRunNumber())
	}
	return fmt.Sprintf("artifact %s of run #%d expired on %s", a.GetName(), run.GetRunNumber(), a.GetExpiresAt().UTC().Format(time.DateOnly))
}

// downloadArtifact fetches artifact id's zip, at most limit bytes: GitHub
// answers with a redirect to a pre-signed storage URL, fetched without the
// token. gone reports a 410 (the artifact expired).
func (c *Client) downloadArtifact(ctx context.Context, id, limit int64) (data []byte, gone bool, err error) {
	loc, resp, err := c.gh.Actions.DownloadArtifact(ctx, c.owner, c.repo, id, 0)
	if err != nil {
		if resp == nil {
			return nil, false, err
		}
		if resp.StatusCode == http.StatusGone {
			return nil, true, nil
		}
		// go-github v66 reports any answer but a redirect as a plain error;
		// give it the shape of the others, for Forbidden.
		return nil, false, &gh.ErrorResponse{Response: resp.Response, Message: http.StatusText(resp.StatusCode)}
	}
	data, err = fetchBlob(ctx, c.blob, loc.String(), limit)
	return data, false, err
}

// fetchBlob GETs a pre-signed storage URL with hc, which must not add a
// token, reading at most limit bytes. Its errors never quote the URL's
// query, which holds the signature.
func fetchBlob(ctx context.Context, hc *http.Client, signed string, limit int64) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, signed, nil)
	if err != nil {
		return nil, errors.New("storage URL is not valid") // quoting it would leak its signature
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, redactURL(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("storage answered %s", resp.Status)
	}
	tooLarge := fmt.Errorf("larger than the %s limit", size(limit))
	if resp.ContentLength > limit {
		return nil, tooLarge
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read from storage: %w", redactURL(err))
	}
	if int64(len(data)) > limit {
		return nil, tooLarge
	}
	return data, nil
}

// redactURL drops the query (the storage signature) from the URL in a
// net/http error.
func redactURL(err error) error {
	var ue *url.Error
	if !errors.As(err, &ue) {
		return err
	}
	u, perr := url.Parse(ue.URL)
	if perr != nil {
		return &url.Error{Op: ue.Op, URL: "(storage URL)", Err: ue.Err}
	}
	u.RawQuery, u.Fragment = "", ""
	return &url.Error{Op: ue.Op, URL: u.String(), Err: ue.Err}
}

func newBaseReport(run *gh.WorkflowRun, art *gh.Artifact, data []byte) (*BaseReport, error) {
	zr, err := artifactzip.Open(data)
	if err != nil {
		return nil, fmt.Errorf("read artifact %s of run #%d: %w", art.GetName(), run.GetRunNumber(), err)
	}
	b := &BaseReport{
		RunID: run.GetID(), RunNumber: int64(run.GetRunNumber()), HTMLURL: run.GetHTMLURL(), HeadSHA: run.GetHeadSHA(),
		Branch: run.GetHeadBranch(), CreatedAt: run.GetCreatedAt().Time,
		ArtifactID: art.GetID(), ArtifactName: art.GetName(), zip: zr,
	}
	b.Summary, err = b.ReadFile(summaryFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, noBase("artifact %s of run #%d has no %s", art.GetName(), run.GetRunNumber(), summaryFile)
	}
	if err != nil {
		return nil, fmt.Errorf("read artifact %s of run #%d: %w", art.GetName(), run.GetRunNumber(), err)
	}
	return b, nil
}

// ReadFile returns the file at name (slash-separated, relative to the
// artifact's root, e.g. "tests/refund.trace.json"). Only an entry of
// exactly that name is read — the archive is never extracted — and names
// that are not fs.ValidPath are refused.
func (b *BaseReport) ReadFile(name string) ([]byte, error) {
	return b.readLimited(name, maxBaseFileBytes)
}

// readLimited is ReadFile refusing a file over limit bytes.
func (b *BaseReport) readLimited(name string, limit int64) ([]byte, error) {
	return artifactzip.ReadFile(b.zip, name, limit)
}

// size formats a byte limit.
func size(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d-byte", n)
}
