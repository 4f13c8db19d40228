package github

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	gh "github.com/google/go-github/v66/github"
)

// Limits of the history search.
const (
	// MaxHistoryRuns bounds HistoryQuery.Runs: each run looked at is one
	// request for its artifacts.
	MaxHistoryRuns = 100
	// HistoryFile is the file the history artifact holds at its root.
	HistoryFile = "history.json"
	// maxHistoryFileBytes bounds the history file read from its artifact,
	// as a history reader does.
	maxHistoryFileBytes = 64 << 20
	// runsPage is how many runs one listing asks for, GitHub's maximum.
	runsPage = 100
)

// HistoryQuery says whose history to gather: the runs of the current
// run's workflow on a branch.
type HistoryQuery struct {
	// RunID is the current workflow run (GITHUB_RUN_ID): its workflow's
	// runs are searched, and it is never taken itself.
	RunID int64
	// Branch is the branch whose runs make the history, e.g. "main".
	Branch string
	// HistoryArtifact names the artifact holding a history file (e.g.
	// "ananke-history"); ReportArtifact the report artifact (e.g.
	// "ananke-report").
	HistoryArtifact, ReportArtifact string
	// Runs is how many runs the history holds (1 to MaxHistoryRuns).
	Runs int
	// MaxBytes bounds the bytes downloaded in all, history file and
	// report artifacts together.
	MaxBytes int64
	// Valid, when set, checks a history file before it is taken: one it
	// refuses is passed over, as a damaged artifact is, and the report
	// artifacts are read instead.
	Valid func(data []byte) error
}

// HistoryRun is a workflow run a history was read from.
type HistoryRun struct {
	ID        int64
	Number    int64
	HTMLURL   string // the run's page
	HeadSHA   string
	CreatedAt time.Time
}

// HistoryFileArtifact is the history file read from a run's history
// artifact.
type HistoryFileArtifact struct {
	Run  HistoryRun
	Data []byte // the file, history.json
	Size int64  // bytes of the artifact's zip
}

// HistoryReport is summary.json read from a run's report artifact.
type HistoryReport struct {
	Run     HistoryRun
	Summary []byte
	Size    int64 // bytes of the artifact's zip
}

// BaseHistory is what GatherHistory found.
type BaseHistory struct {
	// File is the newest history file of the branch; nil when none was
	// read.
	File *HistoryFileArtifact
	// Reports are the report artifacts read, newest run first: with a
	// File, those of the runs newer than it (that did not upload one);
	// without, those of the newest Runs runs.
	Reports []HistoryReport
	// Bytes is what was downloaded, of MaxBytes.
	Bytes int64
	// OverBudget counts the report artifacts not downloaded because their
	// size would have passed MaxBytes.
	OverBudget int
	// Expired counts the report artifacts passed over as expired.
	Expired int
	// PassedOver says why other artifacts were not read, e.g. "artifact
	// ananke-report of run #41 has no summary.json".
	PassedOver []string
	// Stopped says why the search ended before it was done ("the time
	// budget ran out"); "" when it was done.
	Stopped string
}

// GatherHistory finds the history of the current run's workflow on
// q.Branch, downloading at most q.MaxBytes and stopping when ctx ends.
//
// The workflow's completed runs on the branch are looked at newest first
// — whatever their conclusion: a failed run is history too — leaving out
// the current run and pull_request* runs, at most 2×q.Runs of them (at
// least 10). The first run with an unexpired history artifact ends the
// search: its history file is downloaded (one small file) together with
// the report artifacts of the newer runs, which did not upload one.
// Without a history artifact among them, the report artifacts of the
// newest q.Runs runs that have one are read. Of a report artifact only
// summary.json is read, through a temporary file removed at once; one
// whose size would pass what is left of q.MaxBytes is not downloaded.
//
// Ending ctx (a time budget) stops the search: what was read by then is
// returned, with Stopped saying so. An artifact that cannot be read is
// passed over (PassedOver). The error is for what stops the search:
// the API failing after retries, or Forbidden(err) when the token may not
// read workflow runs (a workflow's permissions without actions: read).
func (c *Client) GatherHistory(ctx context.Context, q HistoryQuery) (*BaseHistory, error) {
	switch {
	case q.Branch == "":
		return nil, errors.New("history: no branch")
	case q.ReportArtifact == "" || q.HistoryArtifact == "":
		return nil, errors.New("history: no artifact name")
	case q.Runs < 1 || q.Runs > MaxHistoryRuns:
		return nil, fmt.Errorf("history: %d runs; want 1 to %d", q.Runs, MaxHistoryRuns)
	}
	g := &gatherer{c: c, q: q, out: &BaseHistory{}}
	err := g.run(ctx)
	if stopped(ctx, err) {
		g.out.Stopped = "the time budget ran out"
		return g.out, nil
	}
	if err != nil {
		return nil, err
	}
	return g.out, nil
}

