package artifact_test

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ananke/action/internal/github/artifact"
)

func TestUploadDirectory(t *testing.T) {
	f := newFixture(t)
	files := map[string]string{
		"summary.json":        `{"schema":"ananke.report/v1"}`,
		"junit.xml":           "<testsuites></testsuites>\n",
		"tests/a.result.json": `{"status":"passed"}`,
	}
	dir := writeTree(t, files, "empty")

	got, err := artifact.Upload(t.Context(), f.cfg, "ananke-report", dir)
	if err != nil {
		t.Fatalf("Upload: %v", err)
	}

	arts := f.srv.Artifacts()
	if len(arts) != 1 {
		t.Fatalf("service holds %d artifacts, want 1", len(arts))
	}
	a := arts[0]
	want := maps.Clone(files)
	want["empty/"] = ""
	if entries := readZip(t, a.Data); !maps.Equal(entries, want) {
		t.Errorf("zip entries = %q, want %q", entries, want)
	}
	sum := sha256.Sum256(a.Data)
	wantHash := "sha256:" + hex.EncodeToString(sum[:])
	if a.Name != "ananke-report" || a.Size != int64(len(a.Data)) || a.Hash != wantHash {
		t.Errorf("finalized %q size %d hash %s; want ananke-report, %d, %s", a.Name, a.Size, a.Hash, len(a.Data), wantHash)
	}
	if want := (artifact.Uploaded{ID: a.ID, Size: int64(len(a.Data)), Hash: wantHash}); got != want {
		t.Errorf("Upload = %+v, want %+v", got, want)
	}
	if a.ContentType != "application/zip" {
		t.Errorf("blob content type %q, want application/zip", a.ContentType)
	}
	if !a.ExpiresAt.IsZero() {
		t.Errorf("expires_at sent (%v) with RetentionDays 0", a.ExpiresAt)
	}
}

func TestUploadFollowsSymlinks(t *testing.T) {
	f := newFixture(t)
	outside := writeTree(t, map[string]string{"target.txt": "linked bytes", "sub/deep.txt": "deep"})
	dir := writeTree(t, map[string]string{"plain.txt": "plain"})
	for link, target := range map[string]string{"link.txt": "target.txt", "linkdir": "sub"} {
		if err := os.Symlink(filepath.Join(outside, target), filepath.Join(dir, link)); err != nil {
			t.Skipf("symlinks unavailable: %v", err)
		}
	}
	if _, err := artifact.Upload(t.Context(), f.cfg, "links", dir); err != nil {
		t.Fatalf("Upload: %v", err)
	}
	want := map[string]string{"plain.txt": "plain", "link.txt": "linked bytes", "linkdir/deep.txt": "deep"}
	if got := readZip(t, f.srv.Artifacts()[0].Data); !maps.Equal(got, want) {
		t.Errorf("zip entries = %q, want %q", got, want)
	}
}

func TestUploadSymlinkLoop(t *testing.T) {
	f := newFixture(t)
	dir := writeTree(t, map[string]string{"a/file.txt": "x"})
	if err := os.Symlink(dir, filepath.Join(dir, "a", "back")); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	_, err := artifact.Upload(t.Context(), f.cfg, "loop", dir)
	if err == nil || !strings.Contains(err.Error(), "symlink loop") {
		t.Fatalf("Upload = %v, want a symlink loop error", err)
	}
	if n := f.srv.Count(""); n != 0 {
		t.Errorf("%d requests sent for an unreadable directory, want 0", n)
	}
}

func TestUploadExpiresAt(t *testing.T) {
	f := newFixture(t)
	f.cfg.RetentionDays = 3
	if _, err := artifact.Upload(t.Context(), f.cfg, "kept", writeTree(t, map[string]string{"a": "b"})); err != nil {
		t.Fatalf("Upload: %v", err)
	}
	want := f.cfg.Now().Add(72 * time.Hour)
	if got := f.srv.Artifacts()[0].ExpiresAt; !got.Equal(want) {
		t.Errorf("expires_at = %v, want %v", got, want)
	}
}

