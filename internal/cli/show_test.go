package cli

import (
	"archive/zip"
	"bytes"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/reportdir"
)

// writtenReport writes the fixture report into dir/ananke-report.
func writtenReport(t *testing.T, dir string) string {
	t.Helper()
	out := filepath.Join(dir, "ananke-report")
	if err := reportdir.Write(out, reporttest.Report()); err != nil {
		t.Fatal(err)
	}
	return out
}

// zipDir zips dir's files as the artifact service does: paths relative to
// it, plus the extra entries given (name → content).
func zipDir(t *testing.T, dir string, extra map[string]string) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		w, err := zw.Create(filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range extra {
		w, _ := zw.Create(name)
		w.Write([]byte(content))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "ananke-report.zip")
	os.WriteFile(path, buf.Bytes(), 0o644)
	return path
}

// recordingBrowser is a BROWSER command that writes the link it was given
// to a file, and the file.
func recordingBrowser(t *testing.T) (cmd, got string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the recording browser is a shell script")
	}
	dir := t.TempDir()
	got = filepath.Join(dir, "opened")
	cmd = filepath.Join(dir, "browser")
	os.WriteFile(cmd, []byte("#!/bin/sh\nprintf '%s' \"$1\" > '"+got+"'\n"), 0o755)
	return cmd, got
}

func TestShowOpensTheBrowser(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	dir := t.TempDir()
	writtenReport(t, dir)
	browser, opened := recordingBrowser(t)
	r := run(t, dir, map[string]string{"BROWSER": browser}, "show")
	if r.code != ExitPass || !strings.Contains(r.out, "Opened ") {
		t.Fatalf("exit %d\n%s%s", r.code, r.out, r.errOut)
	}
	link, err := os.ReadFile(opened)
	if err != nil {
		t.Fatalf("the browser was not run: %v", err)
	}
	u, err := url.Parse(string(link))
	if err != nil || u.Scheme != "file" {
		t.Fatalf("the browser got %q; want a file:// link", link)
	}
	want, _ := filepath.EvalSymlinks(filepath.Join(dir, "ananke-report", "index.html"))
	if got, _ := filepath.EvalSymlinks(filepath.FromSlash(u.Path)); got != want {
		t.Errorf("the browser opened %s; want %s", got, want)
	}
}

func TestShowWithoutBrowser(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("without a display, Linux has no browser to open")
	}
	dir := t.TempDir()
	writtenReport(t, dir)
	noDisplay := map[string]string{"BROWSER": "", "DISPLAY": "", "WAYLAND_DISPLAY": ""}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no display", []string{"show", "ananke-report"}, "no browser opened: no display"},
		{"print", []string{"show", "--print", "ananke-report/index.html"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, dir, noDisplay, tc.args...)
			if r.code != ExitPass {
				t.Fatalf("exit %d\n%s%s", r.code, r.out, r.errOut)
			}
			first, _, _ := strings.Cut(r.out, "\n")
			if !filepath.IsAbs(first) || filepath.Base(first) != "index.html" {
				t.Errorf("first line %q; want the page's absolute path", first)
			}
			if !strings.Contains(r.out, tc.want) {
				t.Errorf("output lacks %q:\n%s", tc.want, r.out)
			}
		})
	}
}

func TestShowZip(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dir := t.TempDir()
	artifact := zipDir(t, writtenReport(t, dir), nil)
	noDisplay := map[string]string{"BROWSER": "", "DISPLAY": "", "WAYLAND_DISPLAY": ""}
	r := run(t, dir, noDisplay, "show", "--print", artifact)
	if r.code != ExitPass {
		t.Fatalf("exit %d\n%s%s", r.code, r.out, r.errOut)
	}
	lines := strings.Split(strings.TrimSpace(r.out), "\n")
	page := lines[len(lines)-1]
	if !strings.HasPrefix(page, tmp) || filepath.Base(page) != "index.html" {
		t.Fatalf("page %q; want index.html unpacked under %s\n%s", page, tmp, r.out)
	}
	for _, f := range []string{"index.html", "summary.json", "tests"} {
		if _, err := os.Stat(filepath.Join(filepath.Dir(page), f)); err != nil {
			t.Errorf("the zip's %s was not unpacked: %v", f, err)
		}
	}
}

// TestShowGitLabArtifacts: GitLab's artifacts zip keeps the paths the job
// listed, so the report sits one directory down (ananke-report/…): show
// opens the page there, and names the zip it unpacked.
func TestShowGitLabArtifacts(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dir := t.TempDir()
	nested := filepath.Join(t.TempDir(), "artifacts")
	if err := os.MkdirAll(nested, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(writtenReport(t, dir), filepath.Join(nested, "ananke-report")); err != nil {
		t.Fatal(err)
	}
	artifact := zipDir(t, nested, nil)
	noDisplay := map[string]string{"BROWSER": "", "DISPLAY": "", "WAYLAND_DISPLAY": ""}
	r := run(t, dir, noDisplay, "show", "--print", artifact)
	if r.code != ExitPass {
		t.Fatalf("exit %d\n%s%s", r.code, r.out, r.errOut)
	}
	lines := strings.Split(strings.TrimSpace(r.out), "\n")
	page := lines[len(lines)-1]
	if !strings.HasPrefix(page, tmp) || !strings.HasSuffix(page, filepath.Join("ananke-report", "index.html")) {
		t.Errorf("page %q; want ananke-report/index.html unpacked under %s", page, tmp)
	}
	if !strings.HasPrefix(r.out, "Unpacked ananke-report.zip into ") {
		t.Errorf("output %q does not name the zip it unpacked", r.out)
	}
}

func TestShowRefuses(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dir := t.TempDir()
	report := writtenReport(t, dir)
	slip := zipDir(t, report, map[string]string{"../evil.txt": "x"})
	os.MkdirAll(filepath.Join(dir, "empty"), 0o755)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"missing", []string{"show", "nowhere"}, "no report at "},
		{"not a report", []string{"show", "empty"}, "is not a report directory: it holds neither index.html nor summary.json"},
		{"zip slip", []string{"show", slip}, `entry "../evil.txt" leaves the directory`},
		{"two", []string{"show", "a", "b"}, "name one report directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, dir, nil, tc.args...)
			if r.code != ExitInvalid || !strings.Contains(r.errOut, tc.want) {
				t.Errorf("exit %d, stderr %q; want 3 and %q", r.code, r.errOut, tc.want)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(tmp, "evil.txt")); err == nil {
		t.Error("the zip wrote outside its directory")
	}
}

// A directory written before the page existed gets one, beside it.
func TestShowOldReport(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dir := t.TempDir()
	report := writtenReport(t, dir)
	os.Remove(filepath.Join(report, "index.html"))
	r := run(t, dir, nil, "show", "--print", "ananke-report")
	if r.code != ExitPass || !strings.Contains(r.out, "has no index.html; wrote one to ") {
		t.Fatalf("exit %d\n%s%s", r.code, r.out, r.errOut)
	}
	lines := strings.Split(strings.TrimSpace(r.out), "\n")
	page, err := os.ReadFile(lines[len(lines)-1])
	if err != nil || !strings.HasPrefix(lines[len(lines)-1], tmp) {
		t.Fatalf("page %q: %v", lines[len(lines)-1], err)
	}
	if !bytes.Contains(page, []byte("checkout declines the card")) {
		t.Error("the page lacks the report's tests")
	}
	if _, err := os.Stat(filepath.Join(report, "index.html")); err == nil {
		t.Error("show wrote into the report directory")
	}
}
