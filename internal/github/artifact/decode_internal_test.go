package artifact

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestCreateArtifactResponse(t *testing.T) {
	tests := []struct {
		body, want, wantErr string
	}{
		{body: `{"ok":true,"signed_upload_url":"https://blob/x?sig=s"}`, want: "https://blob/x?sig=s"},
		{body: `{"ok":true,"signedUploadUrl":"https://blob/y?sig=s"}`, want: "https://blob/y?sig=s"},
		{body: `{"ok":true}`, wantErr: "no signed upload URL"},
		{body: `{"signed_upload_url":"https://blob/x"}`, wantErr: "ok=false"},
	}
	for _, tc := range tests {
		var r createArtifactResponse
		if err := json.Unmarshal([]byte(tc.body), &r); err != nil {
			t.Fatal(err)
		}
		got, err := r.signedURL()
		if got != tc.want || !errorContains(err, tc.wantErr) {
			t.Errorf("%s: signedURL() = %q, %v; want %q, error %q", tc.body, got, err, tc.want, tc.wantErr)
		}
	}
}

func TestFinalizeArtifactResponse(t *testing.T) {
	tests := []struct {
		body    string
		want    int64
		wantErr string
	}{
		{body: `{"ok":true,"artifact_id":"9007199254740993"}`, want: 9007199254740993},
		{body: `{"ok":true,"artifact_id":42}`, want: 42},
		{body: `{"ok":true,"artifactId":"43"}`, want: 43},
		{body: `{"ok":true,"artifactId":44}`, want: 44},
		{body: `{"ok":true}`, wantErr: "no artifact id"},
		{body: `{"ok":true,"artifact_id":"x1"}`, wantErr: `artifact id "x1" is not an integer`},
		{body: `{"ok":true,"artifact_id":1.5}`, wantErr: "not an integer"},
		{body: `{"artifact_id":"1"}`, wantErr: "ok=false"},
	}
	for _, tc := range tests {
		var r finalizeArtifactResponse
		if err := json.Unmarshal([]byte(tc.body), &r); err != nil {
			t.Fatal(err)
		}
		got, err := r.id()
		if got != tc.want || !errorContains(err, tc.wantErr) {
			t.Errorf("%s: id() = %d, %v; want %d, error %q", tc.body, got, err, tc.want, tc.wantErr)
		}
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		header string
		want   time.Duration
	}{
		{"", -1},
		{"7", 7 * time.Second},
		{"0", 0},
		{"-3", 0},
		{"86400", maxRetryAfter},
		{now.Add(30 * time.Second).Format(http.TimeFormat), 30 * time.Second},
		{now.Add(-time.Hour).Format(http.TimeFormat), 0},
		{"soon", -1},
	}
	for _, tc := range tests {
		h := http.Header{}
		if tc.header != "" {
			h.Set("Retry-After", tc.header)
		}
		if got := retryAfter(h, now); got != tc.want {
			t.Errorf("retryAfter(%q) = %v, want %v", tc.header, got, tc.want)
		}
	}
}

func TestBackendIDs(t *testing.T) {
	tests := []struct {
		name, payload, run, job, wantErr string
	}{
		{name: "github", payload: `{"scp":"Actions.ExampleScope Actions.Results:run-1:job-2"}`, run: "run-1", job: "job-2"},
		{name: "array", payload: `{"scp":["Actions.Results:r:j"]}`, run: "r", job: "j"},
		{name: "too many parts", payload: `{"scp":"Actions.Results:r:j:x"}`, wantErr: "no Actions.Results"},
		{name: "empty job", payload: `{"scp":"Actions.Results:r:"}`, wantErr: "no Actions.Results"},
		{name: "no scp", payload: `{"sub":"x"}`, wantErr: "no Actions.Results"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tok := jwt(tc.payload)
			run, job, err := backendIDs(tok)
			if run != tc.run || job != tc.job || !errorContains(err, tc.wantErr) {
				t.Errorf("backendIDs = %q, %q, %v; want %q, %q, error %q", run, job, err, tc.run, tc.job, tc.wantErr)
			}
		})
	}
}

func TestParseSignedURL(t *testing.T) {
	raw := "https://acct.blob.core.windows.net/c/b?sv=2023-11-03&sig=a%2Bb%3D&se=x"
	var got []string
	s, err := parseSignedURL(raw, func(v string) { got = append(got, v) })
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a+b=", "a%2Bb%3D", raw}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("OnSecret got %q, want %q", got, want)
	}
	text := "PUT " + raw + "&comp=block failed; sig a+b= and a%2Bb%3D"
	if clean := s.scrub(text); strings.Contains(clean, "a+b=") || strings.Contains(clean, "2Bb") || strings.Contains(clean, "sig=") {
		t.Errorf("scrub left a secret: %q", clean)
	}
	if _, err := parseSignedURL("/relative?sig=abc", nil); err == nil || strings.Contains(err.Error(), "abc") {
		t.Errorf("parseSignedURL(relative) error = %v, want an error not quoting the URL", err)
	}
}

func jwt(payload string) string {
	return "e30." + base64.RawURLEncoding.EncodeToString([]byte(payload)) + ".sig"
}

func errorContains(err error, want string) bool {
	if want == "" {
		return err == nil
	}
	return err != nil && strings.Contains(err.Error(), want)
}
