package gitlab

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ananke/action/internal/inprocess"
)

func TestContextFrom(t *testing.T) {
	env := map[string]string{
		"CI_API_V4_URL": "https://gitlab.example.com/api/v4/", "CI_PROJECT_ID": "42", "CI_PROJECT_URL": "https://gitlab.example.com/acme/shop",
		"CI_COMMIT_SHA": "abc123", "CI_MERGE_REQUEST_IID": "12", "CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "main", "CI_JOB_NAME": "ananke",
	}
	getenv := func(k string) string { return env[k] }
	c, err := ContextFrom(getenv)
	if err != nil || c.APIURL != "https://gitlab.example.com/api/v4" || c.MR != 12 || c.TargetBranch != "main" ||
		c.BlobURL() != "https://gitlab.example.com/acme/shop/-/blob/abc123/" {
		t.Errorf("ContextFrom = %+v, %v", c, err)
	}
	tests := []struct {
		set     map[string]string
		mr      int
		wantErr string
	}{
		{map[string]string{"CI_MERGE_REQUEST_IID": ""}, 0, ""},
		{map[string]string{"CI_MERGE_REQUEST_IID": "x"}, 0, `CI_MERGE_REQUEST_IID "x" is not a merge request number`},
		{map[string]string{"CI_API_V4_URL": "", "CI_PROJECT_ID": ""}, 0, "not a GitLab CI job: CI_API_V4_URL and CI_PROJECT_ID unset"},
	}
	for _, tc := range tests {
		c, err := ContextFrom(func(k string) string {
			if v, ok := tc.set[k]; ok {
				return v
			}
			return env[k]
		})
		switch {
		case tc.wantErr != "":
			if err == nil || err.Error() != tc.wantErr {
				t.Errorf("%v: error %v, want %q", tc.set, err, tc.wantErr)
			}
		case err != nil || c.MR != tc.mr:
			t.Errorf("%v: %+v, %v", tc.set, c, err)
		}
	}
}

func TestNextPage(t *testing.T) {
	tests := []struct {
		h    http.Header
		want int
	}{
		{http.Header{"X-Next-Page": {"3"}}, 3},
		{http.Header{"X-Next-Page": {""}, "Link": {`<https://g/api/v4/x?page=1&per_page=100>; rel="first", <https://g/api/v4/x?page=1&per_page=100>; rel="last"`}}, 0},
		{http.Header{"Link": {`<https://g/api/v4/x?page=1>; rel="prev", <https://g/api/v4/x?id=4&page=3&per_page=100>; rel="next", <https://g/x?page=9>; rel="last"`}}, 3},
		{http.Header{"Link": {`<https://g/api/v4/x?page=5>; title="p"; rel=next`}}, 5},
		{http.Header{"Link": {`<https://g/api/v4/x?page=6>; rel="next last"`}}, 6},
		{http.Header{"Link": {`<https://g/api/v4/x?page=7>; rel="nextish"`}}, 0},
		{http.Header{}, 0},
	}
	for _, tc := range tests {
		if got := nextPage(tc.h); got != tc.want {
			t.Errorf("nextPage(%v) = %d, want %d", tc.h, got, tc.want)
		}
	}
}

func TestClipCharacters(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		note string
		want string
	}{
		{"héllo", 5, "…", "héllo"},
		{"héllo wörld", 6, "…", "héllo…"},
		{"日本語テキスト", 4, "!", "日本語!"},
		{"abcdef", 2, "long note", "ab"},
	}
	for _, tc := range tests {
		if got := clip(tc.s, tc.n, tc.note); got != tc.want {
			t.Errorf("clip(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}

func TestRateLimitWait(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		h    http.Header
		want time.Duration
	}{
		{http.Header{"Retry-After": {"12"}}, 12 * time.Second},
		{http.Header{"Retry-After": {now.Add(30 * time.Second).Format(http.TimeFormat)}}, 30 * time.Second},
		{http.Header{"Retry-After": {now.Add(-time.Hour).Format(http.TimeFormat)}}, 0},
		{http.Header{"Ratelimit-Reset": {"1772366420"}}, 20 * time.Second}, // now + 20 s
		{http.Header{"Retry-After": {"soon"}}, defaultWait},
		{http.Header{}, defaultWait},
	}
	for _, tc := range tests {
		if got := rateLimitWait(tc.h, now); got != tc.want {
			t.Errorf("rateLimitWait(%v) = %v, want %v", tc.h, got, tc.want)
		}
	}
}

// TestTokenMasked: a server quoting the token in an error gets it masked.
func TestTokenMasked(t *testing.T) {
	const tok = "glpat-s3cr3t-token"
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadRequest)
		w.Write([]byte(`{"message":"token ` + r.Header.Get(tokenHeader) + ` is not valid here"}`))
	})
	c, err := New("https://gitlab.example.com/api/v4", "acme/shop", tok, Options{HTTP: inprocess.Client(h), Now: time.Now})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.FindNote(t.Context(), 1, "m")
	if err == nil || strings.Contains(err.Error(), tok) || !strings.Contains(err.Error(), "token [masked] is not valid here") {
		t.Errorf("error = %v", err)
	}
	if !strings.Contains(err.Error(), "projects/acme%2Fshop/merge_requests/1/notes") {
		t.Errorf("error %v: the project path is not escaped", err)
	}
}

// TestAttemptTimeout: an attempt that gets no answer ends after exactly
// attemptTimeout, with the deadline as its error; a cancelled wait between
// retries ends the request.
func TestAttemptTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
		c, err := New("https://gitlab.example.com/api/v4", "42", "glpat-test-token", Options{HTTP: inprocess.Client(h), Now: time.Now})
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		_, err = c.FindNote(t.Context(), 1, "m")
		if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) != attemptTimeout {
			t.Errorf("error %v after %v; want the deadline after %v", err, time.Since(start), attemptTimeout)
		}
	})
	synctest.Test(t, func(t *testing.T) {
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "30")
			w.WriteHeader(http.StatusTooManyRequests)
		})
		c, err := New("https://gitlab.example.com/api/v4", "42", "glpat-test-token", Options{HTTP: inprocess.Client(h), Now: time.Now})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		defer cancel()
		start := time.Now()
		_, err = c.FindNote(ctx, 1, "m")
		if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) != 10*time.Second || !strings.Contains(err.Error(), "waiting to retry after 429 Too Many Requests") {
			t.Errorf("error %v after %v", err, time.Since(start))
		}
	})
}
