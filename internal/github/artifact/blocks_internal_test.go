package artifact

import (
	"archive/zip"
	"bytes"
	"cmp"
	"context"
	"encoding/base64"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ananke/action/internal/github/artifact/artifacttest"
)

// TestUploadSplitsIntoBlocks: a zip larger than a block goes up as full
// blocks and a remainder, committed in order. The block size is lowered
// to keep the test fast; the default is checked separately.
func TestUploadSplitsIntoBlocks(t *testing.T) {
	tests := []struct {
		name      string
		blockSize int
		bigFile   int
	}{
		{name: "small blocks", blockSize: 16 << 10, bigFile: 11*16<<10 + 1234},
		{name: "default 8 MiB blocks", bigFile: 17 << 20},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.blockSize == 0 && testing.Short() {
				t.Skip("17 MiB upload skipped in -short mode")
			}
			srv := artifacttest.New(t)
			dir := t.TempDir()
			big := make([]byte, tc.bigFile)
			rand.NewChaCha8([32]byte{1}).Read(big) // incompressible
			writeFile(t, filepath.Join(dir, "big.bin"), big)
			writeFile(t, filepath.Join(dir, "small1.txt"), []byte("one"))
			writeFile(t, filepath.Join(dir, "small2.txt"), []byte("two"))
			cfg := Config{
				RuntimeToken: srv.Token(), ResultsURL: srv.URL, HTTP: srv.Client(),
				Sleep:     func(context.Context, time.Duration) error { return nil },
				blockSize: tc.blockSize,
			}
			up, err := Upload(t.Context(), cfg, "big", dir)
			if err != nil {
				t.Fatalf("Upload: %v", err)
			}
			a := srv.Artifacts()[0]
			size := cmp.Or(tc.blockSize, defaultBlockSize)
			wantBlocks := int((up.Size + int64(size) - 1) / int64(size))
			if len(a.Blocks) != wantBlocks || wantBlocks < 3 {
				t.Fatalf("%d blocks for %d bytes, want %d (at least 3)", len(a.Blocks), up.Size, wantBlocks)
			}
			for i, n := range a.Blocks[:len(a.Blocks)-1] {
				if n != size {
					t.Errorf("block %d has %d bytes, want %d", i, n, size)
				}
			}
			if got := readEntry(t, a.Data, "big.bin"); !bytes.Equal(got, big) {
				t.Errorf("big.bin came back with %d bytes, differing from the %d written", len(got), len(big))
			}
		})
	}
}

func TestBlockIDs(t *testing.T) {
	first := blockID(0)
	for _, i := range []int{1, 9, 10, 12345, maxBlocks - 1} {
		id := blockID(i)
		if len(id) != len(first) || id == first {
			t.Errorf("blockID(%d) = %q; want an id of length %d unlike %q", i, id, len(first), first)
		}
		if raw, err := base64.StdEncoding.DecodeString(id); err != nil || len(raw) > 64 {
			t.Errorf("blockID(%d) = %q: not base64 of at most 64 bytes", i, id)
		}
	}
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func readEntry(t *testing.T, data []byte, name string) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("not a zip: %v", err)
	}
	rc, err := zr.Open(name)
	if err != nil {
		t.Fatalf("open %s: %v", name, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatalf("read %s: %v", name, err)
	}
	return b
}
