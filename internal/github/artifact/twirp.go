package artifact

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// twirpPath is the service's route under the results origin
// (actions/toolkit …/generated/results/api/v1/artifact.twirp-client.ts).
const twirpPath = "/twirp/github.actions.results.api.v1.ArtifactService/"

// quotaHint explains the "insufficient usage" error the toolkit turns into
// a UsageError (packages/artifact/src/internal/shared/errors.ts).
const quotaHint = "artifact storage quota is used up; usage is recalculated every 6-12 hours"

// twirpError is an error answer of the service: the status and the twirp
// body {"code": …, "msg": …}.
type twirpError struct {
	status    int
	code, msg string
}

func (e *twirpError) Error() string {
	s := fmt.Sprintf("HTTP %d", e.status)
	if e.code != "" {
		s += " " + e.code
	}
	if e.msg != "" {
		s += ": " + e.msg
	}
	if e.quota() {
		s += " (" + quotaHint + ")"
	}
	return s
}

// quota reports the storage-quota error, which no retry can fix.
func (e *twirpError) quota() bool {
	return strings.Contains(strings.ToLower(e.msg), "insufficient usage")
}

// judgeTwirp reads a twirp error body; a body that is not one (a proxy's
// HTML page, say) is quoted, shortened.
func judgeTwirp(r response) (bool, error) {
	e := &twirpError{status: r.status}
	var body struct {
		Code string `json:"code"`
		Msg  string `json:"msg"`
	}
	if json.Unmarshal(r.body, &body) == nil && (body.Code != "" || body.Msg != "") {
		e.code, e.msg = body.Code, body.Msg
	} else {
		e.msg = shorten(string(r.body))
	}
	return retryableStatus(r.status) && !e.quota(), e
}

// twirp calls method with the proto-JSON request in and decodes the answer
// into out.
func (c *client) twirp(ctx context.Context, method string, in, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	endpoint := c.origin + twirpPath + method
	build := func(ctx context.Context) (*http.Request, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Authorization", "Bearer "+c.token)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json")
		return req, nil
	}
	r, err := c.send(ctx, build, judgeTwirp)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(r.body, out); err != nil {
		return fmt.Errorf("decode response: %w", err)
	}
	return nil
}

// shorten trims text quoted in an error to a readable length.
func shorten(s string) string {
	s = strings.TrimSpace(s)
	const limit = 200
	if len(s) > limit {
		s = s[:limit] + "…"
	}
	return s
}
