package artifact

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
)

// zipDir returns the files under dir as a zip archive, the layout the
// toolkit produces: entries are paths relative to dir with forward slashes,
// files are deflated, empty directories are entries of their own, and
// symlinks are followed (a directory symlink that loops is an error).
//
// The archive is built in memory: Ananke's report directories are small,
// and every block must be held anyway to be sent again on a retry.
func zipDir(dir string) ([]byte, error) {
	info, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", dir)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	n, err := addDir(zw, dir, "", map[string]bool{})
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, errors.New("no files to upload")
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// addDir adds the contents of the directory at dir under the entry prefix
// rel and returns how many entries it wrote. ancestors holds the resolved
// paths of the directories being walked, to stop symlink loops.
func addDir(zw *zip.Writer, dir, rel string, ancestors map[string]bool) (int, error) {
	resolved, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return 0, err
	}
	if ancestors[resolved] {
		return 0, fmt.Errorf("symlink loop at %s", dir)
	}
	ancestors[resolved] = true
	defer delete(ancestors, resolved)

	entries, err := os.ReadDir(dir) // sorted by name: a stable archive
	if err != nil {
		return 0, err
	}
	total := 0
	for _, e := range entries {
		n, err := addEntry(zw, filepath.Join(dir, e.Name()), path.Join(rel, e.Name()), ancestors)
		if err != nil {
			return 0, err
		}
		total += n
	}
	if total == 0 && rel != "" {
		h := &zip.FileHeader{Name: rel + "/", Method: zip.Store}
		h.SetMode(os.ModeDir | 0o755)
		if _, err := zw.CreateHeader(h); err != nil {
			return 0, err
		}
		total = 1
	}
	return total, nil
}

// addEntry adds the file or directory at p, following symlinks, as the
// entry name rel.
func addEntry(zw *zip.Writer, p, rel string, ancestors map[string]bool) (int, error) {
	info, err := os.Stat(p)
	if err != nil {
		return 0, err
	}
	switch {
	case info.IsDir():
		return addDir(zw, p, rel, ancestors)
	case !info.Mode().IsRegular():
		return 0, fmt.Errorf("%s is not a regular file", p)
	}
	h, err := zip.FileInfoHeader(info)
	if err != nil {
		return 0, err
	}
	h.Name, h.Method = rel, zip.Deflate
	w, err := zw.CreateHeader(h)
	if err != nil {
		return 0, err
	}
	f, err := os.Open(p)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	if _, err := io.Copy(w, f); err != nil {
		return 0, fmt.Errorf("read %s: %w", p, err)
	}
	return 1, nil
}
