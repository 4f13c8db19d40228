package gitlabtest_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/ananke/action/internal/gitlab/gitlabtest"
)

// TestRejects: requests GitLab would refuse fail the test, with the
// operation named, and are answered as GitLab would.
func TestRejects(t *testing.T) {
	tests := []struct {
		name, method, path, body string
		status                   int
		report                   string
	}{
		{"no body field", "POST", "/projects/42/merge_requests/12/notes", `{"note":"x"}`, 400, `property "body" is missing`},
		{"body not a string", "POST", "/projects/42/merge_requests/12/notes", `{"body":7}`, 400, "postApiV4ProjectsIdMergeRequestsNoteableIdNotes"},
		{"edit without body", "PUT", "/projects/42/merge_requests/12/notes/1", `{}`, 400, `can't be blank`},
		{"too long", "POST", "/projects/42/merge_requests/12/notes", `{"body":"` + strings.Repeat("é", 1_000_001) + `"}`, 400, "is too long (maximum is 1000000 characters)"},
		{"bad sort", "GET", "/projects/42/merge_requests/12/notes?sort=up", "", 400, `parameter "sort"`},
		{"iid not a number", "GET", "/projects/42/merge_requests/abc/notes", "", 400, `parameter "noteable_id"`},
		{"no job", "GET", "/projects/42/jobs/artifacts/main/download", "", 400, `parameter "job"`},
		{"not served: raw artifact", "GET", "/projects/42/jobs/artifacts/main/raw/ananke-report/summary.json?job=ananke", "", 404, "not an operation"},
		{"not served: delete note", "DELETE", "/projects/42/merge_requests/12/notes/1", "", 404, "not an operation"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv, rec := newRecorded(t)
			srv.AddNote("42", 12, "hello", false)
			a := send(t, srv, tc.method, tc.path, tc.body)
			if a.status != tc.status {
				t.Errorf("status %d, want %d (%s)", a.status, tc.status, a.body)
			}
			reports := rec.reports()
			if len(reports) != 1 || !strings.Contains(reports[0], tc.report) {
				t.Errorf("reports = %q; want one with %q", reports, tc.report)
			}
		})
	}
}

// TestNotesPagination: the fake pages as GitLab does, newest first unless
// asked, leaving out system notes on request, with GitLab's headers.
func TestNotesPagination(t *testing.T) {
	srv := gitlabtest.New(t)
	for i := range 25 {
		srv.AddNote("42", 12, "note "+itoa(i+1), i == 0)
	}
	a := send(t, srv, "GET", "/projects/42/merge_requests/12/notes", "")
	var notes []struct {
		ID     int64  `json:"id"`
		Body   string `json:"body"`
		System bool   `json:"system"`
	}
	json.Unmarshal([]byte(a.body), &notes)
	if a.status != 200 || len(notes) != 20 || notes[0].Body != "note 25" || a.header.Get("X-Next-Page") != "2" || a.header.Get("X-Total") != "25" {
		t.Fatalf("default page: %d, %d notes, first %+v, headers %v", a.status, len(notes), notes, a.header)
	}
	a = send(t, srv, "GET", "/projects/42/merge_requests/12/notes?sort=asc&activity_filter=only_comments&per_page=10&page=3", "")
	json.Unmarshal([]byte(a.body), &notes)
	if len(notes) != 4 || notes[0].Body != "note 22" || a.header.Get("X-Next-Page") != "" || a.header.Get("X-Total-Pages") != "3" {
		t.Errorf("last page: %d notes %+v, headers %v", len(notes), notes, a.header)
	}
	if !strings.Contains(a.header.Get("Link"), `rel="prev"`) || strings.Contains(a.header.Get("Link"), `rel="next"`) {
		t.Errorf("Link = %q", a.header.Get("Link"))
	}
	srv.OmitNextPageHeader()
	a = send(t, srv, "GET", "/projects/42/merge_requests/12/notes?per_page=10", "")
	if _, ok := a.header["X-Next-Page"]; ok || !strings.Contains(a.header.Get("Link"), `page=2&per_page=10>; rel="next"`) {
		t.Errorf("without x-next-page: headers %v", a.header)
	}
}

