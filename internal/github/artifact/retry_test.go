package artifact_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ananke/action/internal/github/artifact"
	"github.com/ananke/action/internal/github/artifact/artifacttest"
)

// TestUploadRetries: transient failures at each step are retried, waiting
// as the policy or Retry-After says, and the upload succeeds.
func TestUploadRetries(t *testing.T) {
	tests := []struct {
		name      string
		fail      func(s *artifacttest.Server)
		endpoint  string
		wantCalls int
		wantWaits []time.Duration
	}{
		{
			name:      "create 503 twice",
			fail:      func(s *artifacttest.Server) { s.Fail("CreateArtifact", 2, 503, 0) },
			endpoint:  "CreateArtifact",
			wantCalls: 3,
			wantWaits: []time.Duration{3 * time.Second, 4500 * time.Millisecond},
		},
		{
			name:      "block 500 once",
			fail:      func(s *artifacttest.Server) { s.Fail("comp=block", 1, 500, 0) },
			endpoint:  "comp=block",
			wantCalls: 2,
			wantWaits: []time.Duration{3 * time.Second},
		},
		{
			name:      "block network error once",
			fail:      func(s *artifacttest.Server) { s.Fail("comp=block", 1, 0, 0) },
			endpoint:  "comp=block",
			wantCalls: 2,
			wantWaits: []time.Duration{3 * time.Second},
		},
		{
			name:      "block list 502 once",
			fail:      func(s *artifacttest.Server) { s.Fail("comp=blocklist", 1, 502, 0) },
			endpoint:  "comp=blocklist",
			wantCalls: 2,
			wantWaits: []time.Duration{3 * time.Second},
		},
		{
			name:      "finalize 429 with Retry-After 7s",
			fail:      func(s *artifacttest.Server) { s.Fail("FinalizeArtifact", 1, 429, 7*time.Second) },
			endpoint:  "FinalizeArtifact",
			wantCalls: 2,
			wantWaits: []time.Duration{7 * time.Second},
		},
		{
			name: "create 504 then 503 with Retry-After",
			fail: func(s *artifacttest.Server) {
				s.Fail("CreateArtifact", 1, 504, 0)
				s.Fail("CreateArtifact", 1, 503, 20*time.Second)
			},
			endpoint:  "CreateArtifact",
			wantCalls: 3,
			wantWaits: []time.Duration{3 * time.Second, 20 * time.Second},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			tc.fail(f.srv)
			up, err := artifact.Upload(t.Context(), f.cfg, "report", writeTree(t, map[string]string{"a.txt": "a"}))
			if err != nil {
				t.Fatalf("Upload: %v", err)
			}
			if arts := f.srv.Artifacts(); len(arts) != 1 || arts[0].ID != up.ID {
				t.Errorf("service holds %+v, want one artifact with ID %d", arts, up.ID)
			}
			if n := f.srv.Count(tc.endpoint); n != tc.wantCalls {
				t.Errorf("%s called %d times, want %d", tc.endpoint, n, tc.wantCalls)
			}
			if !slices.Equal(f.sleeps, tc.wantWaits) {
				t.Errorf("waits = %v, want %v", f.sleeps, tc.wantWaits)
			}
		})
	}
}

