package githubtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Check-run limits that GitHub enforces beyond the request schema (or that
// the schema states only in prose). See
// https://docs.github.com/rest/checks/runs#create-a-check-run.
const (
	// > The Checks API limits the number of annotations to a maximum of 50 per
	// > API request. (also maxItems in the schema)
	maxAnnotationsPerRequest = 50
	// maxTextLength bounds output.summary and output.text: "Maximum length:
	// 65535 characters" (also maxLength in the schema).
	maxTextLength = 65535
	// maxTitleLength bounds an annotation's title ("The maximum size is 255
	// characters"); the fake applies it to output.title as well, the limit
	// Ananke's checks reporter works to (docs/style.md §5).
	maxTitleLength = 255
	// maxAnnotationBytes bounds an annotation's message and raw_details:
	// "The maximum size is 64 KB."
	maxAnnotationBytes = 64 * 1024
)

// CheckRun is a stored check run as the fake sees it after every create/update.
type CheckRun struct {
	ID                                int64
	Name, HeadSHA, Status, Conclusion string
	Title, Summary, Text              string
	Annotations                       []Annotation // appended across updates, as GitHub does
}

// Annotation is one stored check-run annotation.
type Annotation struct {
	Path                              string
	StartLine, EndLine                int
	Level, Message, Title, RawDetails string
}

// checkRun is the stored state; the pointers keep "absent" apart from "".
type checkRun struct {
	CheckRun
	columns                [][2]*int // start and end column of each annotation
	detailsURL, externalID *string
	startedAt, completedAt *string
	title, summary, text   *string
}

// CheckRuns returns every check run, in creation order.
func (s *Server) CheckRuns() []CheckRun {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]CheckRun, len(s.runs))
	for i, run := range s.runs {
		out[i] = run.CheckRun
		out[i].Annotations = slices.Clone(run.Annotations)
	}
	return out
}

// checkRunRequest is the body of checks/create and checks/update.
type checkRunRequest struct {
	Name        *string        `json:"name"`
	HeadSHA     *string        `json:"head_sha"`
	DetailsURL  *string        `json:"details_url"`
	ExternalID  *string        `json:"external_id"`
	Status      *string        `json:"status"`
	Conclusion  *string        `json:"conclusion"`
	StartedAt   *string        `json:"started_at"`
	CompletedAt *string        `json:"completed_at"`
	Output      *outputRequest `json:"output"`
}

type outputRequest struct {
	Title       *string             `json:"title"`
	Summary     *string             `json:"summary"`
	Text        *string             `json:"text"`
	Annotations []annotationRequest `json:"annotations"`
}

type annotationRequest struct {
	Path            string  `json:"path"`
	StartLine       int     `json:"start_line"`
	EndLine         int     `json:"end_line"`
	StartColumn     *int    `json:"start_column"`
	EndColumn       *int    `json:"end_column"`
	AnnotationLevel string  `json:"annotation_level"`
	Message         string  `json:"message"`
	Title           *string `json:"title"`
	RawDetails      *string `json:"raw_details"`
}

