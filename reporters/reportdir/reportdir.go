// Package reportdir writes the report directory every CI can archive:
//
//	summary.json               the whole run (ananke.report/v1)
//	junit.xml                  JUnit XML
//	tests/<id>.result.json     one test's result
//	tests/<id>.trace.json      one test's trace: raw events, requests, turns
//	tests/<id>.attempt-<k>.trace.json
//	                           for a test run more than once, each attempt's
//
// Each file is written to a temporary name and renamed, so a reader never
// sees half a file; a failure to write one file does not stop the others.
package reportdir

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/reporters/jsonreport"
	"github.com/ananke/action/reporters/junit"
)

// File names in the directory.
const (
	SummaryFile = "summary.json"
	JUnitFile   = "junit.xml"
	TestsDir    = report.TestsDir
)

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
	for i := range r.Tests {
		t := &r.Tests[i]
		errs = append(errs, writeFile(filepath.Join(dir, filepath.FromSlash(t.ResultFile)), func(w io.Writer) error { return jsonreport.WriteResult(w, t) }))
		if len(t.Attempts) == 0 { // never ran: an empty trace, so every test has one
			errs = append(errs, writeFile(filepath.Join(dir, filepath.FromSlash(t.TraceFile)), func(w io.Writer) error { return jsonreport.WriteTrace(w, t, nil) }))
		}
		for k := range t.Attempts {
			a := &t.Attempts[k]
			errs = append(errs, writeFile(filepath.Join(dir, filepath.FromSlash(a.TraceFile)), func(w io.Writer) error { return jsonreport.WriteTrace(w, t, a) }))
		}
	}
	return errors.Join(errs...)
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