// TestTokens: a missing, wrong or revoked token is 401; a read-only one
// may read but not write.
func TestTokens(t *testing.T) {
	srv := gitlabtest.New(t)
	if a := send(t, srv, "GET", "/projects/42/merge_requests/12/notes", "", ""); a.status != 401 {
		t.Errorf("no token: %d", a.status)
	}
	if a := send(t, srv, "GET", "/projects/42/merge_requests/12/notes", "", "glpat-wrong"); a.status != 401 {
		t.Errorf("wrong token: %d", a.status)
	}
	srv.ReadOnly()
	if a := send(t, srv, "GET", "/projects/42/merge_requests/12/notes", ""); a.status != 200 {
		t.Errorf("read-only read: %d", a.status)
	}
	a := send(t, srv, "POST", "/projects/42/merge_requests/12/notes", `{"body":"x"}`)
	if a.status != 403 || !strings.Contains(a.body, `"insufficient_scope"`) || !strings.Contains(a.body, `"scope":"api"`) {
		t.Errorf("read-only write: %d %s", a.status, a.body)
	}
	srv.Revoke()
	if a := send(t, srv, "GET", "/projects/42/merge_requests/12/notes", ""); a.status != 401 {
		t.Errorf("revoked: %d", a.status)
	}
	if n := len(srv.Notes("42", 12)); n != 0 {
		t.Errorf("%d notes after refused writes", n)
	}
}

// TestFaults: faults answer the next requests of one operation, then stop.
func TestFaults(t *testing.T) {
	srv := gitlabtest.New(t)
	srv.RateLimit(gitlabtest.OpCreateNote, 1, "7")
	srv.Fail(gitlabtest.OpCreateNote, 1, http.StatusBadGateway)
	srv.FailActed(gitlabtest.OpCreateNote, 1, http.StatusGatewayTimeout)
	for _, want := range []int{429, 502, 504, 201} {
		a := send(t, srv, "POST", "/projects/42/merge_requests/12/notes", `{"body":"x"}`)
		if a.status != want {
			t.Errorf("status %d, want %d", a.status, want)
		}
		if want == 429 && a.header.Get("Retry-After") != "7" {
			t.Errorf("429 without Retry-After: %v", a.header)
		}
	}
	// The 504 was acted on, as a GitLab behind a timing-out proxy can be.
	if n := len(srv.Notes("42", 12)); n != 2 {
		t.Errorf("%d notes; want 2 (the acted 504 and the 201)", n)
	}
	if srv.Count(gitlabtest.OpCreateNote) != 4 {
		t.Errorf("%d creates recorded", srv.Count(gitlabtest.OpCreateNote))
	}
}

// TestArtifacts: a ref's archive is served directly or through a
// redirect to storage; the fake reports storage sent the token.
func TestArtifacts(t *testing.T) {
	zipped := gitlabtest.Zip(t, map[string]string{"ananke-report/summary.json": "{}"})
	srv, rec := newRecorded(t)
	srv.SetArtifacts("42", "feature/x", "ananke", zipped)
	if a := send(t, srv, "GET", "/projects/42/jobs/artifacts/feature%2Fx/download?job=ananke", ""); a.status != 200 || a.body != string(zipped) {
		t.Errorf("download: %d, %d bytes", a.status, len(a.body))
	}
	if a := send(t, srv, "GET", "/projects/42/jobs/artifacts/main/download?job=ananke", ""); a.status != 404 {
		t.Errorf("no archive on main: %d", a.status)
	}
	srv.RedirectArtifacts()
	// srv.Client() follows the redirect, with the token set on the request
	// itself: storage must see it and say so.
	a := send(t, srv, "GET", "/projects/42/jobs/artifacts/feature%2Fx/download?job=ananke", "")
	if a.status != 403 || srv.StorageRequests() != 1 {
		t.Errorf("redirect with the token: %d, %d storage requests", a.status, srv.StorageRequests())
	}
	if r := rec.reports(); len(r) != 1 || !strings.Contains(r[0], "was sent the GitLab token") {
		t.Errorf("reports = %q", r)
	}
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}
