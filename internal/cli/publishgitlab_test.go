package cli

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ananke/action/internal/gitlab/gitlabtest"
	"github.com/ananke/action/reporters/diff"
	"github.com/ananke/action/reporters/prcomment"
	"github.com/ananke/action/reporters/reportdir"
)

// The failing example's run, made once per test binary and only read by
// the tests: a GitLab job's project directory with its report directory.
var (
	glOnce    sync.Once
	glProject string
	glErr     string
)

// gitlabProject runs the failing example suite into ananke-report in its
// workspace, once, and returns the workspace.
func gitlabProject(t *testing.T) string {
	t.Helper()
	glOnce.Do(func() {
		dir := failingWorkspace(t)
		// failingWorkspace's directory belongs to the first test; keep a
		// copy that outlives it.
		keep, err := os.MkdirTemp("", "ananke-gitlab-project")
		if err != nil {
			glErr = err.Error()
			return
		}
		r := runWall(t, dir, map[string]string{"ANANKE_ACTION_SECRET": actionSecret}, "run", "--report-dir", "ananke-report")
		if r.code != ExitFail {
			glErr = "run failing example: exit " + itoa(r.code) + "\n" + r.out + r.errOut
			return
		}
		if err := os.CopyFS(keep, os.DirFS(dir)); err != nil {
			glErr = err.Error()
			return
		}
		glProject = keep
	})
	if glErr != "" {
		t.Fatal(glErr)
	}
	return glProject
}

const glMR = "12"

// gitlabEnv is a merge request pipeline's environment on the fake GitLab.
func gitlabEnv(srv *gitlabtest.Server, project string) map[string]string {
	return map[string]string{
		"CI_API_V4_URL": srv.APIURL(), "CI_PROJECT_ID": "42", "CI_PROJECT_URL": "https://gitlab.example.com/acme/shop",
		"CI_PROJECT_DIR": project, "CI_COMMIT_SHA": "head1111", "CI_MERGE_REQUEST_IID": glMR,
		"CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "main", "CI_JOB_NAME": "ananke",
		"CI_JOB_URL": "https://gitlab.example.com/acme/shop/-/jobs/77", "CI_PIPELINE_URL": "https://gitlab.example.com/acme/shop/-/pipelines/9",
		gitlabTokenVar: srv.Token(),
	}
}

// publishGitLab runs `ananke publish gitlab` in project, which must exit 0
// and never show the token.
func publishGitLab(t *testing.T, project string, env map[string]string, args ...string) result {
	t.Helper()
	r := run(t, project, env, append([]string{"publish", "gitlab"}, args...)...)
	if r.code != ExitPass {
		t.Fatalf("publish gitlab exit %d; want 0 (publishing never hides the verdict)\n%s%s", r.code, r.out, r.errOut)
	}
	if tok := env[gitlabTokenVar]; tok != "" && strings.Contains(r.out+r.errOut, tok) {
		t.Error("the output shows the token")
	}
	return r
}

// wantResults checks the job log holds the results.
func wantResults(t *testing.T, r result) {
	t.Helper()
	if !strings.Contains(r.out, "Tests: 6 total, 0 passed, 6 failed") || !strings.Contains(r.out, "wrong-city.ananke.yaml:9") {
		t.Errorf("the job log lacks the results:\n%s", r.out)
	}
}

