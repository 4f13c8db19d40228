package artifact_test

import (
	"net/url"
	"slices"
	"testing"

	"github.com/ananke/action/internal/github/artifact"
)

// TestUploadReportsSecrets: OnSecret hears the signature and the signed URL
// before any blob request is made.
func TestUploadReportsSecrets(t *testing.T) {
	f := newFixture(t)
	blobCalls := -1
	f.cfg.OnSecret = func(s string) {
		f.secrets = append(f.secrets, s)
		if blobCalls < 0 {
			blobCalls = f.srv.Count("comp=block") + f.srv.Count("comp=blocklist")
		}
	}
	if _, err := artifact.Upload(t.Context(), f.cfg, "report", writeTree(t, map[string]string{"a.txt": "a"})); err != nil {
		t.Fatalf("Upload: %v", err)
	}
	signed := f.srv.Artifacts()[0].SignedURL
	u, err := url.Parse(signed)
	if err != nil {
		t.Fatal(err)
	}
	sig := u.Query().Get("sig")
	if sig == "" {
		t.Fatal("the fake's signed URL has no sig")
	}
	for _, want := range []string{sig, signed} {
		if !slices.Contains(f.secrets, want) {
			t.Errorf("OnSecret got %q, missing %q", f.secrets, want)
		}
	}
	if blobCalls != 0 {
		t.Errorf("OnSecret first called after %d blob requests, want before any", blobCalls)
	}
}
