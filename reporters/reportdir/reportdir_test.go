package reportdir_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/reportdir"
)

func TestWrite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "report")
	r := reporttest.Report()
	if err := reportdir.Write(dir, r); err != nil {
		t.Fatal(err)
	}
	var files []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			files = append(files, filepath.ToSlash(rel))
			if info, _ := d.Info(); info.Mode().Perm() != 0o644 {
				t.Errorf("%s has mode %v", rel, info.Mode().Perm())
			}
		}
		return nil
	})
	want := []string{"gl-code-quality-report.json", "index.html", "junit.xml", "summary.json", "tests/tests_checkout.result.json", "tests/tests_checkout.trace.json",
		"tests/tests_flip.attempt-1.trace.json", "tests/tests_flip.attempt-2.trace.json", "tests/tests_flip.attempt-3.trace.json", "tests/tests_flip.result.json",
		"tests/tests_legacy.result.json", "tests/tests_legacy.trace.json", "tests/tests_refund.result.json", "tests/tests_refund.trace.json",
		"tests/tests_search.attempt-1.trace.json", "tests/tests_search.attempt-2.trace.json", "tests/tests_search.attempt-3.trace.json", "tests/tests_search.result.json",
		"tests/tests_weather.result.json", "tests/tests_weather.trace.json", "warnings-ng-issues.json"}
	if !slices.Equal(files, want) {
		t.Errorf("files = %q\nwant %q", files, want)
	}
}

// TestWriteKeepsGoing: a file that cannot be written is reported, and the
// others are still written.
func TestWriteKeepsGoing(t *testing.T) {
	dir := t.TempDir()
	// A directory where junit.xml should go makes its rename fail.
	os.MkdirAll(filepath.Join(dir, "junit.xml", "blocker"), 0o755)
	err := reportdir.Write(dir, reporttest.Report())
	if err == nil || !strings.Contains(err.Error(), "junit.xml") {
		t.Fatalf("Write = %v; want the junit.xml failure", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "summary.json")); err != nil {
		t.Errorf("summary.json not written: %v", err)
	}
	if n, _ := filepath.Glob(filepath.Join(dir, "tests", "*.json")); len(n) != 16 {
		t.Errorf("%d test files; want 16", len(n))
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".tmp-*")); len(left) > 0 {
		t.Errorf("temporary files left behind: %q", left)
	}
}

// TestWriteIssueFiles: the Code Quality and Warnings NG files are always
// written, empty when nothing is wrong, so a CI step that reads them never
// finds them missing.
func TestWriteIssueFiles(t *testing.T) {
	for _, tc := range []struct {
		name   string
		tests  []int
		cq, ng string // how each file starts
	}{
		{"nothing ran", nil, "[]\n", "{\n  \"issues\": []\n}\n"},
		{"a failure", []int{reporttest.Failing}, "[\n  {\n    \"type\": \"issue\",", "{\n  \"issues\": [\n    {\n      \"fileName\": \"tests/checkout.ananke.yaml\","},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "r")
			if err := reportdir.Write(dir, reporttest.Pick(false, tc.tests...)); err != nil {
				t.Fatal(err)
			}
			for file, want := range map[string]string{reportdir.CodeQualityFile: tc.cq, reportdir.WarningsNGFile: tc.ng} {
				b, err := os.ReadFile(filepath.Join(dir, file))
				if err != nil || !strings.HasPrefix(string(b), want) {
					t.Errorf("%s (%v) = %.120q; want it to start with %q", file, err, b, want)
				}
			}
		})
	}
}
