// Package scaffold starts an Ananke project, for `ananke init`: it probes
// the agent with one message, renders a config, a first test built from
// what the agent did and a GitHub workflow, or copies the bundled example,
// and writes the files without overwriting any unless told to.
package scaffold

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// File is one file to write. Path is slash-separated and relative to the
// project directory; it may start with ../ (a workflow at the repository's
// root).
type File struct {
	Path string
	Data []byte
	Mode fs.FileMode
}

// Existing returns the paths (joined to dir) of the files that already
// exist, so a caller can refuse before writing anything.
func Existing(dir string, files []File) []string {
	var out []string
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		if _, err := os.Lstat(p); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// Write writes files under dir, creating directories. Without overwrite an
// existing file is an error (*ExistsError) and is left as it was; call
// Existing first to write all or nothing.
func Write(dir string, files []File, overwrite bool) error {
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		if err := writeFile(p, f, overwrite); err != nil {
			return err
		}
	}
	return nil
}

// ExistsError says a file was not written because it exists.
type ExistsError struct{ Path string }

func (e *ExistsError) Error() string { return e.Path + " exists" }

func writeFile(path string, f File, overwrite bool) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if !overwrite {
		flags = os.O_WRONLY | os.O_CREATE | os.O_EXCL
	}
	mode := f.Mode
	if mode == 0 {
		mode = 0o644
	}
	out, err := os.OpenFile(path, flags, mode)
	if errors.Is(err, fs.ErrExist) {
		return &ExistsError{path}
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	_, werr := out.Write(f.Data)
	if cerr := out.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return fmt.Errorf("write %s: %w", path, werr)
	}
	return nil
}
