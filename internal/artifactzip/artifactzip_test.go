package artifactzip_test

import (
	"archive/zip"
	"bytes"
	"errors"
	"io/fs"
	"strings"
	"testing"

	"github.com/ananke/action/internal/artifactzip"
)

// archive zips files, in order; a name ending in "/" is a directory.
func archive(t *testing.T, files ...[2]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: f[0], Method: zip.Deflate})
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(f[1]))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestReadFile(t *testing.T) {
	data := archive(t,
		[2]string{"ananke-report/", ""},
		[2]string{"ananke-report/summary.json", `{"schema":"x"}`},
		[2]string{"../escape.txt", "outside"},
		[2]string{"big.txt", strings.Repeat("x", 100)},
	)
	zr, err := artifactzip.Open(data)
	if err != nil {
		t.Fatalf("Open: %v (an insecure name must not stop the reader)", err)
	}
	tests := []struct {
		name    string
		limit   int64
		want    string
		wantErr error
		errText string
	}{
		{"ananke-report/summary.json", 1 << 20, `{"schema":"x"}`, nil, ""},
		{"summary.json", 1 << 20, "", fs.ErrNotExist, ""},               // only the exact name
		{"ananke-report", 1 << 20, "", fs.ErrNotExist, ""},              // a directory is no file
		{"../escape.txt", 1 << 20, "", fs.ErrInvalid, ""},               // not a valid path
		{"/ananke-report/summary.json", 1 << 20, "", fs.ErrInvalid, ""}, // absolute
		{".", 1 << 20, "", fs.ErrInvalid, ""},
		{"big.txt", 100, strings.Repeat("x", 100), nil, ""},
		{"big.txt", 99, "", nil, "larger than the 99-byte limit"},
	}
	for _, tc := range tests {
		got, err := artifactzip.ReadFile(zr, tc.name, tc.limit)
		switch {
		case tc.wantErr != nil:
			if !errors.Is(err, tc.wantErr) {
				t.Errorf("ReadFile(%q) error = %v, want %v", tc.name, err, tc.wantErr)
			}
		case tc.errText != "":
			if err == nil || !strings.Contains(err.Error(), tc.errText) {
				t.Errorf("ReadFile(%q, %d) error = %v, want %q", tc.name, tc.limit, err, tc.errText)
			}
		case err != nil || string(got) != tc.want:
			t.Errorf("ReadFile(%q) = %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
	if _, err := artifactzip.ReadFile(nil, "summary.json", 10); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadFile(nil archive) = %v; want fs.ErrNotExist", err)
	}
}

// TestReadFileClaimedSize: an entry claiming more than the limit is refused
// before it is inflated.
func TestReadFileClaimedSize(t *testing.T) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateRaw(&zip.FileHeader{Name: "summary.json", Method: zip.Store, CompressedSize64: 2, UncompressedSize64: 64<<20 + 1})
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("{}"))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	zr, err := artifactzip.Open(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := artifactzip.ReadFile(zr, "summary.json", 64<<20); err == nil || !strings.Contains(err.Error(), "larger than the 64 MiB limit") {
		t.Errorf("ReadFile = %v; want the limit", err)
	}
}

func TestOpenNotAZip(t *testing.T) {
	if _, err := artifactzip.Open([]byte("<html>not found</html>")); err == nil {
		t.Error("Open accepted a page that is not a zip")
	}
}