// stopped reports whether err is ctx ending.
func stopped(ctx context.Context, err error) bool {
	return ctx.Err() != nil && (err == nil || errors.Is(err, ctx.Err()) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled))
}

// gatherer is one GatherHistory.
type gatherer struct {
	c   *Client
	q   HistoryQuery
	out *BaseHistory
}

// found is a run's report artifact, to be downloaded.
type found struct {
	run *gh.WorkflowRun
	art *gh.Artifact
}

func (g *gatherer) run(ctx context.Context) error {
	current, _, err := g.c.gh.Actions.GetWorkflowRunByID(ctx, g.c.owner, g.c.repo, g.q.RunID)
	if err != nil {
		return fmt.Errorf("get workflow run %d: %w", g.q.RunID, err)
	}
	look := max(2*g.q.Runs, 10)
	var reports []found
	fileTried := false
	err = g.eachRun(ctx, current, look, func(run *gh.WorkflowRun) (bool, error) {
		hist, rep, err := g.artifacts(ctx, run)
		if err != nil {
			return false, err
		}
		if hist != nil && !fileTried {
			fileTried = true
			if ok, err := g.readFile(ctx, run, hist); ok || err != nil {
				return false, err
			}
		}
		switch {
		case rep == nil:
		case rep.GetExpired():
			g.out.Expired++
		default:
			reports = append(reports, found{run, rep})
		}
		return len(reports) < g.q.Runs, nil
	})
	if err != nil {
		return err
	}
	for _, f := range reports {
		if err := g.readReport(ctx, f); err != nil {
			return err
		}
	}
	return nil
}

// eachRun calls fn with the candidate runs, newest first, at most look of
// them, until it returns false.
func (g *gatherer) eachRun(ctx context.Context, current *gh.WorkflowRun, look int, fn func(*gh.WorkflowRun) (bool, error)) error {
	opts := &gh.ListWorkflowRunsOptions{Branch: g.q.Branch, Status: "completed", ListOptions: gh.ListOptions{PerPage: runsPage}}
	seen := 0
	for {
		list, resp, err := g.c.gh.Actions.ListWorkflowRunsByID(ctx, g.c.owner, g.c.repo, current.GetWorkflowID(), opts)
		if err != nil {
			return fmt.Errorf("list runs of workflow %d on %s: %w", current.GetWorkflowID(), g.q.Branch, err)
		}
		for _, r := range list.WorkflowRuns {
			if r.GetID() == current.GetID() || strings.HasPrefix(r.GetEvent(), "pull_request") ||
				r.GetHeadBranch() != g.q.Branch || r.GetStatus() != "completed" {
				continue
			}
			if seen == look {
				return nil
			}
			seen++
			more, err := fn(r)
			if err != nil || !more {
				return err
			}
		}
		if resp.NextPage == 0 {
			return nil
		}
		opts.Page = resp.NextPage
	}
}

// artifacts returns run's newest artifacts named the history and report
// artifacts (an unexpired one before an expired one), or nil. One request
// lists them all; a run with more than a page of artifacts is asked for
// each name.
func (g *gatherer) artifacts(ctx context.Context, run *gh.WorkflowRun) (hist, rep *gh.Artifact, err error) {
	list, err := g.listArtifacts(ctx, run, "")
	if err != nil {
		return nil, nil, err
	}
	if list.GetTotalCount() > int64(len(list.Artifacts)) {
		if hist, err = g.c.findArtifact(ctx, run, g.q.HistoryArtifact); err != nil {
			return nil, nil, err
		}
		rep, err = g.c.findArtifact(ctx, run, g.q.ReportArtifact)
		return hist, rep, err
	}
	return newest(list.Artifacts, g.q.HistoryArtifact), newest(list.Artifacts, g.q.ReportArtifact), nil
}

