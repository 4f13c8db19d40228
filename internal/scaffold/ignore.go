package scaffold

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ReportDir is where `ananke run` writes its reports unless told
// otherwise; a project's repository ignores it.
const ReportDir = "ananke-report"

// IgnoreFile is the git ignore file of a repository's root.
const IgnoreFile = ".gitignore"

// Ignore makes the .gitignore in dir ignore the report directory: it
// creates the file, or appends to it, unless a line already names the
// directory. The pattern has no leading slash, so it ignores a report
// directory anywhere in the repository (`ananke run` writes it where it
// runs). It reports whether the file changed.
func Ignore(dir string) (bool, error) {
	path := filepath.Join(dir, IgnoreFile)
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("read %s: %w", path, err)
	}
	if ignores(string(old)) {
		return false, nil
	}
	add := "# Ananke's reports (ananke run)\n" + ReportDir + "/\n"
	if len(old) > 0 && !strings.HasSuffix(string(old), "\n") {
		add = "\n" + add
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return false, fmt.Errorf("write %s: %w", path, err)
	}
	_, werr := f.WriteString(add)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return false, fmt.Errorf("write %s: %w", path, werr)
	}
	return true, nil
}

// ignores reports whether a .gitignore has a line naming the report
// directory, anchored or not.
func ignores(gitignore string) bool {
	for line := range strings.Lines(gitignore) {
		switch strings.TrimSpace(line) {
		case ReportDir, ReportDir + "/", "/" + ReportDir, "/" + ReportDir + "/", ReportDir + "/*", "/" + ReportDir + "/*":
			return true
		}
	}
	return false
}
