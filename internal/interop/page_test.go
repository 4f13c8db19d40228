package interop

import (
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/reporters/html/htmltest"
	"github.com/ananke/action/reporters/reportdir"
)

// checkPage opens the report's index.html in a headless Chromium and checks
// that a reader finds, for every failing assertion of a real producer's
// run, its message, its evidence, and links to each event the evidence
// rests on — which light up when followed — while the page loads nothing
// but itself and logs no error.
func checkPage(t *testing.T, reports string) {
	t.Helper()
	r, err := reportdir.ReadSummary(reports)
	if err != nil {
		t.Fatal(err)
	}
	p := htmltest.Open(t, filepath.Join(reports, reportdir.HTMLFile))
	p.WaitVisible("#list")
	failing := 0
	for _, tr := range r.Tests {
		if len(tr.Failed()) == 0 {
			continue
		}
		p.SetHash("test=" + url.QueryEscape(tr.ID))
		p.WaitVisible(`#detail[data-test="` + tr.ID + `"]`)
		for _, a := range tr.Failed() {
			failing++
			checkAssertion(t, p, tr, a)
		}
	}
	if failing == 0 {
		t.Fatal("the run has no failing assertion to look at")
	}
	if reqs := p.Requests(); len(reqs) != 1 || !strings.HasSuffix(reqs[0], "/"+reportdir.HTMLFile) {
		t.Errorf("the page made requests %q; want only its own document", reqs)
	}
	if errs := p.Errors(); len(errs) > 0 {
		t.Errorf("the page logged errors:\n%s", strings.Join(errs, "\n"))
	}
}

// checkAssertion checks one failing assertion as the page shows it.
func checkAssertion(t *testing.T, p *htmltest.Page, tr report.Test, a report.Assertion) {
	t.Helper()
	sel := `#detail details.assertion.st-fail[data-id="` + a.ID + `"]`
	var shown struct {
		Open                 bool
		Text                 string
		Evidence, Links, Off int
	}
	p.Eval(`(() => {
		const d = document.querySelector('`+sel+`');
		if (!d) return { open: false, text: '', evidence: -1, links: 0, off: 0 };
		return { open: d.open, text: d.innerText, evidence: d.querySelectorAll('li.evidence').length,
			links: d.querySelectorAll('.evidence a.ev-link').length, off: d.querySelectorAll('.ev-off').length };
	})()`, &shown)
	name := tr.ID + " " + a.ID
	if shown.Evidence < 0 {
		t.Errorf("%s: the page does not show the failing assertion", name)
		return
	}
	if !shown.Open {
		t.Errorf("%s: the failing assertion is folded", name)
	}
	if text := squash(shown.Text); !strings.Contains(text, squash(a.Message)) {
		t.Errorf("%s: the page lacks the message %q:\n%s", name, a.Message, shown.Text)
	}
	if shown.Evidence != len(a.Evidence) {
		t.Errorf("%s: %d evidence items shown; the report has %d", name, shown.Evidence, len(a.Evidence))
	}
	referring := 0
	for _, e := range a.Evidence {
		if e.Note != "" && !strings.Contains(squash(shown.Text), squash(e.Note)) {
			t.Errorf("%s: the evidence note %q is not shown", name, e.Note)
		}
		if len(e.EventRefs) > 0 {
			referring++
		}
	}
	if shown.Links < referring {
		t.Errorf("%s: %d evidence links; %d evidence items name events", name, shown.Links, referring)
	}
	if shown.Off > 0 {
		t.Errorf("%s: %d event references point at events the page does not hold", name, shown.Off)
	}
	// Every evidence link leads to events, highlighted and in view.
	for i := range shown.Links {
		var hl struct{ Count, Visible int }
		p.Eval(`(() => {
			document.querySelectorAll('`+sel+` .evidence a.ev-link')[`+strconv.Itoa(i)+`].click();
			const hl = [...document.querySelectorAll('.hl')];
			return { count: hl.length, visible: hl.filter((e) => { const r = e.getBoundingClientRect(); return r.height > 0 && r.bottom > 0 && r.top < innerHeight; }).length };
		})()`, &hl)
		if hl.Count == 0 || hl.Visible == 0 {
			t.Errorf("%s: evidence link %d highlights %d events, %d in view", name, i, hl.Count, hl.Visible)
		}
	}
}

// squash folds runs of white space, as a page's text does.
func squash(s string) string { return strings.Join(strings.Fields(s), " ") }
