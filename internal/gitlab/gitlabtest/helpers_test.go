package gitlabtest_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/ananke/action/internal/gitlab/gitlabtest"
)

// recorder is a testing.TB that keeps the fake's reports instead of
// failing the test, so that tests can assert the fake catches bad requests.
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

func (r *recorder) reports() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.errs...)
}

// newRecorded starts a fake whose reports go to the returned recorder.
func newRecorded(t *testing.T) (*gitlabtest.Server, *recorder) {
	t.Helper()
	rec := &recorder{TB: t}
	return gitlabtest.New(rec), rec
}

// answer is a raw response, read whole.
type answer struct {
	status int
	header http.Header
	body   string
}

// send makes a raw request to the fake's API (path after /api/v4) with the
// fake's token unless tok is given.
func send(t *testing.T, srv *gitlabtest.Server, method, path, body string, tok ...string) answer {
	t.Helper()
	req, err := http.NewRequest(method, srv.APIURL()+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	token := srv.Token()
	if len(tok) > 0 {
		token = tok[0]
	}
	if token != "" {
		req.Header.Set("PRIVATE-TOKEN", token)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	io.Copy(&b, resp.Body)
	return answer{resp.StatusCode, resp.Header, b.String()}
}
