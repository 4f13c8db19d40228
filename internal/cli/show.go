package cli

import (
	"archive/zip"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/reporters/html"
	"github.com/ananke/action/reporters/reportdir"
)

// runShow is `ananke show [DIR|FILE]`: the report's index.html opened in
// the browser, from a report directory, the page itself, or a downloaded
// artifact (a zip, unpacked into a new temporary directory first). Where
// no browser can be started it prints the page's path and still exits 0:
// printing it is the most a machine without a display can do.
func runShow(ctx context.Context, a *app, args []string) error {
	fs := a.flags("show", "[DIR | index.html | ARTIFACT.zip]")
	printOnly := fs.Bool("print", false, "print the page's path; do not open a browser")
	if err := a.parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 1 {
		return invalidf("show", "name one report directory, page or zip")
	}
	target := "ananke-report"
	if fs.NArg() == 1 {
		target = fs.Arg(0)
	}
	page, err := a.reportPage(target)
	if err != nil {
		return withCode(ExitInvalid, "show", err)
	}
	link := (&url.URL{Scheme: "file", Path: filepath.ToSlash(page)}).String()
	if *printOnly {
		fmt.Fprintln(a.Out, page)
		return nil
	}
	browser, err := a.openBrowser(ctx, link)
	if err != nil {
		fmt.Fprintf(a.Out, "%s\n(no browser opened: %v)\n", page, err)
		return nil
	}
	fmt.Fprintf(a.Out, "Opened %s in %s\n", page, browser)
	return nil
}

// reportPage finds the page to open: DIR/index.html, the page named
// itself, or the index.html of a zip unpacked into a temporary directory.
// The path returned is absolute.
func (a *app) reportPage(target string) (string, error) {
	if !filepath.IsAbs(target) {
		wd, err := a.getwd()
		if err != nil {
			return "", err
		}
		target = filepath.Join(wd, target)
	}
	info, err := os.Stat(target)
	if err != nil {
		return "", fmt.Errorf("no report at %s: %w", target, err)
	}
	if !info.IsDir() && strings.EqualFold(filepath.Ext(target), ".zip") {
		dir, err := os.MkdirTemp("", "ananke-report-*")
		if err != nil {
			return "", fmt.Errorf("unpack %s: %w", target, err)
		}
		if err := unpack(target, dir); err != nil {
			return "", fmt.Errorf("unpack %s: %w", target, err)
		}
		fmt.Fprintf(a.Out, "Unpacked %s into %s\n", filepath.Base(target), dir)
		target = reportWithin(dir)
		info, _ = os.Stat(target)
	}
	if !info.IsDir() {
		return target, nil
	}
	page := filepath.Join(target, reportdir.HTMLFile)
	if _, err := os.Stat(page); err == nil {
		return page, nil
	}
	if _, err := os.Stat(filepath.Join(target, reportdir.SummaryFile)); err != nil {
		return "", fmt.Errorf("%s is not a report directory: it holds neither %s nor %s", target, reportdir.HTMLFile, reportdir.SummaryFile)
	}
	// A directory written before the page existed: the page is made from
	// it, beside it rather than in it.
	r, err := reportdir.Read(target)
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "ananke-report-*")
	if err != nil {
		return "", fmt.Errorf("write the page of %s: %w", target, err)
	}
	page = filepath.Join(dir, reportdir.HTMLFile)
	if err := writePage(page, r); err != nil {
		return "", fmt.Errorf("write the page of %s: %w", target, err)
	}
	fmt.Fprintf(a.Out, "%s has no %s; wrote one to %s\n", target, reportdir.HTMLFile, page)
	return page, nil
}

// reportWithin is the report directory of an unpacked artifact: dir
// itself (GitHub's artifacts hold the directory's files), or its one
// subdirectory that holds a report (GitLab's keep the paths the job
// listed, ananke-report/…); dir when neither fits, for the error that
// follows to name it.
func reportWithin(dir string) string {
	isReport := func(d string) bool {
		for _, f := range []string{reportdir.HTMLFile, reportdir.SummaryFile} {
			if _, err := os.Stat(filepath.Join(d, f)); err == nil {
				return true
			}
		}
		return false
	}
	if isReport(dir) {
		return dir
	}
	entries, _ := os.ReadDir(dir)
	found := ""
	for _, e := range entries {
		if e.IsDir() && isReport(filepath.Join(dir, e.Name())) {
			if found != "" {
				return dir // two reports: which one is not ours to guess
			}
			found = filepath.Join(dir, e.Name())
		}
	}
	return cmp.Or(found, dir)
}

