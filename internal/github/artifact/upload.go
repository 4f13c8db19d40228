package artifact

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"time"

	"github.com/ananke/action/internal/deadline"
)

// Config is how to reach the artifact service; the caller reads it from the
// environment (ACTIONS_RUNTIME_TOKEN, ACTIONS_RESULTS_URL,
// GITHUB_RETENTION_DAYS).
type Config struct {
	RuntimeToken  string
	ResultsURL    string
	RetentionDays int              // 0 or less: the service default (no expires_at sent)
	HTTP          *http.Client     // nil: http.DefaultClient
	Now           func() time.Time // nil: time.Now (for expires_at)
	// Sleep waits between retries; nil: a context-aware time.Sleep. Tests
	// pass a no-op.
	Sleep func(ctx context.Context, d time.Duration) error
	// OnSecret, when set, is called with each value that must be masked in
	// logs (the signed upload URL's sig, and the whole URL) as soon as
	// CreateArtifact returns it, before any request uses it. In an action,
	// pass a function writing ::add-mask::.
	OnSecret func(string)

	blockSize int // 0: defaultBlockSize; tests lower it to get many blocks cheaply
}

// Uploaded describes a finished upload.
type Uploaded struct {
	ID   int64
	Size int64  // bytes of the zip
	Hash string // "sha256:<hex>"
}

// client is one upload's view of Config, defaults applied and the token read.
type client struct {
	http          *http.Client
	now           func() time.Time
	sleep         func(context.Context, time.Duration) error
	token, origin string
	runID, jobID  string
	retentionDays int
	blockSize     int
}

func newClient(cfg Config) (*client, error) {
	run, job, err := backendIDs(cfg.RuntimeToken)
	if err != nil {
		return nil, err
	}
	origin, err := resultsOrigin(cfg.ResultsURL)
	if err != nil {
		return nil, err
	}
	c := &client{
		http: cfg.HTTP, now: cfg.Now, sleep: cfg.Sleep,
		token: cfg.RuntimeToken, origin: origin, runID: run, jobID: job,
		retentionDays: cfg.RetentionDays, blockSize: cfg.blockSize,
	}
	if c.http == nil {
		c.http = http.DefaultClient
	}
	if c.now == nil {
		c.now = time.Now
	}
	if c.sleep == nil {
		c.sleep = deadline.Sleep
	}
	if c.blockSize <= 0 {
		c.blockSize = defaultBlockSize
	}
	return c, nil
}

// Upload zips the directory dir (entries are paths relative to dir, forward
// slashes, deflate; empty directories are entries; symlinks are followed)
// and uploads it as the artifact name: CreateArtifact → Put Block(s) (8 MiB
// blocks, base64 block ids of equal length) → Put Block List (XML, header
// x-ms-blob-content-type: application/zip) → FinalizeArtifact. Errors name
// the step that failed and never hold the signed URL's query string.
//
// Names are immutable per workflow run: uploading a name twice fails.
func Upload(ctx context.Context, cfg Config, name, dir string) (Uploaded, error) {
	up, err := upload(ctx, cfg, name, dir)
	if err != nil {
		return Uploaded{}, fmt.Errorf("upload artifact %q: %w", name, err)
	}
	return up, nil
}

func upload(ctx context.Context, cfg Config, name, dir string) (Uploaded, error) {
	if err := ValidateName(name); err != nil {
		return Uploaded{}, err
	}
	c, err := newClient(cfg)
	if err != nil {
		return Uploaded{}, err
	}
	// Zip first: a directory that cannot be read must not leave behind a
	// created, never finalized artifact that holds the name for the run.
	data, err := zipDir(dir)
	if err != nil {
		return Uploaded{}, fmt.Errorf("zip %s: %w", dir, err)
	}
	sum := sha256.Sum256(data)
	up := Uploaded{Size: int64(len(data)), Hash: "sha256:" + hex.EncodeToString(sum[:])}

	raw, err := c.createArtifact(ctx, name)
	if err != nil {
		return Uploaded{}, fmt.Errorf("create artifact: %w", err)
	}
	signed, err := parseSignedURL(raw, cfg.OnSecret)
	if err != nil {
		return Uploaded{}, fmt.Errorf("create artifact: %w", err)
	}
	if err := c.putBlob(ctx, signed, data); err != nil {
		return Uploaded{}, signed.scrubError(err)
	}
	if up.ID, err = c.finalizeArtifact(ctx, name, up.Size, up.Hash); err != nil {
		return Uploaded{}, fmt.Errorf("finalize artifact: %w", err)
	}
	return up, nil
}