// TestPublishGitLabTwice: publishing the failing example's report twice
// leaves exactly one note, created then edited, with the PR comment's
// content for GitLab: the marker, links to the failing lines, the job's
// artifacts and the pipeline.
func TestPublishGitLabTwice(t *testing.T) {
	project := gitlabProject(t)
	srv := gitlabtest.New(t)
	srv.AddNote("42", 12, "Looks good to me", false)
	env := gitlabEnv(srv, project)
	r := publishGitLab(t, project, env)
	if !strings.Contains(r.out, "ananke: note created on !12\n") || r.errOut != "" {
		t.Fatalf("first publish:\n%s%s", r.out, r.errOut)
	}
	r = publishGitLab(t, project, env)
	if !strings.Contains(r.out, "ananke: note updated on !12\n") || r.errOut != "" {
		t.Fatalf("second publish:\n%s%s", r.out, r.errOut)
	}
	notes := srv.Notes("42", 12)
	if len(notes) != 2 || notes[0].Body != "Looks good to me" || notes[1].Edits != 1 {
		t.Fatalf("notes = %+v; want the reviewer's and one of Ananke's, edited once", notes)
	}
	body := notes[1].Body
	for _, want := range []string{
		prcomment.Marker("ananke") + "\n### ✗ ananke: 6 failed of 6 tests",
		"https://gitlab.example.com/acme/shop/-/blob/head1111/wrong-city.ananke.yaml#L9",
		"the `ananke-report` directory of [the job's artifacts](https://gitlab.example.com/acme/shop/-/jobs/77/artifacts/browse/ananke-report)",
		"[pipeline](https://gitlab.example.com/acme/shop/-/pipelines/9)",
		"No base report to compare with: no successful pipeline on main has artifacts of job ananke.",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("note lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, actionSecret) {
		t.Error("the note shows the suite's secret")
	}
	if n := srv.Count(gitlabtest.OpCreateNote); n != 1 {
		t.Errorf("%d notes created", n)
	}
}

// TestPublishGitLabMarkerOnPage2: the note is found past the first page
// of a busy merge request, and edited.
func TestPublishGitLabMarkerOnPage2(t *testing.T) {
	project := gitlabProject(t)
	srv := gitlabtest.New(t)
	for range 120 {
		srv.AddNote("42", 12, "review comment", false)
	}
	id := srv.AddNote("42", 12, prcomment.Marker("ananke")+"\nan older report", false)
	r := publishGitLab(t, project, gitlabEnv(srv, project))
	if !strings.Contains(r.out, "ananke: note updated on !12") {
		t.Fatalf("output:\n%s%s", r.out, r.errOut)
	}
	notes := srv.Notes("42", 12)
	if len(notes) != 121 || notes[120].ID != id || notes[120].Edits != 1 || srv.Count(gitlabtest.OpListNotes) != 2 {
		t.Errorf("%d notes, last %+v, %d list requests", len(notes), notes[120].ID, srv.Count(gitlabtest.OpListNotes))
	}
}

// TestPublishGitLabRetries: a 429 is waited out and the note made; a
// GitLab failing every attempt is a warning, with the results in the log.
func TestPublishGitLabRetries(t *testing.T) {
	project := gitlabProject(t)
	t.Run("429 then success", func(t *testing.T) {
		srv := gitlabtest.New(t)
		srv.RateLimit(gitlabtest.OpCreateNote, 1, "0")
		r := publishGitLab(t, project, gitlabEnv(srv, project))
		if !strings.Contains(r.out, "ananke: note created on !12") || len(srv.Notes("42", 12)) != 1 || srv.Count(gitlabtest.OpCreateNote) != 2 {
			t.Errorf("output:\n%s%s; %d notes, %d creates", r.out, r.errOut, len(srv.Notes("42", 12)), srv.Count(gitlabtest.OpCreateNote))
		}
	})
	t.Run("5xx exhausted", func(t *testing.T) {
		srv := gitlabtest.New(t)
		srv.FailRetryAfter(gitlabtest.OpListNotes, 10, http.StatusServiceUnavailable, "0")
		r := publishGitLab(t, project, gitlabEnv(srv, project))
		if !strings.Contains(r.errOut, "ananke publish gitlab: no note on !12: list notes of !12: GET projects/42/merge_requests/12/notes: 503 Service Unavailable (after 4 attempts); the results follow") {
			t.Errorf("warning:\n%s", r.errOut)
		}
		wantResults(t, r)
		if srv.Count(gitlabtest.OpListNotes) != 4 || len(srv.Notes("42", 12)) != 0 {
			t.Errorf("%d list requests, %d notes", srv.Count(gitlabtest.OpListNotes), len(srv.Notes("42", 12)))
		}
	})
}

// TestPublishGitLabRefused: a token that may not write — read_api only
// (403), revoked (401), or absent — is a warning naming what is missing,
// and the results go to the job log; never a failure.
func TestPublishGitLabRefused(t *testing.T) {
	project := gitlabProject(t)
	tests := []struct {
		name    string
		setup   func(*gitlabtest.Server, map[string]string)
		warning string
	}{
		{"read-only token", func(s *gitlabtest.Server, _ map[string]string) { s.ReadOnly() },
			"the token lacks the api scope, so it cannot write the note on !12 (a read_api token reads but never writes; give ANANKE_GITLAB_TOKEN a token with the api scope)"},
		{"revoked token", func(s *gitlabtest.Server, _ map[string]string) { s.Revoke() },
			"GitLab refused the token (401 Unauthorized: expired, revoked, or not an access token)"},
		{"role too low", func(s *gitlabtest.Server, _ map[string]string) {
			s.Fail(gitlabtest.OpCreateNote, 1, http.StatusForbidden)
		},
			"the token may not comment on !12 (comment on !12: POST projects/42/merge_requests/12/notes: 403 Forbidden): its user needs the api scope and at least the Reporter role"},
		{"no token", func(_ *gitlabtest.Server, env map[string]string) { env[gitlabTokenVar] = "" },
			"ANANKE_GITLAB_TOKEN is unset: no note on !12 (set it as a masked CI/CD variable holding an access token with the api scope)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := gitlabtest.New(t)
			env := gitlabEnv(srv, project)
			tc.setup(srv, env)
			r := publishGitLab(t, project, env)
			if !strings.Contains(r.errOut, "ananke publish gitlab: "+tc.warning) {
				t.Errorf("warning:\n%s", r.errOut)
			}
			wantResults(t, r)
			if len(srv.Notes("42", 12)) != 0 || strings.Contains(r.out, "ananke: note") {
				t.Errorf("a note was made or claimed:\n%s", r.out)
			}
		})
	}
}