func writePage(path string, r *report.Report) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	return errors.Join(html.Write(f, r), f.Close())
}

// maxUnzipped bounds what a zip may unpack to: a report is megabytes, and
// a zip bomb must not fill the disk.
const maxUnzipped = 2 << 30

// unpack unpacks the zip at path into dir, refusing entries that would land
// outside it.
func unpack(path, dir string) error {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return err
	}
	defer zr.Close()
	var total int64
	for _, f := range zr.File {
		name := filepath.FromSlash(f.Name)
		if !filepath.IsLocal(name) {
			return fmt.Errorf("entry %q leaves the directory", f.Name)
		}
		dst := filepath.Join(dir, name)
		if f.FileInfo().IsDir() {
			if err := os.MkdirAll(dst, 0o755); err != nil {
				return err
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		n, err := unpackEntry(f, dst, maxUnzipped-total)
		if err != nil {
			return fmt.Errorf("entry %s: %w", f.Name, err)
		}
		total += n
	}
	return nil
}

func unpackEntry(f *zip.File, dst string, room int64) (int64, error) {
	r, err := f.Open()
	if err != nil {
		return 0, err
	}
	defer r.Close()
	w, err := os.Create(dst)
	if err != nil {
		return 0, err
	}
	n, err := io.Copy(w, io.LimitReader(r, room+1))
	if err == nil && n > room {
		err = fmt.Errorf("the zip unpacks to more than %d bytes", int64(maxUnzipped))
	}
	return n, errors.Join(err, w.Close())
}

// browserWait is how long a browser command may take to fail: an opener
// (xdg-open, open) returns at once, a browser started directly keeps
// running and is left to run.
const browserWait = 3 * time.Second

// openBrowser opens link with the user's browser: $BROWSER (a
// colon-separated list of commands, "%s" standing for the link, tried in
// order), else the system's opener — open on macOS, the URL handler on
// Windows, xdg-open where a display is set. It returns the command that
// opened it.
func (a *app) openBrowser(ctx context.Context, link string) (string, error) {
	var cands [][]string
	if b := a.getenv("BROWSER"); b != "" {
		for _, c := range strings.Split(b, string(os.PathListSeparator)) {
			if f := strings.Fields(c); len(f) > 0 {
				cands = append(cands, withLink(f, link))
			}
		}
	} else {
		switch runtime.GOOS {
		case "darwin":
			cands = [][]string{{"open", link}}
		case "windows":
			cands = [][]string{{"rundll32", "url.dll,FileProtocolHandler", link}}
		default:
			if a.getenv("DISPLAY") == "" && a.getenv("WAYLAND_DISPLAY") == "" {
				return "", errors.New("no display (DISPLAY and WAYLAND_DISPLAY unset) and no BROWSER set")
			}
			cands = [][]string{{"xdg-open", link}}
		}
	}
	var errs []error
	for _, c := range cands {
		if err := startBrowser(ctx, a.environ, c); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", c[0], err))
			continue
		}
		return c[0], nil
	}
	return "", errors.Join(errs...)
}

// withLink puts the link in place of "%s", or last when no argument has it.
func withLink(cmd []string, link string) []string {
	out, put := make([]string, 0, len(cmd)+1), false
	for _, f := range cmd {
		if strings.Contains(f, "%s") {
			f, put = strings.ReplaceAll(f, "%s", link), true
		}
		out = append(out, f)
	}
	if !put {
		out = append(out, link)
	}
	return out
}

// startBrowser runs a browser command: an error when it cannot start or
// fails within browserWait, nil when it succeeded or is still running.
func startBrowser(ctx context.Context, environ, argv []string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = environ
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(browserWait):
		return nil
	case <-ctx.Done():
		return nil
	}
}
