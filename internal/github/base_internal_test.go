package github

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestFetchBlobLimit: the limit holds when storage sends no Content-Length.
func TestFetchBlobLimit(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		for range 10 {
			w.Write(bytes.Repeat([]byte("x"), 100))
			w.(http.Flusher).Flush() // chunked: no Content-Length
		}
	}))
	defer srv.Close()
	tests := []struct {
		limit   int64
		wantErr string
	}{
		{1000, ""},
		{999, "larger than the 999-byte limit"},
		{1 << 20, ""},
	}
	for _, tc := range tests {
		data, err := fetchBlob(context.Background(), srv.Client(), srv.URL+"/b?sig=s3cr3t", tc.limit)
		switch {
		case tc.wantErr == "" && (err != nil || len(data) != 1000):
			t.Errorf("fetchBlob(limit %d) = %d bytes, %v; want 1000", tc.limit, len(data), err)
		case tc.wantErr != "" && (err == nil || err.Error() != tc.wantErr):
			t.Errorf("fetchBlob(limit %d) error = %v, want %q", tc.limit, err, tc.wantErr)
		}
	}
}

// TestFetchBlobKeepsSignature: a network error does not quote the URL's
// signature.
func TestFetchBlobKeepsSignature(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens any more
	_, err := fetchBlob(context.Background(), http.DefaultClient, url+"/blob.zip?se=2026&sig=s3cr3t%2B", 10)
	if err == nil || strings.Contains(err.Error(), "s3cr3t") || !strings.Contains(err.Error(), url+"/blob.zip") {
		t.Errorf("error = %v; want the URL without its query", err)
	}
	_, err = fetchBlob(context.Background(), http.DefaultClient, "http://[::1/x?sig=s3cr3t", 10)
	if err == nil || strings.Contains(err.Error(), "s3cr3t") {
		t.Errorf("bad URL error = %v", err)
	}
}

// TestReadFileClaimedSize: an entry claiming more than maxBaseFileBytes is
// refused before it is inflated.
func TestReadFileClaimedSize(t *testing.T) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateRaw(&zip.FileHeader{Name: "summary.json", Method: zip.Store, CompressedSize64: 2, UncompressedSize64: maxBaseFileBytes + 1})
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("{}"))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	b := &BaseReport{zip: zr}
	if _, err := b.ReadFile("summary.json"); err == nil || !strings.Contains(err.Error(), "larger than the 64 MiB limit") {
		t.Errorf("ReadFile = %v; want the limit", err)
	}
	var pe *fs.PathError
	if _, err := (&BaseReport{}).ReadFile("summary.json"); !errors.As(err, &pe) || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadFile without an archive = %v", err)
	}
}
