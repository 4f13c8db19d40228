package artifact

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// resultsScope prefixes the scp entry that names the backend ids:
// "Actions.Results:<workflowRunBackendId>:<workflowJobRunBackendId>"
// (actions/toolkit packages/artifact/src/internal/shared/util.ts).
const resultsScope = "Actions.Results"

// backendIDs reads the run and job backend ids from the runtime token's JWT
// payload. The token is not verified: the service does that; we only need
// the ids it was issued for. Errors never quote the token.
func backendIDs(token string) (run, job string, err error) {
	if token == "" {
		return "", "", errors.New("runtime token is empty (is ACTIONS_RUNTIME_TOKEN set?)")
	}
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return "", "", fmt.Errorf("runtime token is not a JWT: %d dot-separated parts, want 3", len(parts))
	}
	payload, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	if err != nil {
		return "", "", fmt.Errorf("runtime token is not a JWT: decode payload: %w", err)
	}
	var claims struct {
		Scp json.RawMessage `json:"scp"`
	}
	if err := json.Unmarshal(payload, &claims); err != nil {
		return "", "", fmt.Errorf("runtime token is not a JWT: parse payload: %w", err)
	}
	for _, s := range scopes(claims.Scp) {
		p := strings.Split(s, ":")
		if len(p) == 3 && p[0] == resultsScope && p[1] != "" && p[2] != "" {
			return p[1], p[2], nil
		}
	}
	return "", "", errors.New("runtime token has no " + resultsScope +
		":<run>:<job> scope in its scp claim, so the artifact service would refuse it")
}

// scopes splits the scp claim: GitHub sends one space-separated string;
// a JSON array of strings is accepted too, as other JWT issuers use it.
func scopes(raw json.RawMessage) []string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return strings.Fields(s)
	}
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		return list
	}
	return nil
}

// resultsOrigin is scheme://host[:port] of ACTIONS_RESULTS_URL, which is
// where the toolkit sends its twirp calls (new URL(url).origin).
func resultsOrigin(raw string) (string, error) {
	if raw == "" {
		return "", errors.New("results URL is empty (is ACTIONS_RESULTS_URL set? artifacts v4 are not available on GHES)")
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("results URL %q is not an absolute http(s) URL", raw)
	}
	return u.Scheme + "://" + u.Host, nil
}
