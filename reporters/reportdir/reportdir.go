// Package reportdir writes the report directory every CI can archive:
//
//	summary.json               the whole run (ananke.report/v1)
//	junit.xml                  JUnit XML
//	tests/<id>.result.json     one test's result
//	tests/<id>.trace.json      one test's trace: raw events, requests, turns
//
// Each file is written to a temporary name and renamed, so a reader never
// sees half a file; a failure to write one file does not stop the others.
package reportdir

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/reporters/jsonreport"
	"github.com/ananke/action/reporters/junit"
)

// File names in the directory.
const (
	SummaryFile = "summary.json"
	JUnitFile   = "junit.xml"
	TestsDir    = "tests"
)

// maxNameLen bounds a test's file name stem (file systems allow 255 bytes;
// the suffixes and a hash need room).
const maxNameLen = 120

// Write writes every file of the report into dir, creating it. It returns
// the errors of every file that could not be written, joined.
func Write(dir string, r *report.Report) error {
	if err := os.MkdirAll(filepath.Join(dir, TestsDir), 0o755); err != nil {
		return fmt.Errorf("create report directory: %w", err)
	}
	errs := []error{
		writeFile(filepath.Join(dir, SummaryFile), func(w io.Writer) error { return jsonreport.WriteSummary(w, r) }),
		writeFile(filepath.Join(dir, JUnitFile), func(w io.Writer) error { return junit.Write(w, r) }),
	}
	names := FileNames(r)
	for i := range r.Tests {
		t := &r.Tests[i]
		base := filepath.Join(dir, TestsDir, names[i])
		errs = append(errs,
			writeFile(base+".result.json", func(w io.Writer) error { return jsonreport.WriteResult(w, t) }),
			writeFile(base+".trace.json", func(w io.Writer) error { return jsonreport.WriteTrace(w, t) }))
	}
	return errors.Join(errs...)
}

// FileNames returns, per test, the stem of its files: the id made safe as
// a file name, unique within the run.
func FileNames(r *report.Report) []string {
	out := make([]string, len(r.Tests))
	seen := map[string]bool{}
	for i, t := range r.Tests {
		name := safe(t.ID)
		if seen[strings.ToLower(name)] { // case-insensitive file systems
			sum := sha256.Sum256([]byte(t.ID))
			name = fmt.Sprintf("%s-%x", name, sum[:4])
		}
		seen[strings.ToLower(name)] = true
		out[i] = name
	}
	return out
}

// safe keeps letters, digits, '.', '-' and '_' and turns every other run of
// characters (path separators included) into one '_'.
func safe(id string) string {
	var b strings.Builder
	under := false
	for _, r := range id {
		ok := r == '.' || r == '-' || r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9')
		switch {
		case ok:
			b.WriteRune(r)
			under = false
		case !under:
			b.WriteByte('_')
			under = true
		}
	}
	name := strings.Trim(b.String(), "._")
	if name == "" {
		name = "test"
	}
	if len(name) > maxNameLen {
		sum := sha256.Sum256([]byte(id))
		name = fmt.Sprintf("%s-%x", name[:maxNameLen], sum[:4])
	}
	return name
}

// writeFile writes through a temporary file renamed into place.
func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-"+filepath.Base(path)+"-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	werr := write(f)
	cerr := f.Close()
	if err := os.Chmod(f.Name(), 0o644); err != nil && werr == nil {
		werr = err
	}
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
