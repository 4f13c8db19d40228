package html_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/reporters/html/htmltest"
	"github.com/ananke/action/reporters/reportdir"
)

// openReport writes r's report directory into a new directory and opens
// its page.
func openReport(t *testing.T, r *report.Report) *htmltest.Page {
	t.Helper()
	dir := t.TempDir()
	if err := reportdir.Write(dir, r); err != nil {
		t.Fatal(err)
	}
	return htmltest.Open(t, filepath.Join(dir, reportdir.HTMLFile))
}

// openPage writes r's page alone into a new directory and opens it.
func openPage(t *testing.T, r *report.Report) *htmltest.Page {
	t.Helper()
	path := filepath.Join(t.TempDir(), reportdir.HTMLFile)
	if err := os.WriteFile(path, []byte(render(t, r)), 0o644); err != nil {
		t.Fatal(err)
	}
	return htmltest.Open(t, path)
}

// checkNoErrors reports each error the page logged.
func checkNoErrors(t *testing.T, p *htmltest.Page) {
	t.Helper()
	if errs := p.Errors(); len(errs) > 0 {
		t.Errorf("the page logged errors:\n%s", strings.Join(errs, "\n"))
	}
}