// TestPublishGitLabOutsideMR: a branch pipeline has no merge request to
// note: the command says so, prints the results, and asks GitLab nothing.
func TestPublishGitLabOutsideMR(t *testing.T) {
	project := gitlabProject(t)
	srv := gitlabtest.New(t)
	env := gitlabEnv(srv, project)
	env["CI_MERGE_REQUEST_IID"] = ""
	r := publishGitLab(t, project, env)
	if !strings.Contains(r.out, "ananke: no merge request to note: CI_MERGE_REQUEST_IID is unset (this is not a merge request pipeline)") || r.errOut != "" {
		t.Errorf("output:\n%s%s", r.out, r.errOut)
	}
	wantResults(t, r)
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests to GitLab", n)
	}
	// Not in GitLab CI at all: a warning, the results, exit 0.
	r = publishGitLab(t, project, map[string]string{"CI_API_V4_URL": "", "CI_PROJECT_ID": ""})
	if !strings.Contains(r.errOut, "ananke publish gitlab: not a GitLab CI job: CI_API_V4_URL and CI_PROJECT_ID unset: no merge request note; the results follow") {
		t.Errorf("outside GitLab:\n%s", r.errOut)
	}
	wantResults(t, r)
}

// TestPublishGitLabBaseDelta: with the target branch's report in the fake's
// artifacts, the note opens with the change since it, as the PR comment
// does, and the log says it as text.
func TestPublishGitLabBaseDelta(t *testing.T) {
	project := gitlabProject(t)
	head, err := reportdir.ReadSummary(filepath.Join(project, "ananke-report"))
	if err != nil {
		t.Fatal(err)
	}
	baseJSON := passingBase(t, filepath.Join(project, "ananke-report", reportdir.SummaryFile), "wrong-city")
	base, err := reportdir.ParseSummary(baseJSON)
	if err != nil {
		t.Fatal(err)
	}
	headline := diff.CompareAt(base, head, diff.DefaultSignificance).Headline()

	srv := gitlabtest.New(t)
	srv.RedirectArtifacts()
	srv.SetArtifacts("42", "main", "ananke", gitlabtest.Zip(t, map[string]string{
		"ananke-report/summary.json": string(baseJSON),
		"ananke-report/junit.xml":    "<testsuites/>",
	}))
	r := publishGitLab(t, project, gitlabEnv(srv, project))
	if !strings.Contains(r.out, "ananke: note created on !12") || r.errOut != "" {
		t.Fatalf("output:\n%s%s", r.out, r.errOut)
	}
	body := srv.Notes("42", 12)[0].Body
	lead := prcomment.Marker("ananke") + "\n### ✗ ananke: 6 failed of 6 tests"
	want := "**" + headline + "**\n\nCompared with [the latest successful `ananke` job on `main`](https://gitlab.example.com/acme/shop/-/jobs/artifacts/main/browse?job=ananke)"
	if !strings.HasPrefix(body, lead) || !strings.Contains(body, want) || strings.Contains(body, "No base report") {
		t.Errorf("note lacks the change since main (%q):\n%s", want, body)
	}
	if !strings.Contains(r.out, "the latest successful ananke job on main") || srv.StorageRequests() != 1 {
		t.Errorf("log:\n%s; %d storage requests", r.out, srv.StorageRequests())
	}
	reqs := srv.Requests()
	if reqs[0].Operation != gitlabtest.OpDownloadArtifacts || reqs[0].Query.Get("job") != "ananke" {
		t.Errorf("first request %+v", reqs[0])
	}

	// --job names another job: the base is looked for under it, and the
	// note is that job's.
	r = publishGitLab(t, project, gitlabEnv(srv, project), "--job", "agent-tests")
	if !strings.Contains(r.out, "No base report to compare with: no successful pipeline on main has artifacts of job agent-tests.") ||
		len(srv.Notes("42", 12)) != 2 || !strings.HasPrefix(srv.Notes("42", 12)[1].Body, prcomment.Marker("agent-tests")) {
		t.Errorf("--job agent-tests:\n%s", r.out)
	}
}