func (s *Server) createCheckRun(c *call) reply {
	var req checkRunRequest
	if err := json.Unmarshal(c.body, &req); err != nil {
		return s.badJSON(c, err)
	}
	if probs := checkRunProblems(&req); len(probs) > 0 {
		return s.violation(c, "CheckRun", probs)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	run := &checkRun{CheckRun: CheckRun{ID: s.nextRunID, HeadSHA: deref(req.HeadSHA), Status: "queued"}}
	s.nextRunID++
	run.apply(&req, s.tick())
	s.runs = append(s.runs, run)
	return reply{status: http.StatusCreated, body: run.json(c)}
}

func (s *Server) updateCheckRun(c *call) reply {
	var req checkRunRequest
	if err := json.Unmarshal(c.body, &req); err != nil {
		return s.badJSON(c, err)
	}
	if probs := checkRunProblems(&req); len(probs) > 0 {
		return s.violation(c, "CheckRun", probs)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	run := s.findRun(c.params["check_run_id"])
	if run == nil {
		return notFound()
	}
	run.apply(&req, s.tick())
	return reply{status: http.StatusOK, body: run.json(c)}
}

func (s *Server) listAnnotations(c *call) reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	run := s.findRun(c.params["check_run_id"])
	if run == nil {
		return notFound()
	}
	start, end, link := paginate(c.r, len(run.Annotations))
	out := make([]annotationJSON, 0, end-start)
	for i := start; i < end; i++ {
		out = append(out, run.annotationJSON(c, i))
	}
	return reply{status: http.StatusOK, header: link, body: out}
}

// findRun looks up a check run by its path parameter. Callers hold s.mu.
func (s *Server) findRun(param string) *checkRun {
	id, err := strconv.ParseInt(param, 10, 64)
	if err != nil {
		return nil
	}
	for _, run := range s.runs {
		if run.ID == id {
			return run
		}
	}
	return nil
}

// checkRunProblems lists what GitHub would reject although the schema
// accepts it (or what the schema should have caught, should it change).
// Required fields (head_sha, output.title and output.summary on create) are
// the schema's business.
func checkRunProblems(req *checkRunRequest) []problem {
	var probs []problem
	if req.Name != nil && strings.TrimSpace(*req.Name) == "" {
		// go-github's UpdateCheckRunOptions.Name has no omitempty: an unset
		// Name is sent as "".
		probs = append(probs, problem{"name", "name can't be blank"})
	}
	if req.HeadSHA != nil && strings.TrimSpace(*req.HeadSHA) == "" {
		// go-github's CreateCheckRunOptions.HeadSHA has no omitempty either;
		// GitHub answers "No commit found for SHA: ".
		probs = append(probs, problem{"head_sha", "No commit found for SHA: (head_sha is empty)"})
	}
	if req.Conclusion == nil && (req.CompletedAt != nil || (req.Status != nil && *req.Status == "completed")) {
		probs = append(probs, problem{"conclusion", "conclusion is required with status completed or completed_at"})
	}
	if req.Conclusion != nil && *req.Conclusion == "stale" {
		probs = append(probs, problem{"conclusion", "conclusion stale can only be set by GitHub"})
	}
	if out := req.Output; out != nil {
		probs = append(probs, outputProblems(out)...)
	}
	return probs
}

func outputProblems(out *outputRequest) []problem {
	var probs []problem
	if out.Title != nil && utf8.RuneCountInString(*out.Title) > maxTitleLength {
		probs = append(probs, problem{"output.title", fmt.Sprintf("is %d characters, maximum is %d", utf8.RuneCountInString(*out.Title), maxTitleLength)})
	}
	for field, v := range map[string]*string{"output.summary": out.Summary, "output.text": out.Text} {
		if v != nil && utf8.RuneCountInString(*v) > maxTextLength {
			probs = append(probs, problem{field, fmt.Sprintf("is %d characters, maximum is %d", utf8.RuneCountInString(*v), maxTextLength)})
		}
	}
	if n := len(out.Annotations); n > maxAnnotationsPerRequest {
		probs = append(probs, problem{"output.annotations", fmt.Sprintf("%d annotations, maximum is %d per request", n, maxAnnotationsPerRequest)})
	}
	for i, a := range out.Annotations {
		probs = append(probs, annotationProblems(fmt.Sprintf("output.annotations[%d]", i), &a)...)
	}
	slices.SortStableFunc(probs, func(a, b problem) int { return strings.Compare(a.field, b.field) })
	return probs
}

func annotationProblems(field string, a *annotationRequest) []problem {
	var probs []problem
	add := func(sub, format string, args ...any) {
		probs = append(probs, problem{field + "." + sub, fmt.Sprintf(format, args...)})
	}
	if a.StartLine < 1 {
		add("start_line", "is %d, line numbers start at 1", a.StartLine)
	}
	if a.EndLine < a.StartLine {
		add("end_line", "is %d, before start_line %d", a.EndLine, a.StartLine)
	}
	if (a.StartColumn != nil || a.EndColumn != nil) && a.StartLine != a.EndLine {
		add("start_column", "start_column and end_column are only allowed when start_line == end_line (%d != %d)", a.StartLine, a.EndLine)
	}
	if a.Title != nil && utf8.RuneCountInString(*a.Title) > maxTitleLength {
		add("title", "is %d characters, maximum is %d", utf8.RuneCountInString(*a.Title), maxTitleLength)
	}
	if len(a.Message) > maxAnnotationBytes {
		add("message", "is %d bytes, maximum is %d", len(a.Message), maxAnnotationBytes)
	}
	if a.RawDetails != nil && len(*a.RawDetails) > maxAnnotationBytes {
		add("raw_details", "is %d bytes, maximum is %d", len(*a.RawDetails), maxAnnotationBytes)
	}
	return probs
}

// apply merges a validated create or update body into run, as GitHub does:
// fields present replace the stored ones, annotations are appended, and a
// conclusion completes the run.
func (run *checkRun) apply(req *checkRunRequest, now time.Time) {
	setIf(&run.Name, req.Name)
	setIf(&run.Status, req.Status)
	if req.Conclusion != nil {
		run.Conclusion = *req.Conclusion
		run.Status = "completed"
	}
	setPtrIf(&run.detailsURL, req.DetailsURL)
	setPtrIf(&run.externalID, req.ExternalID)
	setPtrIf(&run.startedAt, req.StartedAt)
	setPtrIf(&run.completedAt, req.CompletedAt)
	if run.startedAt == nil {
		ts := now.Format(time.RFC3339)
		run.startedAt = &ts
	}
	if run.Status == "completed" && run.completedAt == nil {
		ts := now.Format(time.RFC3339)
		run.completedAt = &ts
	}
	out := req.Output
	if out == nil {
		return
	}
	setPtrIf(&run.title, out.Title)
	setPtrIf(&run.summary, out.Summary)
	setPtrIf(&run.text, out.Text)
	setIf(&run.Title, out.Title)
	setIf(&run.Summary, out.Summary)
	setIf(&run.Text, out.Text)
	for _, a := range out.Annotations {
		run.Annotations = append(run.Annotations, Annotation{
			Path: a.Path, StartLine: a.StartLine, EndLine: a.EndLine,
			Level: a.AnnotationLevel, Message: a.Message,
			Title: deref(a.Title), RawDetails: deref(a.RawDetails),
		})
		run.columns = append(run.columns, [2]*int{a.StartColumn, a.EndColumn})
	}
}

// checkRunJSON is GitHub's check-run object, with the fields go-github's
// CheckRun decodes.
type checkRunJSON struct {
	ID           int64      `json:"id"`
	NodeID       string     `json:"node_id"`
	HeadSHA      string     `json:"head_sha"`
	ExternalID   *string    `json:"external_id"`
	URL          string     `json:"url"`
	HTMLURL      string     `json:"html_url"`
	DetailsURL   *string    `json:"details_url"`
	Status       string     `json:"status"`
	Conclusion   *string    `json:"conclusion"`
	StartedAt    *string    `json:"started_at"`
	CompletedAt  *string    `json:"completed_at"`
	Output       outputJSON `json:"output"`
	Name         string     `json:"name"`
	App          appJSON    `json:"app"`
	PullRequests []struct{} `json:"pull_requests"`
}

type outputJSON struct {
	Title            *string `json:"title"`
	Summary          *string `json:"summary"`
	Text             *string `json:"text"`
	AnnotationsCount int     `json:"annotations_count"`
	AnnotationsURL   string  `json:"annotations_url"`
}

type appJSON struct {
	ID   int64  `json:"id"`
	Slug string `json:"slug"`
	Name string `json:"name"`
}

type annotationJSON struct {
	Path            string  `json:"path"`
	StartLine       int     `json:"start_line"`
	EndLine         int     `json:"end_line"`
	StartColumn     *int    `json:"start_column"`
	EndColumn       *int    `json:"end_column"`
	AnnotationLevel string  `json:"annotation_level"`
	Title           *string `json:"title"`
	Message         string  `json:"message"`
	RawDetails      *string `json:"raw_details"`
	BlobHref        string  `json:"blob_href"`
}

func (run *checkRun) json(c *call) checkRunJSON {
	id := strconv.FormatInt(run.ID, 10)
	api := baseURL(c.r) + "/repos/" + c.repo() + "/check-runs/" + id
	var conclusion *string
	if run.Conclusion != "" {
		conclusion = &run.Conclusion
	}
	return checkRunJSON{
		ID:          run.ID,
		NodeID:      fmt.Sprintf("CR_githubtest%d", run.ID),
		HeadSHA:     run.HeadSHA,
		ExternalID:  run.externalID,
		URL:         api,
		HTMLURL:     "https://github.com/" + c.repo() + "/runs/" + id,
		DetailsURL:  run.detailsURL,
		Status:      run.Status,
		Conclusion:  conclusion,
		StartedAt:   run.startedAt,
		CompletedAt: run.completedAt,
		Output: outputJSON{
			Title:            run.title,
			Summary:          run.summary,
			Text:             run.text,
			AnnotationsCount: len(run.Annotations),
			AnnotationsURL:   api + "/annotations",
		},
		Name:         run.Name,
		App:          appJSON{ID: 15368, Slug: "github-actions", Name: "GitHub Actions"},
		PullRequests: []struct{}{},
	}
}

func (run *checkRun) annotationJSON(c *call, i int) annotationJSON {
	a := run.Annotations[i]
	out := annotationJSON{
		Path: a.Path, StartLine: a.StartLine, EndLine: a.EndLine,
		StartColumn: run.columns[i][0], EndColumn: run.columns[i][1],
		AnnotationLevel: a.Level, Message: a.Message,
		BlobHref: "https://github.com/" + c.repo() + "/blob/" + run.HeadSHA + "/" + a.Path,
	}
	if a.Title != "" {
		out.Title = &a.Title
	}
	if a.RawDetails != "" {
		out.RawDetails = &a.RawDetails
	}
	return out
}

func (s *Server) badJSON(c *call, err error) reply {
	// Unreachable after schema validation, unless the description changes.
	s.t.Errorf("githubtest: %s (%s %s): decode body: %v", c.op, c.r.Method, c.r.URL.Path, err)
	return errorReply(http.StatusBadRequest, "Problems parsing JSON", s.spec.docURL(c.op))
}

func setIf(dst *string, v *string) {
	if v != nil {
		*dst = *v
	}
}

func setPtrIf(dst **string, v *string) {
	if v != nil {
		s := *v
		*dst = &s
	}
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