// TestUploadFails: persistent or permanent failures end the upload with an
// error naming the step, after five attempts or at once, and without the
// signed URL's query string.
func TestUploadFails(t *testing.T) {
	backoff := []time.Duration{3 * time.Second, 4500 * time.Millisecond, 6750 * time.Millisecond, 10125 * time.Millisecond}
	steps := []struct{ endpoint, step string }{
		{"CreateArtifact", "create artifact"},
		{"comp=block", "put block 1 of 1"},
		{"comp=blocklist", "put block list"},
		{"FinalizeArtifact", "finalize artifact"},
	}
	failures := []struct {
		name      string
		n, status int
		wantCalls int
		wantWaits []time.Duration
		wantError string
	}{
		{name: "503 five times", n: 5, status: 503, wantCalls: 5, wantWaits: backoff, wantError: "giving up after 5 attempts"},
		{name: "network error five times", n: 5, status: 0, wantCalls: 5, wantWaits: backoff, wantError: "giving up after 5 attempts"},
		{name: "400", n: 1, status: 400, wantCalls: 1, wantError: "HTTP 400"},
		{name: "403", n: 1, status: 403, wantCalls: 1, wantError: "HTTP 403"},
	}
	for _, st := range steps {
		for _, fl := range failures {
			t.Run(st.endpoint+"/"+fl.name, func(t *testing.T) {
				f := newFixture(t)
				f.srv.Fail(st.endpoint, fl.n, fl.status, 0)
				_, err := artifact.Upload(t.Context(), f.cfg, "report", writeTree(t, map[string]string{"a.txt": "a"}))
				if err == nil {
					t.Fatal("Upload succeeded, want an error")
				}
				msg := err.Error()
				for _, want := range []string{`upload artifact "report": ` + st.step + ": ", fl.wantError} {
					if !strings.Contains(msg, want) {
						t.Errorf("error %q does not contain %q", msg, want)
					}
				}
				assertNoSecret(t, f, msg)
				// Network errors may be retried once more by net/http itself.
				if n := f.srv.Count(st.endpoint); n != fl.wantCalls && (fl.status != 0 || n < fl.wantCalls) {
					t.Errorf("%s called %d times, want %d", st.endpoint, n, fl.wantCalls)
				}
				if !slices.Equal(f.sleeps, fl.wantWaits) {
					t.Errorf("waits = %v, want %v", f.sleeps, fl.wantWaits)
				}
				if n := len(f.srv.Artifacts()); n != 0 {
					t.Errorf("%d artifacts finalized, want 0", n)
				}
			})
		}
	}
}

// assertNoSecret checks msg for the signature and query string of every
// signed URL the fixture heard of.
func assertNoSecret(t *testing.T, f *fixture, msg string) {
	t.Helper()
	if strings.Contains(msg, "sig=") {
		t.Errorf("error holds a signature parameter: %s", msg)
	}
	for _, s := range f.secrets {
		if strings.Contains(msg, s) {
			t.Errorf("error holds the secret %q: %s", s, msg)
		}
	}
}

func TestUploadTwirpErrors(t *testing.T) {
	tests := []struct {
		name        string
		status      int
		code, msg   string
		wantCalls   int
		wantInError []string
	}{
		{
			name: "quota as 403", status: 403, code: "resource_exhausted",
			msg:       "insufficient usage to create artifact",
			wantCalls: 1,
			wantInError: []string{
				"create artifact: HTTP 403 resource_exhausted: insufficient usage to create artifact",
				"artifact storage quota is used up",
			},
		},
		{
			// The quota error is never retried, whatever its status.
			name: "quota as 429", status: 429, code: "resource_exhausted",
			msg:         "Insufficient usage: storage limit reached",
			wantCalls:   1,
			wantInError: []string{"artifact storage quota is used up"},
		},
		{
			name: "other twirp error", status: 400, code: "invalid_argument", msg: "expires_at is in the past",
			wantCalls:   1,
			wantInError: []string{"create artifact: HTTP 400 invalid_argument: expires_at is in the past"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.srv.FailTwirp("CreateArtifact", 5, tc.status, tc.code, tc.msg)
			_, err := artifact.Upload(t.Context(), f.cfg, "report", writeTree(t, map[string]string{"a.txt": "a"}))
			if err == nil {
				t.Fatal("Upload succeeded, want an error")
			}
			for _, want := range tc.wantInError {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not contain %q", err, want)
				}
			}
			if tc.status == 400 && strings.Contains(err.Error(), "quota") {
				t.Errorf("error %q has the quota hint for another error", err)
			}
			if n := f.srv.Count("CreateArtifact"); n != tc.wantCalls {
				t.Errorf("CreateArtifact called %d times, want %d", n, tc.wantCalls)
			}
		})
	}
}

// TestUploadStopsWhenWaitFails: a cancelled wait ends the upload with the
// context's error.
func TestUploadStopsWhenWaitFails(t *testing.T) {
	f := newFixture(t)
	f.cfg.Sleep = func(context.Context, time.Duration) error { return context.Canceled }
	f.srv.Fail("CreateArtifact", 1, 503, 0)
	_, err := artifact.Upload(t.Context(), f.cfg, "report", writeTree(t, map[string]string{"a.txt": "a"}))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Upload = %v, want context.Canceled", err)
	}
	if n := f.srv.Count("CreateArtifact"); n != 1 {
		t.Errorf("CreateArtifact called %d times, want 1", n)
	}
}