func (g *gatherer) listArtifacts(ctx context.Context, run *gh.WorkflowRun, name string) (*gh.ArtifactList, error) {
	u := fmt.Sprintf("repos/%s/%s/actions/runs/%d/artifacts?per_page=100", g.c.owner, g.c.repo, run.GetID())
	if name != "" {
		u += "&name=" + url.QueryEscape(name)
	}
	req, err := g.c.gh.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	var list gh.ArtifactList
	if _, err := g.c.gh.Do(ctx, req, &list); err != nil {
		return nil, fmt.Errorf("list artifacts of run #%d: %w", run.GetRunNumber(), err)
	}
	return &list, nil
}

// newest is the artifact named name: the newest unexpired one, else the
// newest expired one, else nil.
func newest(arts []*gh.Artifact, name string) *gh.Artifact {
	var best *gh.Artifact
	for _, a := range arts {
		if a.GetName() != name {
			continue
		}
		if best == nil || best.GetExpired() && !a.GetExpired() ||
			best.GetExpired() == a.GetExpired() && a.GetID() > best.GetID() {
			best = a
		}
	}
	return best
}

// readFile downloads the history artifact art of run and reads its
// history file; ok is false when it could not be had (PassedOver says
// why), and the search goes on with report artifacts.
func (g *gatherer) readFile(ctx context.Context, run *gh.WorkflowRun, art *gh.Artifact) (ok bool, err error) {
	if art.GetExpired() {
		g.passOver(expired(art, run))
		return false, nil
	}
	if art.GetSizeInBytes() > g.left() {
		g.passOver(fmt.Sprintf("artifact %s of run #%d (%s) is over what is left of the budget", art.GetName(), run.GetRunNumber(), HumanBytes(art.GetSizeInBytes())))
		return false, nil
	}
	data, size, err := g.extract(ctx, run, art, HistoryFile, maxHistoryFileBytes)
	if err != nil || data == nil {
		return false, err
	}
	if g.q.Valid != nil {
		if err := g.q.Valid(data); err != nil {
			g.passOver(fmt.Sprintf("the %s of artifact %s of run #%d could not be read: %v", HistoryFile, art.GetName(), run.GetRunNumber(), err))
			return false, nil
		}
	}
	g.out.File = &HistoryFileArtifact{Run: historyRun(run), Data: data, Size: size}
	return true, nil
}

// readReport downloads a report artifact and reads its summary.json,
// unless its size would pass the budget.
func (g *gatherer) readReport(ctx context.Context, f found) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if f.art.GetSizeInBytes() > g.left() {
		g.out.OverBudget++
		return nil
	}
	data, size, err := g.extract(ctx, f.run, f.art, summaryFile, maxBaseFileBytes)
	if err != nil || data == nil {
		return err
	}
	g.out.Reports = append(g.out.Reports, HistoryReport{Run: historyRun(f.run), Summary: data, Size: size})
	return nil
}

// left is what is left of the byte budget.
func (g *gatherer) left() int64 { return max(g.q.MaxBytes-g.out.Bytes, 0) }

func (g *gatherer) passOver(why string) { g.out.PassedOver = append(g.out.PassedOver, why) }