// TestUploadResponseStyles uploads four artifacts: the fake answers
// CreateArtifact in snake_case and camelCase by turns and FinalizeArtifact
// with artifact_id/artifactId as string and as number.
func TestUploadResponseStyles(t *testing.T) {
	f := newFixture(t)
	dir := writeTree(t, map[string]string{"a.txt": "a"})
	var ids []int64
	for _, name := range []string{"one", "two", "three", "four"} {
		up, err := artifact.Upload(t.Context(), f.cfg, name, dir)
		if err != nil {
			t.Fatalf("Upload(%s): %v", name, err)
		}
		ids = append(ids, up.ID)
	}
	arts := f.srv.Artifacts()
	if len(arts) != len(ids) {
		t.Fatalf("service holds %d artifacts, want %d", len(arts), len(ids))
	}
	for i, a := range arts {
		if ids[i] != a.ID || a.ID == 0 {
			t.Errorf("upload %d (%s): ID %d, service says %d", i, a.Name, ids[i], a.ID)
		}
	}
}

func TestUploadSameNameTwice(t *testing.T) {
	f := newFixture(t)
	dir := writeTree(t, map[string]string{"a.txt": "a"})
	if _, err := artifact.Upload(t.Context(), f.cfg, "report", dir); err != nil {
		t.Fatalf("first Upload: %v", err)
	}
	_, err := artifact.Upload(t.Context(), f.cfg, "report", dir)
	if err == nil || !strings.Contains(err.Error(), "already_exists") || !strings.Contains(err.Error(), "create artifact") {
		t.Fatalf("second Upload = %v, want an already_exists error from create artifact", err)
	}
	if n := f.srv.Count("CreateArtifact"); n != 2 {
		t.Errorf("CreateArtifact called %d times, want 2 (a conflict is not retried)", n)
	}
	if n := len(f.srv.Artifacts()); n != 1 {
		t.Errorf("service holds %d artifacts, want 1", n)
	}
}

// TestUploadRejectsBadInput: a bad token, results URL, name or directory is
// reported before any request is sent.
func TestUploadRejectsBadInput(t *testing.T) {
	tests := []struct {
		name      string
		edit      func(cfg *artifact.Config)
		artifact  string
		dir       string
		wantError string
	}{
		{name: "empty token", edit: func(c *artifact.Config) { c.RuntimeToken = "" }, wantError: "runtime token is empty"},
		{name: "not a JWT", edit: func(c *artifact.Config) { c.RuntimeToken = "ghs_opaque" }, wantError: "runtime token is not a JWT"},
		{name: "payload not base64", edit: func(c *artifact.Config) { c.RuntimeToken = "a.!!!.c" }, wantError: "runtime token is not a JWT: decode payload"},
		{name: "payload not JSON", edit: func(c *artifact.Config) { c.RuntimeToken = makeJWT("scp") }, wantError: "runtime token is not a JWT: parse payload"},
		{
			name: "no results scope",
			edit: func(c *artifact.Config) {
				c.RuntimeToken = makeJWT(`{"scp":"Actions.GenericRead:abc Actions.UploadArtifacts:a:b"}`)
			},
			wantError: "runtime token has no Actions.Results:<run>:<job> scope",
		},
		{
			name:      "results scope without job id",
			edit:      func(c *artifact.Config) { c.RuntimeToken = makeJWT(`{"scp":"Actions.Results:run"}`) },
			wantError: "no Actions.Results",
		},
		{name: "no results URL", edit: func(c *artifact.Config) { c.ResultsURL = "" }, wantError: "results URL is empty"},
		{name: "relative results URL", edit: func(c *artifact.Config) { c.ResultsURL = "results.example" }, wantError: "not an absolute http(s) URL"},
		{name: "bad name", artifact: "a/b", wantError: `artifact name "a/b" contains invalid characters: forward slash /`},
		{name: "missing directory", dir: "does-not-exist", wantError: "zip "},
		{name: "empty directory", dir: "empty", wantError: "no files to upload"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			if tc.edit != nil {
				tc.edit(&f.cfg)
			}
			name := cmp.Or(tc.artifact, "report")
			dir := writeTree(t, map[string]string{"a.txt": "a"}, "empty")
			if tc.dir != "" {
				dir = filepath.Join(dir, tc.dir)
			}
			_, err := artifact.Upload(t.Context(), f.cfg, name, dir)
			if err == nil || !strings.Contains(err.Error(), tc.wantError) {
				t.Fatalf("Upload = %v, want an error containing %q", err, tc.wantError)
			}
			if tok := f.cfg.RuntimeToken; len(tok) > 8 && strings.Contains(err.Error(), tok) {
				t.Errorf("error quotes the runtime token: %v", err)
			}
			if n := f.srv.Count(""); n != 0 {
				t.Errorf("%d requests sent, want 0", n)
			}
		})
	}
}
