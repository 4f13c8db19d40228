package gitlab_test

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ananke/action/internal/gitlab"
	"github.com/ananke/action/internal/gitlab/gitlabtest"
)

const (
	project = "42"
	mr      = 12
	marker  = "<!-- ananke:report:ananke -->"
)

// sleeps records the waits between retries instead of waiting.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(_ context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.d = append(s.d, d)
	return nil
}

func (s *sleeps) got() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.d)
}

// fixedNow is the client's clock in these tests.
var fixedNow = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func newClient(t *testing.T, srv *gitlabtest.Server) (*gitlab.Client, *sleeps) {
	t.Helper()
	sl := &sleeps{}
	c, err := gitlab.New(srv.APIURL(), project, srv.Token(), gitlab.Options{HTTP: srv.Client(), Sleep: sl.sleep, Now: func() time.Time { return fixedNow }})
	if err != nil {
		t.Fatal(err)
	}
	return c, sl
}

// TestUpsertTwice: the first upsert creates the note, the second edits
// it: one note, with the second body.
func TestUpsertTwice(t *testing.T) {
	srv := gitlabtest.New(t)
	srv.AddNote(project, mr, "LGTM", false)
	c, _ := newClient(t, srv)
	id1, created, err := c.UpsertNote(t.Context(), mr, marker, marker+"\nfirst")
	if err != nil || !created {
		t.Fatalf("first upsert = %d, %v, %v", id1, created, err)
	}
	id2, created, err := c.UpsertNote(t.Context(), mr, marker, marker+"\nsecond")
	if err != nil || created || id2 != id1 {
		t.Fatalf("second upsert = %d, %v, %v; want note %d edited", id2, created, err, id1)
	}
	notes := srv.Notes(project, mr)
	if len(notes) != 2 || notes[1].Body != marker+"\nsecond" || notes[1].Edits != 1 || notes[0].Body != "LGTM" {
		t.Errorf("notes = %+v", notes)
	}
	for _, r := range srv.Requests() {
		if r.Header.Get("PRIVATE-TOKEN") != srv.Token() {
			t.Errorf("%s %s without the token", r.Method, r.Path)
		}
		if r.Operation == gitlabtest.OpListNotes && (r.Query.Get("per_page") != "100" || r.Query.Get("sort") != "asc") {
			t.Errorf("list query = %v; want 100 a page, oldest first", r.Query)
		}
	}
	if _, _, err := c.UpsertNote(t.Context(), mr, marker, "no marker"); err == nil {
		t.Error("a body without its marker was accepted")
	}
}

// TestFindNotePages: the marker's note is found wherever it is — on the
// second page, by x-next-page or, without it, by the Link header — and a
// system note quoting the marker is not it.
func TestFindNotePages(t *testing.T) {
	for _, linkOnly := range []bool{false, true} {
		srv := gitlabtest.New(t)
		if linkOnly {
			srv.OmitNextPageHeader()
		}
		srv.AddNote(project, mr, "changed the description "+marker, true)
		for range 130 {
			srv.AddNote(project, mr, "a review comment", false)
		}
		want := srv.AddNote(project, mr, marker+"\nold report", false)
		srv.AddNote(project, mr, "thanks", false)
		c, _ := newClient(t, srv)
		id, err := c.FindNote(t.Context(), mr, marker)
		if err != nil || id != want {
			t.Errorf("link only %v: FindNote = %d, %v; want %d", linkOnly, id, err, want)
		}
		if n := srv.Count(gitlabtest.OpListNotes); n != 2 {
			t.Errorf("link only %v: %d list requests; want 2 pages", linkOnly, n)
		}
		id, created, err := c.UpsertNote(t.Context(), mr, marker, marker+"\nnew report")
		if err != nil || created || id != want {
			t.Errorf("link only %v: upsert = %d %v %v", linkOnly, id, created, err)
		}
	}
}

// TestRateLimited: a 429 is waited out as Retry-After says — seconds, or
// a date read against the client's clock — and the request sent again.
func TestRateLimited(t *testing.T) {
	tests := []struct {
		retryAfter string
		want       time.Duration
	}{
		{"7", 7 * time.Second},
		{fixedNow.Add(90 * time.Second).Format(http.TimeFormat), 60 * time.Second}, // capped at a minute
		{"", 5 * time.Second},
	}
	for _, tc := range tests {
		srv := gitlabtest.New(t)
		srv.RateLimit(gitlabtest.OpCreateNote, 1, tc.retryAfter)
		c, sl := newClient(t, srv)
		_, created, err := c.UpsertNote(t.Context(), mr, marker, marker+"\nbody")
		if err != nil || !created {
			t.Fatalf("Retry-After %q: upsert = %v, %v", tc.retryAfter, created, err)
		}
		if got := sl.got(); !slices.Equal(got, []time.Duration{tc.want}) {
			t.Errorf("Retry-After %q: waits %v, want [%v]", tc.retryAfter, got, tc.want)
		}
		if n := len(srv.Notes(project, mr)); n != 1 || srv.Count(gitlabtest.OpCreateNote) != 2 {
			t.Errorf("Retry-After %q: %d notes, %d creates", tc.retryAfter, n, srv.Count(gitlabtest.OpCreateNote))
		}
	}
}

