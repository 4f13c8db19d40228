package githubtest

import (
	"cmp"
	"fmt"
	"net/http"
	"path"
	"slices"
	"strconv"
	"time"
)

// WorkflowRun is a GitHub Actions workflow run the fake knows of.
type WorkflowRun struct {
	ID         int64 // 0: the next free id
	RunNumber  int   // 0: the run's position among its workflow's runs
	WorkflowID int64
	// Path is the workflow file ("" means .github/workflows/ci.yml); the
	// runs listing also accepts its base name in place of the workflow id.
	Path   string
	Branch string // head_branch: the pushed branch, or a pull request's head branch
	Event  string // "" means push
	// Status is queued, in_progress or completed ("" means completed);
	// Conclusion (success, failure, cancelled, …) is set once completed.
	Status, Conclusion string
	HeadSHA            string
	CreatedAt          time.Time // zero: the fake's clock
}

// conclusions are the values of the runs listing's status parameter that
// match a run's conclusion rather than its status ("For example, a
// conclusion can be success or a status can be in_progress").
var conclusions = []string{"action_required", "cancelled", "failure", "neutral", "skipped", "stale", "success", "timed_out"}

// AddWorkflowRun stores a workflow run and returns its id.
func (s *Server) AddWorkflowRun(run WorkflowRun) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if run.ID == 0 {
		run.ID = s.nextWorkflowRunID
	}
	s.nextWorkflowRunID = max(s.nextWorkflowRunID, run.ID+1)
	if run.Path == "" {
		run.Path = ".github/workflows/ci.yml"
	}
	if run.Event == "" {
		run.Event = "push"
	}
	if run.Status == "" {
		run.Status = "completed"
	}
	if run.CreatedAt.IsZero() {
		run.CreatedAt = s.tick()
	}
	if run.RunNumber == 0 {
		run.RunNumber = 1
		for _, r := range s.workflowRuns {
			if r.WorkflowID == run.WorkflowID {
				run.RunNumber++
			}
		}
	}
	s.workflowRuns = append(s.workflowRuns, &run)
	return run.ID
}

// CompleteWorkflowRun marks run id completed with conclusion, as GitHub
// does once its jobs end.
func (s *Server) CompleteWorkflowRun(id int64, conclusion string) {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	run := s.workflowRun(id)
	if run == nil {
		s.t.Errorf("githubtest: CompleteWorkflowRun(%d): no such workflow run", id)
		return
	}
	run.Status, run.Conclusion = "completed", conclusion
}

// artifact is a stored workflow-run artifact.
type artifact struct {
	id, runID       int64
	name            string
	zip             []byte
	expired         bool
	created, expiry time.Time
}

// Artifact retention: GitHub's default is 90 days. An expired artifact was
// kept one day.
const (
	retention        = 90 * 24 * time.Hour
	expiredRetention = 24 * time.Hour
)

// AddArtifact stores an artifact of workflow run runID holding zip and
// returns its id. An expired artifact is listed with "expired": true and an
// expires_at a day after its creation, and its download answers 410 Gone.
// (GitHub may list an artifact as unexpired whose download already answers
// 410: use Fail("actions/download-artifact", 1, 410) for that.)
func (s *Server) AddArtifact(runID int64, name string, zip []byte, expired bool) int64 {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	run := s.workflowRun(runID)
	if run == nil {
		s.t.Errorf("githubtest: AddArtifact(%d, %q): no such workflow run", runID, name)
		return 0
	}
	a := &artifact{id: s.nextArtID, runID: runID, name: name, zip: slices.Clone(zip), expired: expired,
		created: run.CreatedAt.Add(time.Minute)}
	a.expiry = a.created.Add(retention)
	if expired {
		a.expiry = a.created.Add(expiredRetention)
	}
	s.nextArtID++
	s.artifacts = append(s.artifacts, a)
	return a.id
}

// workflowRun finds a run by id. Callers hold s.mu.
func (s *Server) workflowRun(id int64) *WorkflowRun {
	for _, r := range s.workflowRuns {
		if r.ID == id {
			return r
		}
	}
	return nil
}

func (s *Server) getWorkflowRun(c *call) reply {
	id, _ := strconv.ParseInt(c.params["run_id"], 10, 64) // the schema checked the type
	s.mu.Lock()
	defer s.mu.Unlock()
	run := s.workflowRun(id)
	if run == nil {
		return notFound()
	}
	return reply{status: http.StatusOK, body: workflowRunJSONOf(c, run)}
}