// passingBase is summary.json with the test whose id contains name made a
// pass: the base the head's failure is new against.
func passingBase(t *testing.T, summary, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, tt := range doc["tests"].([]any) {
		m := tt.(map[string]any)
		if id, _ := m["id"].(string); strings.Contains(id, name) {
			m["status"], found = "passed", true
		}
	}
	if !found {
		t.Fatalf("no test %s in %s", name, summary)
	}
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestPublishGitLabUsage: help, an operand, and a report directory that is
// not there.
func TestPublishGitLabUsage(t *testing.T) {
	tests := []struct {
		args   []string
		code   int
		out    string
		errOut string
	}{
		{[]string{"help", "publish", "gitlab"}, ExitPass, "Usage: ananke publish gitlab [flags]\n\nCreate or update the merge request note of a GitLab CI job", ""},
		{[]string{"publish"}, ExitInvalid, "", "Usage: ananke publish gitlab [--report-dir DIR] [--job NAME]"},
		{[]string{"publish", "gitlab", "ananke-report"}, ExitInvalid, "", "ananke publish gitlab: publish gitlab takes no operands; name the report directory with --report-dir\n"},
		{[]string{"publish", "gitlab", "--report-dir", "nowhere"}, ExitInvalid, "", "ananke publish gitlab: read report nowhere:"},
	}
	for _, tc := range tests {
		r := run(t, t.TempDir(), nil, tc.args...)
		if r.code != tc.code || !strings.Contains(r.out, tc.out) || !strings.Contains(r.errOut, tc.errOut) {
			t.Errorf("%q: exit %d\n%s%s", tc.args, r.code, r.out, r.errOut)
		}
	}
}