// TestServerErrors: a read or an edit that meets 5xx is tried four times
// with doubling waits, then fails with GitLab's status.
func TestServerErrors(t *testing.T) {
	srv := gitlabtest.New(t)
	id := srv.AddNote(project, mr, marker+"\nold", false)
	srv.Fail(gitlabtest.OpUpdateNote, 10, http.StatusServiceUnavailable)
	c, sl := newClient(t, srv)
	_, _, err := c.UpsertNote(t.Context(), mr, marker, marker+"\nnew")
	var e *gitlab.APIError
	if !errors.As(err, &e) || e.Status != 503 || e.Attempts != 4 || !strings.Contains(err.Error(), "503 Service Unavailable (after 4 attempts)") {
		t.Fatalf("error = %v", err)
	}
	if got, want := sl.got(), []time.Duration{2 * time.Second, 4 * time.Second, 8 * time.Second}; !slices.Equal(got, want) {
		t.Errorf("waits %v, want %v", got, want)
	}
	if gitlab.Forbidden(err) || srv.Notes(project, mr)[0].Body != marker+"\nold" || srv.Notes(project, mr)[0].ID != id {
		t.Errorf("Forbidden = %v; notes %+v", gitlab.Forbidden(err), srv.Notes(project, mr))
	}

	srv = gitlabtest.New(t)
	srv.Fail(gitlabtest.OpListNotes, 2, http.StatusBadGateway)
	c, sl = newClient(t, srv)
	if _, created, err := c.UpsertNote(t.Context(), mr, marker, marker+"\nnew"); err != nil || !created {
		t.Errorf("after two 502s on the list: %v %v", created, err)
	}
	if got := sl.got(); !slices.Equal(got, []time.Duration{2 * time.Second, 4 * time.Second}) {
		t.Errorf("waits %v", got)
	}

	// A 503 that says when to come back is waited out as it says.
	srv = gitlabtest.New(t)
	srv.FailRetryAfter(gitlabtest.OpListNotes, 1, http.StatusServiceUnavailable, "11")
	c, sl = newClient(t, srv)
	if _, err := c.FindNote(t.Context(), mr, marker); err != nil || !slices.Equal(sl.got(), []time.Duration{11 * time.Second}) {
		t.Errorf("503 with Retry-After: %v, waits %v", err, sl.got())
	}
}

// TestCreateServerError: a POST that met a 5xx is not sent again blindly:
// the note is looked for first, and edited when GitLab made it after all.
func TestCreateServerError(t *testing.T) {
	t.Run("made all the same", func(t *testing.T) {
		srv := gitlabtest.New(t)
		srv.FailActed(gitlabtest.OpCreateNote, 1, http.StatusGatewayTimeout)
		c, _ := newClient(t, srv)
		id, created, err := c.UpsertNote(t.Context(), mr, marker, marker+"\nbody")
		notes := srv.Notes(project, mr)
		if err != nil || created || len(notes) != 1 || id != notes[0].ID || notes[0].Edits != 1 {
			t.Errorf("upsert = %d %v %v; notes %+v; want the one note, edited", id, created, err, notes)
		}
		if srv.Count(gitlabtest.OpCreateNote) != 1 {
			t.Errorf("%d creates; want 1", srv.Count(gitlabtest.OpCreateNote))
		}
	})
	t.Run("not made", func(t *testing.T) {
		srv := gitlabtest.New(t)
		srv.Fail(gitlabtest.OpCreateNote, 1, http.StatusInternalServerError)
		c, sl := newClient(t, srv)
		_, created, err := c.UpsertNote(t.Context(), mr, marker, marker+"\nbody")
		if err != nil || !created || len(srv.Notes(project, mr)) != 1 || !slices.Equal(sl.got(), []time.Duration{2 * time.Second}) {
			t.Errorf("upsert = %v %v; %d notes; waits %v", created, err, len(srv.Notes(project, mr)), sl.got())
		}
	})
	t.Run("never", func(t *testing.T) {
		srv := gitlabtest.New(t)
		srv.Fail(gitlabtest.OpCreateNote, 10, http.StatusBadGateway)
		c, _ := newClient(t, srv)
		_, _, err := c.UpsertNote(t.Context(), mr, marker, marker+"\nbody")
		if err == nil || srv.Count(gitlabtest.OpCreateNote) != 4 || srv.Count(gitlabtest.OpListNotes) != 4 {
			t.Errorf("err %v; %d creates, %d lists; want 4 of each", err, srv.Count(gitlabtest.OpCreateNote), srv.Count(gitlabtest.OpListNotes))
		}
	})
}