// listWorkflowRuns filters like GitHub: branch (head_branch), event,
// head_sha, and status (a status or a conclusion); newest first.
func (s *Server) listWorkflowRuns(c *call) reply {
	q := c.r.URL.Query()
	workflow := c.params["workflow_id"]
	s.mu.Lock()
	defer s.mu.Unlock()
	var matched []*WorkflowRun
	for _, r := range s.workflowRuns {
		if strconv.FormatInt(r.WorkflowID, 10) != workflow && path.Base(r.Path) != workflow {
			continue
		}
		if !matches(q.Get("branch"), r.Branch) || !matches(q.Get("event"), r.Event) || !matches(q.Get("head_sha"), r.HeadSHA) {
			continue
		}
		if st := q.Get("status"); st != "" {
			if slices.Contains(conclusions, st) && r.Conclusion != st || !slices.Contains(conclusions, st) && r.Status != st {
				continue
			}
		}
		matched = append(matched, r)
	}
	slices.SortStableFunc(matched, func(a, b *WorkflowRun) int {
		return cmp.Or(b.CreatedAt.Compare(a.CreatedAt), cmp.Compare(b.ID, a.ID))
	})
	start, end, link := paginate(c.r, len(matched))
	out := workflowRunsJSON{TotalCount: len(matched), WorkflowRuns: make([]workflowRunJSON, 0, end-start)}
	for _, r := range matched[start:end] {
		out.WorkflowRuns = append(out.WorkflowRuns, workflowRunJSONOf(c, r))
	}
	return reply{status: http.StatusOK, header: link, body: out}
}

// matches is a query filter: empty matches everything.
func matches(filter, value string) bool { return filter == "" || filter == value }

// listArtifacts lists a run's artifacts, filtered by name, newest first
// unless direction=asc.
func (s *Server) listArtifacts(c *call) reply {
	id, _ := strconv.ParseInt(c.params["run_id"], 10, 64)
	q := c.r.URL.Query()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.workflowRun(id) == nil {
		return notFound()
	}
	var matched []*artifact
	for _, a := range s.artifacts {
		if a.runID == id && matches(q.Get("name"), a.name) {
			matched = append(matched, a)
		}
	}
	if q.Get("direction") != "asc" {
		slices.Reverse(matched)
	}
	start, end, link := paginate(c.r, len(matched))
	out := artifactsJSON{TotalCount: len(matched), Artifacts: make([]artifactJSON, 0, end-start)}
	for _, a := range matched[start:end] {
		out.Artifacts = append(out.Artifacts, s.artifactJSONOf(c, a))
	}
	return reply{status: http.StatusOK, header: link, body: out}
}

// downloadArtifact answers 302 with a signed storage URL (on this server),
// 410 for an expired artifact and 404 for an unknown one. "The
// :archive_format must be zip."
func (s *Server) downloadArtifact(c *call) reply {
	id, _ := strconv.ParseInt(c.params["artifact_id"], 10, 64)
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.artifact(id)
	if a == nil || c.params["archive_format"] != "zip" {
		return notFound()
	}
	if a.expired {
		return errorReply(http.StatusGone, "Artifact has expired", s.spec.docURL(c.op))
	}
	return reply{status: http.StatusFound, header: http.Header{"Location": {s.blobURL(c.r, a)}}}
}

// artifact finds an artifact by id. Callers hold s.mu.
func (s *Server) artifact(id int64) *artifact {
	for _, a := range s.artifacts {
		if a.id == id {
			return a
		}
	}
	return nil
}

// workflowRunsJSON is the runs listing's body.
type workflowRunsJSON struct {
	TotalCount   int               `json:"total_count"`
	WorkflowRuns []workflowRunJSON `json:"workflow_runs"`
}

// workflowRunJSON is GitHub's workflow-run object, with the fields
// go-github's WorkflowRun decodes that the fake can fill in.
type workflowRunJSON struct {
	ID             int64    `json:"id"`
	Name           string   `json:"name"`
	NodeID         string   `json:"node_id"`
	HeadBranch     string   `json:"head_branch"`
	HeadSHA        string   `json:"head_sha"`
	Path           string   `json:"path"`
	DisplayTitle   string   `json:"display_title"`
	RunNumber      int      `json:"run_number"`
	RunAttempt     int      `json:"run_attempt"`
	Event          string   `json:"event"`
	Status         string   `json:"status"`
	Conclusion     *string  `json:"conclusion"` // null until completed
	WorkflowID     int64    `json:"workflow_id"`
	URL            string   `json:"url"`
	HTMLURL        string   `json:"html_url"`
	PullRequests   []string `json:"pull_requests"`
	CreatedAt      string   `json:"created_at"`
	UpdatedAt      string   `json:"updated_at"`
	RunStartedAt   string   `json:"run_started_at"`
	JobsURL        string   `json:"jobs_url"`
	LogsURL        string   `json:"logs_url"`
	ArtifactsURL   string   `json:"artifacts_url"`
	CancelURL      string   `json:"cancel_url"`
	RerunURL       string   `json:"rerun_url"`
	WorkflowURL    string   `json:"workflow_url"`
	Repository     repoJSON `json:"repository"`
	HeadRepository repoJSON `json:"head_repository"`
}

