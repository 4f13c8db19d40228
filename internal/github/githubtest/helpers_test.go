package githubtest_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-github/v66/github"

	"github.com/ananke/action/internal/github/githubtest"
)

const owner, repo = "ananke", "demo"

// recorder is a testing.TB that keeps the fake's reports instead of failing
// the test, so that tests can assert the fake catches bad requests.
type recorder struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func (r *recorder) Error(args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Sprint(args...))
}

func (r *recorder) reports() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.errs...)
}

// newRecorded starts a fake whose reports go to the returned recorder.
func newRecorded(t *testing.T) (*githubtest.Server, *recorder) {
	t.Helper()
	rec := &recorder{TB: t}
	return githubtest.New(rec), rec
}

// wantReport fails unless the fake reported exactly one problem containing
// every one of subs.
func wantReport(t *testing.T, rec *recorder, subs ...string) {
	t.Helper()
	reports := rec.reports()
	if len(reports) != 1 {
		t.Fatalf("fake reported %d problems, want 1:\n%s", len(reports), strings.Join(reports, "\n"))
	}
	t.Logf("fake reported: %s", reports[0])
	for _, sub := range subs {
		if !strings.Contains(reports[0], sub) {
			t.Errorf("report %q does not contain %q", reports[0], sub)
		}
	}
}

// wantStatus fails unless err is a *github.ErrorResponse with status code.
func wantStatus(t *testing.T, err error, code int) *github.ErrorResponse {
	t.Helper()
	var er *github.ErrorResponse
	if !errors.As(err, &er) {
		t.Fatalf("error = %T %v, want *github.ErrorResponse", err, err)
	}
	if er.Response == nil || er.Response.StatusCode != code {
		t.Fatalf("status = %v, want %d (%v)", er.Response, code, err)
	}
	return er
}

// rawDo sends a raw JSON request through client, bypassing go-github's
// option structs, for bodies go-github cannot produce.
func rawDo(t *testing.T, client *github.Client, method, path string, body any) (*github.Response, error) {
	t.Helper()
	req, err := client.NewRequest(method, path, body)
	if err != nil {
		t.Fatalf("new request: %v", err)
	}
	return client.Do(context.Background(), req, nil)
}
