// Package reportdir writes the report directory every CI can archive:
//
//	summary.json               the whole run (ananke.report/v1)
//	junit.xml                  JUnit XML
//	gl-code-quality-report.json
//	                           GitLab Code Quality: the problems at their lines
//	warnings-ng-issues.json    the same, in Warnings NG's native JSON format
//	index.html                 the run as one self-contained page
//	tests/<id>.result.json     one test's result
//	tests/<id>.trace.json      one test's trace: raw events, requests, turns
//	tests/<id>.attempt-<k>.trace.json
//	                           for a test run more than once, each attempt's
//
// The per-test files are written first, several at once, straight into
// place; then junit.xml, the two issue files, index.html and summary.json,
// each through a temporary name renamed into place. summary.json, written
// last, names every per-test file: once it is there, the directory is
// complete. A failure to write one file does not stop the others.
package reportdir

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/tracefile"
	"github.com/ananke/action/reporters/codequality"
	"github.com/ananke/action/reporters/html"
	"github.com/ananke/action/reporters/jsonreport"
	"github.com/ananke/action/reporters/junit"
	"github.com/ananke/action/reporters/warningsng"
)

// File names in the directory.
const (
	SummaryFile     = "summary.json"
	JUnitFile       = "junit.xml"
	CodeQualityFile = "gl-code-quality-report.json"
	WarningsNGFile  = "warnings-ng-issues.json"
	HTMLFile        = "index.html"
	TestsDir        = report.TestsDir
)

// Write writes every file of the report into dir, creating it. It returns
// the errors of every file that could not be written, joined.
func Write(dir string, r *report.Report) error {
	if err := os.MkdirAll(filepath.Join(dir, TestsDir), 0o755); err != nil {
		return fmt.Errorf("create report directory: %w", err)
	}
	var jobs []job
	for i := range r.Tests {
		t := &r.Tests[i]
		jobs = append(jobs, job{t.ResultFile, func(w io.Writer) error { return jsonreport.WriteResult(w, t) }})
		if len(t.Attempts) == 0 { // never ran: an empty trace, so every test has one
			jobs = append(jobs, job{t.TraceFile, func(w io.Writer) error { return tracefile.Write(w, t, nil) }})
		}
		for k := range t.Attempts {
			a := &t.Attempts[k]
			jobs = append(jobs, job{a.TraceFile, func(w io.Writer) error { return tracefile.Write(w, t, a) }})
		}
	}
	errs := writeAll(dir, jobs)
	errs = append(errs,
		WriteFile(filepath.Join(dir, JUnitFile), func(w io.Writer) error { return junit.Write(w, r) }),
		WriteFile(filepath.Join(dir, CodeQualityFile), func(w io.Writer) error { return codequality.Write(w, r) }),
		WriteFile(filepath.Join(dir, WarningsNGFile), func(w io.Writer) error { return warningsng.Write(w, r) }),
		WriteFile(filepath.Join(dir, HTMLFile), func(w io.Writer) error { return html.Write(w, r) }),
		WriteFile(filepath.Join(dir, SummaryFile), func(w io.Writer) error { return jsonreport.WriteSummary(w, r) }))
	return errors.Join(errs...)
}

// job is one per-test file: its name in the directory and its writer.
type job struct {
	name  string
	write func(io.Writer) error
}

// writers is how many per-test files are written at once: creating files
// is mostly the file system's time, and a suite of a thousand tests has
// two thousand of them.
const writers = 8

// writeAll writes the jobs' files straight into place, several at once,
// returning the errors in the jobs' order.
func writeAll(dir string, jobs []job) []error {
	errs := make([]error, len(jobs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(writers, len(jobs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				errs[i] = writeDirect(filepath.Join(dir, filepath.FromSlash(jobs[i].name)), jobs[i].write)
			}
		}()
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()
	return errs
}

// writeDirect writes a file in place; a failed write leaves no partial
// file behind.
func writeDirect(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	werr := write(f)
	if err := errors.Join(werr, f.Close()); err != nil {
		os.Remove(path)
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// WriteFile writes path through a temporary file in its directory, renamed
// into place: a reader never sees half a file, and a failed write leaves
// what was there.
func WriteFile(path string, write func(io.Writer) error) error {
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