// extract downloads art (at most what is left of the budget) and returns
// the file name at its root, at most limit bytes, and the zip's size. An
// artifact that cannot be read is passed over: nil data, nil error. The
// error is for what stops the search: ctx ending, or the token refused.
func (g *gatherer) extract(ctx context.Context, run *gh.WorkflowRun, art *gh.Artifact, name string, limit int64) ([]byte, int64, error) {
	label := fmt.Sprintf("artifact %s of run #%d", art.GetName(), run.GetRunNumber())
	tmp, err := os.CreateTemp("", "ananke-artifact-*.zip")
	if err != nil {
		return nil, 0, fmt.Errorf("download %s: %w", label, err)
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	size, gone, err := g.c.downloadTo(ctx, tmp, art.GetID(), g.left())
	g.out.Bytes += size
	switch {
	case ctx.Err() != nil:
		return nil, size, ctx.Err()
	case Forbidden(err):
		return nil, size, fmt.Errorf("download %s: %w", label, err)
	case gone:
		g.passOver(label + " has expired (its download answered 410 Gone)")
		return nil, size, nil
	case err != nil:
		g.passOver(fmt.Sprintf("%s could not be downloaded: %v", label, err))
		return nil, size, nil
	}
	data, err := readZipFile(tmp, size, name, limit)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		g.passOver(fmt.Sprintf("%s has no %s", label, name))
		return nil, size, nil
	case err != nil:
		g.passOver(fmt.Sprintf("%s could not be read: %v", label, err))
		return nil, size, nil
	}
	return data, size, nil
}

// downloadTo writes artifact id's zip to w, at most limit bytes, and
// returns how many bytes it received. gone reports a 410 (expired).
func (c *Client) downloadTo(ctx context.Context, w io.Writer, id, limit int64) (n int64, gone bool, err error) {
	loc, resp, err := c.gh.Actions.DownloadArtifact(ctx, c.owner, c.repo, id, 0)
	if err != nil {
		if resp == nil {
			return 0, false, err
		}
		if resp.StatusCode == http.StatusGone {
			return 0, true, nil
		}
		return 0, false, &gh.ErrorResponse{Response: resp.Response, Message: http.StatusText(resp.StatusCode)}
	}
	n, err = copyBlob(ctx, c.blob, loc.String(), w, limit)
	return n, false, err
}

// copyBlob GETs a pre-signed storage URL with hc (which must not add a
// token) into w, at most limit bytes. Its errors never quote the URL's
// query, which holds the signature.
func copyBlob(ctx context.Context, hc *http.Client, signed string, w io.Writer, limit int64) (int64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, signed, nil)
	if err != nil {
		return 0, errors.New("storage URL is not valid") // quoting it would leak its signature
	}
	resp, err := hc.Do(req)
	if err != nil {
		return 0, redactURL(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("storage answered %s", resp.Status)
	}
	tooLarge := fmt.Errorf("larger than the %s left of the budget", HumanBytes(limit))
	if resp.ContentLength > limit {
		return 0, tooLarge
	}
	n, err := io.Copy(w, io.LimitReader(resp.Body, limit))
	if err != nil {
		return n, fmt.Errorf("read from storage: %w", redactURL(err))
	}
	if extra, _ := resp.Body.Read(make([]byte, 1)); extra > 0 {
		return n, tooLarge
	}
	return n, nil
}

// readZipFile reads the file name at the root of the zip in r (size
// bytes), at most limit bytes; an error for a missing file wraps
// fs.ErrNotExist.
func readZipFile(r io.ReaderAt, size int64, name string, limit int64) ([]byte, error) {
	// An insecure entry name (absolute, "..") does not stop the reader:
	// nothing is extracted, and only the exact name is read.
	zr, err := zip.NewReader(r, size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return nil, err
	}
	b := &BaseReport{zip: zr}
	return b.readLimited(name, limit)
}

func historyRun(r *gh.WorkflowRun) HistoryRun {
	return HistoryRun{ID: r.GetID(), Number: int64(r.GetRunNumber()), HTMLURL: r.GetHTMLURL(), HeadSHA: r.GetHeadSHA(),
		CreatedAt: r.GetCreatedAt().Time}
}

// HumanBytes formats a byte count for people, in decimal units as GitHub shows
// artifact sizes: "512 B", "23 KB", "38 MB", "1.2 GB".
func HumanBytes(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 1000*1000:
		return unit(n, 1000, "KB")
	case n < 1000*1000*1000:
		return unit(n, 1000*1000, "MB")
	}
	return unit(n, 1000*1000*1000, "GB")
}

// unit is n in units of u: whole from 10 up, else with one decimal.
func unit(n, u int64, name string) string {
	if v := float64(n) / float64(u); v < 9.95 {
		return strings.TrimSuffix(fmt.Sprintf("%.1f", v), ".0") + " " + name
	}
	return fmt.Sprintf("%d %s", (n+u/2)/u, name)
}