type repoJSON struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	FullName string `json:"full_name"`
}

func workflowRunJSONOf(c *call, r *WorkflowRun) workflowRunJSON {
	api := baseURL(c.r) + "/repos/" + c.repo()
	runURL := fmt.Sprintf("%s/actions/runs/%d", api, r.ID)
	repo := repoJSON{ID: int64(userID(c.repo())), Name: c.params["repo"], FullName: c.repo()}
	out := workflowRunJSON{
		ID:           r.ID,
		Name:         "CI",
		NodeID:       fmt.Sprintf("WFR_githubtest%d", r.ID),
		HeadBranch:   r.Branch,
		HeadSHA:      r.HeadSHA,
		Path:         r.Path,
		DisplayTitle: "CI",
		RunNumber:    r.RunNumber,
		RunAttempt:   1,
		Event:        r.Event,
		Status:       r.Status,
		WorkflowID:   r.WorkflowID,
		URL:          runURL,
		HTMLURL:      fmt.Sprintf("https://github.com/%s/actions/runs/%d", c.repo(), r.ID),
		PullRequests: []string{},
		CreatedAt:    r.CreatedAt.Format(time.RFC3339),
		UpdatedAt:    r.CreatedAt.Format(time.RFC3339),
		RunStartedAt: r.CreatedAt.Format(time.RFC3339),
		JobsURL:      runURL + "/jobs",
		LogsURL:      runURL + "/logs",
		ArtifactsURL: runURL + "/artifacts",
		CancelURL:    runURL + "/cancel",
		RerunURL:     runURL + "/rerun",
		WorkflowURL:  fmt.Sprintf("%s/actions/workflows/%d", api, r.WorkflowID),
		Repository:   repo, HeadRepository: repo,
	}
	if r.Conclusion != "" {
		out.Conclusion = &r.Conclusion
	}
	return out
}

// artifactsJSON is the artifacts listing's body.
type artifactsJSON struct {
	TotalCount int            `json:"total_count"`
	Artifacts  []artifactJSON `json:"artifacts"`
}

// artifactJSON is GitHub's artifact object.
type artifactJSON struct {
	ID                 int64               `json:"id"`
	NodeID             string              `json:"node_id"`
	Name               string              `json:"name"`
	SizeInBytes        int                 `json:"size_in_bytes"`
	URL                string              `json:"url"`
	ArchiveDownloadURL string              `json:"archive_download_url"`
	Expired            bool                `json:"expired"`
	CreatedAt          string              `json:"created_at"`
	ExpiresAt          string              `json:"expires_at"`
	UpdatedAt          string              `json:"updated_at"`
	WorkflowRun        artifactWorkflowRun `json:"workflow_run"`
}

type artifactWorkflowRun struct {
	ID               int64  `json:"id"`
	RepositoryID     int64  `json:"repository_id"`
	HeadRepositoryID int64  `json:"head_repository_id"`
	HeadBranch       string `json:"head_branch"`
	HeadSHA          string `json:"head_sha"`
}

// artifactJSONOf renders a. Callers hold s.mu.
func (s *Server) artifactJSONOf(c *call, a *artifact) artifactJSON {
	url := fmt.Sprintf("%s/repos/%s/actions/artifacts/%d", baseURL(c.r), c.repo(), a.id)
	repoID := int64(userID(c.repo()))
	run := s.workflowRun(a.runID)
	return artifactJSON{
		ID:                 a.id,
		NodeID:             fmt.Sprintf("MDg6QXJ0aWZhY3Q%d", a.id),
		Name:               a.name,
		SizeInBytes:        len(a.zip),
		URL:                url,
		ArchiveDownloadURL: url + "/zip",
		Expired:            a.expired,
		CreatedAt:          a.created.Format(time.RFC3339),
		ExpiresAt:          a.expiry.Format(time.RFC3339),
		UpdatedAt:          a.created.Format(time.RFC3339),
		WorkflowRun: artifactWorkflowRun{ID: a.runID, RepositoryID: repoID, HeadRepositoryID: repoID,
			HeadBranch: run.Branch, HeadSHA: run.HeadSHA},
	}
}
