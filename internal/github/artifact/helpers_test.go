package artifact_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/base64"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ananke/action/internal/github/artifact"
	"github.com/ananke/action/internal/github/artifact/artifacttest"
)

// fixture is a fake service and a Config pointing at it that records the
// waits between retries and the secrets reported, and never really sleeps.
type fixture struct {
	srv     *artifacttest.Server
	cfg     artifact.Config
	sleeps  []time.Duration
	secrets []string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{srv: artifacttest.New(t)}
	f.cfg = artifact.Config{
		RuntimeToken: f.srv.Token(),
		ResultsURL:   f.srv.URL + "/results/ignored/path?x=1",
		HTTP:         f.srv.Client(),
		Now:          func() time.Time { return time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC) },
		Sleep: func(_ context.Context, d time.Duration) error {
			f.sleeps = append(f.sleeps, d)
			return nil
		},
		OnSecret: func(s string) { f.secrets = append(f.secrets, s) },
	}
	return f
}

// writeTree creates files (path → content) and empty directories under a
// fresh temporary directory and returns it.
func writeTree(t *testing.T, files map[string]string, emptyDirs ...string) string {
	t.Helper()
	dir := t.TempDir()
	for p, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range emptyDirs {
		if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(d)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// readZip returns the archive's entries, name → content, checking that
// files are deflated.
func readZip(t *testing.T, data []byte) map[string]string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("stored artifact is not a zip: %v", err)
	}
	out := map[string]string{}
	for _, f := range zr.File {
		if !f.FileInfo().IsDir() && f.Method != zip.Deflate {
			t.Errorf("entry %s: method %d, want deflate", f.Name, f.Method)
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatalf("open entry %s: %v", f.Name, err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatalf("read entry %s: %v", f.Name, err)
		}
		out[f.Name] = string(b)
	}
	return out
}

// makeJWT is an unsigned JWT with the given JSON payload.
func makeJWT(payload string) string {
	enc := base64.RawURLEncoding
	return enc.EncodeToString([]byte(`{"alg":"none"}`)) + "." + enc.EncodeToString([]byte(payload)) + "."
}