// TestRefused: a token without the api scope, or revoked, is Forbidden,
// and says which scope was missing; it is not retried.
func TestRefused(t *testing.T) {
	srv := gitlabtest.New(t)
	srv.ReadOnly()
	c, sl := newClient(t, srv)
	_, _, err := c.UpsertNote(t.Context(), mr, marker, marker+"\nbody")
	if !gitlab.Forbidden(err) || gitlab.NeededScope(err) != "api" || !strings.Contains(err.Error(), "403 Forbidden") || len(sl.got()) != 0 {
		t.Errorf("read-only: %v (scope %q), waits %v", err, gitlab.NeededScope(err), sl.got())
	}
	srv.Revoke()
	_, _, err = c.UpsertNote(t.Context(), mr, marker, marker+"\nbody")
	if !gitlab.Forbidden(err) || !strings.Contains(err.Error(), "401 Unauthorized") {
		t.Errorf("revoked: %v", err)
	}
	if strings.Contains(err.Error(), srv.Token()) {
		t.Error("the error quotes the token")
	}
}

// TestClip: a body over GitLab's limit is cut to it, on a character,
// saying so; the fake refuses anything longer.
func TestClip(t *testing.T) {
	srv := gitlabtest.New(t)
	c, _ := newClient(t, srv)
	body := marker + "\n" + strings.Repeat("ü", gitlab.MaxNoteChars)
	if _, created, err := c.UpsertNote(t.Context(), mr, marker, body); err != nil || !created {
		t.Fatalf("upsert = %v %v", created, err)
	}
	got := []rune(srv.Notes(project, mr)[0].Body)
	if len(got) != gitlab.MaxNoteChars || !strings.HasSuffix(string(got), "the full report is in the job's artifacts)") || !strings.HasPrefix(string(got), marker) {
		t.Errorf("note of %d characters, ending %q", len(got), string(got[len(got)-40:]))
	}
}

// TestBaseReport: summary.json is read from the ref's artifacts archive,
// served directly or through object storage (which never sees the token);
// a missing archive or file is ErrNoBase, saying which.
func TestBaseReport(t *testing.T) {
	zipped := gitlabtest.Zip(t, map[string]string{"ananke-report/summary.json": `{"schema":"x"}`, "ananke-report/index.html": "<html>"})
	q := gitlab.BaseQuery{Ref: "release/1.2", Job: "ananke", Summary: "ananke-report/summary.json"}
	for _, redirect := range []bool{false, true} {
		srv := gitlabtest.New(t)
		if redirect {
			srv.RedirectArtifacts()
		}
		srv.SetArtifacts(project, "release/1.2", "ananke", zipped)
		c, _ := newClient(t, srv)
		b, err := c.BaseReport(t.Context(), q)
		if err != nil || string(b.Summary) != `{"schema":"x"}` {
			t.Fatalf("redirect %v: BaseReport = %+v, %v", redirect, b, err)
		}
		reqs := srv.Requests()
		if len(reqs) != 1 || reqs[0].Path != "/api/v4/projects/42/jobs/artifacts/release%2F1.2/download" ||
			reqs[0].Query.Get("job") != "ananke" || reqs[0].Query.Get("search_recent_successful_pipelines") != "true" {
			t.Errorf("requests = %+v", reqs)
		}
		if redirect && srv.StorageRequests() != 1 {
			t.Errorf("storage requests = %d", srv.StorageRequests())
		}
	}

	srv := gitlabtest.New(t)
	c, _ := newClient(t, srv)
	_, err := c.BaseReport(t.Context(), q)
	if !errors.Is(err, gitlab.ErrNoBase) || !strings.Contains(err.Error(), "no successful pipeline on release/1.2 has artifacts of job ananke") {
		t.Errorf("no archive: %v", err)
	}
	srv.SetArtifacts(project, "release/1.2", "ananke", gitlabtest.Zip(t, map[string]string{"junit.xml": "<x/>"}))
	_, err = c.BaseReport(t.Context(), q)
	if !errors.Is(err, gitlab.ErrNoBase) || !strings.Contains(err.Error(), "have no ananke-report/summary.json") {
		t.Errorf("no summary: %v", err)
	}
	srv.SetArtifacts(project, "release/1.2", "ananke", zipped)
	_, err = c.BaseReport(t.Context(), gitlab.BaseQuery{Ref: q.Ref, Job: q.Job, Summary: q.Summary, MaxBytes: 100})
	if err == nil || errors.Is(err, gitlab.ErrNoBase) || !strings.Contains(err.Error(), "larger than the 100-byte limit") {
		t.Errorf("over the limit: %v", err)
	}
	srv.Fail(gitlabtest.OpDownloadArtifacts, 1, http.StatusForbidden)
	if _, err = c.BaseReport(t.Context(), q); !gitlab.Forbidden(err) {
		t.Errorf("403: %v", err)
	}
}
