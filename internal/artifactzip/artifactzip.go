// Package artifactzip reads files from a report artifact's zip held in
// memory — a GitHub Actions artifact or a GitLab job's artifacts archive —
// without extracting it: only an entry of exactly the name asked for is
// read, and never more than a limit, whatever the entry claims.
package artifactzip

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
)

// Open reads the directory of the zip in data. An insecure entry name
// (absolute, "..") does not stop it: nothing is extracted, and ReadFile
// matches exact, valid names only.
func Open(data []byte) (*zip.Reader, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return nil, err
	}
	return zr, nil
}

// ReadFile returns the file at name (slash-separated, relative to the
// archive's root, e.g. "ananke-report/summary.json"), refusing a file over
// limit bytes. Only an entry of exactly that name is read, and names that
// are not fs.ValidPath are refused. A nil zr is an empty archive; a file
// that is not there is an error wrapping fs.ErrNotExist.
func ReadFile(zr *zip.Reader, name string, limit int64) ([]byte, error) {
	if !fs.ValidPath(name) || name == "." {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrInvalid}
	}
	if zr == nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrNotExist}
	}
	for _, f := range zr.File {
		if f.Name != name || f.Mode().IsDir() {
			continue
		}
		tooLarge := &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("larger than the %s limit", size(limit))}
		if f.UncompressedSize64 > uint64(limit) {
			return nil, tooLarge
		}
		rc, err := f.Open()
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: name, Err: err}
		}
		defer rc.Close()
		data, err := io.ReadAll(io.LimitReader(rc, limit+1))
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: name, Err: err}
		}
		if int64(len(data)) > limit {
			return nil, tooLarge
		}
		return data, nil
	}
	return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrNotExist}
}

// size formats a byte limit.
func size(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d-byte", n)
}
