package html_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/labels"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/html/htmltest"
	"github.com/ananke/action/reporters/reportdir"
	"github.com/ananke/action/schema"
	"github.com/ananke/action/schema/schematest"
)

// TestBrowserLabels: a reviewer labels judges' verdicts in the page as a
// person would — agrees with one criterion's verdict, disagrees with
// another's and says why in a note that would end a script element,
// agrees with the verdict of a run that failed — and downloads the labels:
// the file is an ananke.labels/v1 file labels.Read takes and the
// published schema accepts, each label keyed by its test, attempt,
// assertion, scope, criterion, judge model, prompt hash and verdict, with
// the answer it gives. A reload keeps the labels; a labels file loads
// back in, leaving out what is not about the page; the header leads to
// the next verdict to label.
func TestBrowserLabels(t *testing.T) {
	dir := t.TempDir()
	if err := reportdir.Write(dir, reporttest.JudgesReport()); err != nil {
		t.Fatal(err)
	}
	p := htmltest.Open(t, filepath.Join(dir, reportdir.HTMLFile))
	p.WaitVisible("#labels")
	if got := p.Text("#labels-count"); got != "0 of 6 judge verdicts labelled" {
		t.Errorf("the header says %q before any label", got)
	}

	// tests/tone: its turn judge passed (folded), its test judge was
	// reported as a warning (open), its criterion and reasoning awkward.
	p.SetHash("test=tests%2Ftone")
	p.WaitVisible(`section.assertions details[data-id="test.judge"] table.judge`)
	if s := p.Text(`section.assertions details[data-id="test.judge"]`); !strings.Contains(s, "Reported as a warning: "+reporttest.Demoted) ||
		!strings.Contains(s, "reported as a warning") || !strings.Contains(s, reporttest.JudgeModel) || !strings.Contains(s, reporttest.JudgePromptHash) {
		t.Errorf("the demoted judge does not say why, or its model and prompt hash:\n%s", s)
	}
	var cells []string
	p.Eval(`[...document.querySelectorAll('section.assertions details[data-id="test.judge"] tr.criterion:first-child td')].slice(0, 3).map((td) => td.textContent)`, &cells)
	if want := []string{"apologises with " + reporttest.Awkward, "✗ false", "It never apologises: " + reporttest.Awkward + " key ***"}; strings.Join(cells, "|") != strings.Join(want, "|") {
		t.Errorf("the criterion's row shows %q; want %q", cells, want)
	}
	if n := p.Count("script"); n != 2 {
		t.Errorf("the page has %d script elements; want its own 2", n)
	}

	const note = `it did say sorry </script><script>alert(1)</script> "quoted" & 'single'`
	p.Click(`section.assertions details[data-id="turn[0].judge"] > summary`)
	p.Click(`section.assertions details[data-id="turn[0].judge"] tr.criterion:nth-child(1) button[data-label="agree"]`)
	p.Click(`section.assertions details[data-id="test.judge"] tr.criterion:nth-child(1) button[data-label="disagree"]`)
	p.Type(`section.assertions details[data-id="test.judge"] tr.criterion:nth-child(1) .mark-note`, note)
	// tests/refund-tone ran twice: its first run's judge failed, shown in
	// the runs' table.
	p.SetHash("test=tests%2Frefund-tone")
	p.WaitVisible(`table.attempts`)
	p.Click(`table.attempts tbody tr:nth-child(1) details[data-id="turn[0].judge"] > summary`)
	p.Click(`table.attempts tbody tr:nth-child(1) details[data-id="turn[0].judge"] tr.criterion button[data-label="agree"]`)
	if got := p.Text("#labels-count"); got != "3 of 6 judge verdicts labelled" {
		t.Errorf("the header says %q after three labels", got)
	}
	p.Eval(`window.scrollTo(0, 0); true`, nil)
	shot(p, "report-labels.png")

	file, name := p.Download(t.TempDir(), func() { p.Click("#labels-download") })
	if name != "ananke-labels-20261122T093000.json" {
		t.Errorf("the download is named %q", name)
	}
	downloaded, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	got, err := labels.Read(bytes.NewReader(downloaded))
	if err != nil {
		t.Fatalf("labels.Read of the download: %v", err)
	}
	if err := schematest.Validate(schematest.Compile(t, schema.Labels, "ananke.labels.schema.json"), downloaded); err != nil {
		t.Errorf("the download does not match the labels schema: %v\n%s", err, downloaded)
	}
	judge := func(l labels.Label) labels.Label {
		l.JudgeModel, l.PromptHash = reporttest.JudgeModel, reporttest.JudgePromptHash
		return l
	}
	want := []labels.Label{
		judge(labels.Label{Test: "tests/tone", Assertion: "turn[0].judge", Scope: "turn[0]", Criterion: "greets the user", Verdict: "true", Label: labels.Agree}),
		judge(labels.Label{Test: "tests/tone", Assertion: "test.judge", Scope: "test", Criterion: "apologises with " + reporttest.Awkward, Verdict: "false",
			Label: labels.Disagree, Note: note}),
		judge(labels.Label{Test: "tests/refund-tone", Attempt: 1, Assertion: "turn[0].judge", Scope: "turn[0]", Criterion: "offers a refund politely",
			Verdict: "false", Label: labels.Agree}),
	}
	if got.Schema != labels.Schema || got.Run != "2026-11-22T09:30:00Z" || len(got.Labels) != len(want) {
		t.Fatalf("the download holds %+v", got)
	}
	for i, w := range want {
		if got.Labels[i] != w {
			t.Errorf("label %d is\n%+v; want\n%+v", i, got.Labels[i], w)
		}
	}
	// Agreeing with a true verdict says the criterion holds; disagreeing
	// with a false one too; agreeing with a false one says it does not.
	for i, met := range []bool{true, true, false} {
		if got.Labels[i].Met() != met {
			t.Errorf("label %d: Met() = %v; want %v", i, got.Labels[i].Met(), met)
		}
	}

	// A reload keeps the labels, the note whole (the warned judge is
	// listed before the one that passed).
	p.Reload()
	p.WaitVisible("#labels")
	if got := p.Text("#labels-count"); got != "3 of 6 judge verdicts labelled" {
		t.Errorf("after a reload the header says %q", got)
	}
	p.SetHash("test=tests%2Ftone")
	p.WaitVisible(`section.assertions details[data-id="test.judge"] table.judge`)
	var kept struct {
		Pressed []string
		Note    string
	}
	p.Eval(`({pressed: [...document.querySelectorAll('section.assertions tr.criterion button[aria-pressed="true"]')].map((b) => b.dataset.label),
		note: document.querySelector('section.assertions details[data-id="test.judge"] tr.criterion:nth-child(1) .mark-note').value})`, &kept)
	if strings.Join(kept.Pressed, " ") != "disagree agree" || kept.Note != note {
		t.Errorf("after a reload the test's labels are %q, its note %q", kept.Pressed, kept.Note)
	}

	// A labels file loads back in: its label of this page's verdict is
	// taken, one about a verdict the page does not show is left out.
	load := filepath.Join(t.TempDir(), "mine.json")
	in := &labels.File{Labels: []labels.Label{
		judge(labels.Label{Test: "tests/tone", Assertion: "test.judge", Scope: "test", Criterion: "stays on topic", Verdict: "inconclusive", Label: labels.Disagree, Note: "it is"}),
		judge(labels.Label{Test: "tests/other", Assertion: "turn[0].judge", Scope: "turn[0]", Criterion: "stays on topic", Verdict: "true", Label: labels.Agree}),
	}}
	lf, err := os.Create(load)
	if err != nil {
		t.Fatal(err)
	}
	if err := labels.Write(lf, in); err != nil {
		t.Fatal(err)
	}
	lf.Close()
	p.SetFiles("#labels-file", load)
	p.WaitVisible("#labels-said")
	if got := p.Text("#labels-said"); got != "Loaded 1 label from mine.json; left out 1 not about a verdict this page shows." {
		t.Errorf("loading a labels file says %q", got)
	}
	if got := p.Text("#labels-count"); got != "4 of 6 judge verdicts labelled" {
		t.Errorf("after loading, the header says %q", got)
	}
	var loaded string
	p.Eval(`document.querySelector('section.assertions details[data-id="test.judge"] tr.criterion:nth-child(2) button[aria-pressed="true"]').dataset.label`, &loaded)
	if loaded != labels.Disagree {
		t.Errorf("the loaded label shows as %q", loaded)
	}

	// Next unlabelled opens the first verdict without a label, in the
	// page's order, and puts the focus on its buttons.
	p.SetHash("test=tests%2Frefund-tone")
	p.WaitVisible(`table.attempts`)
	p.Click("#labels-next")
	var next struct{ Hash, Key string }
	p.Eval(`({hash: location.hash, key: document.activeElement.closest('tr.criterion').dataset.key})`, &next)
	if next.Hash != "#test=tests%2Ftone" || next.Key != `["tests/tone",0,"turn[0].judge","answers in the user's language"]` {
		t.Errorf("next unlabelled went to %+v", next)
	}

	for _, r := range p.Requests() {
		if !strings.HasSuffix(r, "/"+reportdir.HTMLFile) && !strings.HasPrefix(r, "blob:") {
			t.Errorf("the page requested %q; want only its own document and the labels it made", r)
		}
	}
	if errs := p.Errors(); len(errs) > 0 {
		t.Errorf("the page logged errors:\n%s", strings.Join(errs, "\n"))
	}
}
