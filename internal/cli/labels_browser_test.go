package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ananke/action/internal/judge"
	"github.com/ananke/action/internal/labels"
	"github.com/ananke/action/reporters/html/htmltest"
	"github.com/ananke/action/reporters/reportdir"
)

// TestBrowserLabelsGate: labels made in the report page, in a headless
// Chromium, decide which judge gates. A run's twenty-four judge verdicts
// (twelve tests, each judged "polite" on its turn and "brief" on the whole
// conversation) are labelled in index.html as a reviewer would, one after
// another through "Next unlabelled": every verdict of "polite" agreed
// with, every verdict of "brief" disagreed with (one with a note), so the
// labels contradict brief's judge on purpose. The downloaded file is what
// `ananke judge calibrate` reads: with the fake model answering as it did
// in the run, polite's kappa is 1 and brief's −1. Under judges.gate, a
// test whose polite verdict fails then fails the run (exit 1), while a
// test where only brief's fails passes with brief's failure reported as a
// warning, saying why on the console and in summary.json.
//
// Without a Chromium it is skipped, or fails when ANANKE_REQUIRE_BROWSER=1,
// as CI sets (htmltest.Open).
func TestBrowserLabelsGate(t *testing.T) {
	// A run whose judges warn, so that every verdict is made (calibrationRun).
	dir, env, agent, model := calibrationRun(t)
	sum, err := reportdir.ReadSummary(filepath.Join(dir, "first"))
	if err != nil {
		t.Fatal(err)
	}

	// Labelled in the page.
	p := htmltest.Open(t, filepath.Join(dir, "first", reportdir.HTMLFile))
	p.WaitVisible("#labels")
	if got := p.Text("#labels-count"); got != "0 of 24 judge verdicts labelled" {
		t.Fatalf("before labelling the header says %q", got)
	}
	const note = "two words, but it says please"
	noted := ""
	for range 24 {
		p.Click("#labels-next")
		var at struct{ Key, Criterion, Verdict string }
		p.Eval(`(() => { const row = document.activeElement && document.activeElement.closest('tr.criterion');
			return row ? {key: row.dataset.key, criterion: row.querySelector('td.crit').textContent, verdict: row.querySelector('td.verdict').textContent} : {}; })()`, &at)
		if at.Key == "" || strings.ContainsAny(at.Key, `'\`) {
			t.Fatalf("Next unlabelled led to no verdict's buttons (%+v); the header says %q", at, p.Text("#labels-count"))
		}
		row := `section.assertions tr.criterion[data-key='` + at.Key + `']`
		switch at.Criterion {
		case "polite":
			p.Click(row + ` button[data-label="agree"]`)
		case "brief":
			p.Click(row + ` button[data-label="disagree"]`)
			if noted == "" {
				p.Type(row+` .mark-note`, note)
				noted = at.Key
			}
		default:
			t.Fatalf("a verdict on %q (%s)", at.Criterion, at.Key)
		}
	}
	if got := p.Text("#labels-count"); got != "24 of 24 judge verdicts labelled" {
		t.Errorf("after labelling the header says %q", got)
	}
	p.Click("#labels-next")
	if got := p.Text("#labels-said"); got != "Every judge verdict is labelled." {
		t.Errorf("Next unlabelled, with every verdict labelled, says %q", got)
	}
	file, name := p.Download(t.TempDir(), func() { p.Click("#labels-download") })
	if want := "ananke-labels-" + sum.StartedAt.UTC().Format("20060102T150405") + ".json"; name != want {
		t.Errorf("the download is named %q; want %q", name, want)
	}
	for _, r := range p.Requests() {
		if !strings.HasSuffix(r, "/"+reportdir.HTMLFile) && !strings.HasPrefix(r, "blob:") {
			t.Errorf("the page requested %q; want only its own document and the labels it made", r)
		}
	}
	if errs := p.Errors(); len(errs) > 0 {
		t.Errorf("the page logged errors:\n%s", strings.Join(errs, "\n"))
	}

	// The download, saved beside the suite under the name the page gave
	// it, is the labels file the run's verdicts call for.
	body, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), body, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := labels.Read(strings.NewReader(string(body)))
	if err != nil {
		t.Fatalf("labels.Read of the download: %v\n%s", err, body)
	}
	if f.Run != sum.StartedAt.Format(time.RFC3339Nano) || len(f.Labels) != 24 {
		t.Fatalf("the download is of run %q with %d labels; want %q and 24", f.Run, len(f.Labels), sum.StartedAt.Format(time.RFC3339Nano))
	}
	counts := map[string]int{}
	for _, l := range f.Labels {
		counts[l.Criterion+" "+l.Label]++
		if l.JudgeModel != "m" || l.PromptHash != judge.PromptHash("") || l.Attempt != 0 {
			t.Errorf("label %+v: want judge m with the default prompt, of a test that ran once", l)
		}
		if want := l.Verdict == "true"; l.Criterion == "brief" {
			want = !want // disagreed with: the opposite holds
			if l.Met() != want {
				t.Errorf("label %+v: Met() = %v", l, l.Met())
			}
		} else if l.Met() != want {
			t.Errorf("label %+v: Met() = %v", l, l.Met())
		}
		if (l.Note != "") != (labelKeyOf(l) == noted) || l.Note != "" && l.Note != note {
			t.Errorf("label %+v: its note; want %q on %s only", l, note, noted)
		}
	}
	if counts["polite agree"] != 12 || counts["brief disagree"] != 12 {
		t.Errorf("the labels are %v; want polite agreed with 12 times, brief disagreed with 12 times", counts)
	}

	// Calibrated with the judge the run had: polite's agrees with every
	// label, brief's with none.
	gate := "}\njudges: {gate: {min_kappa: 0.6, min_labels: 10}}"
	calibrationSuite(t, dir, agent.Endpoint(), model.URL, "critical", gate)
	r := run(t, dir, env, "judge", "calibrate", "--report", "first", name)
	hash := judge.PromptHash("")
	belowReason := `the calibration of "brief" has kappa −1 [−1, −1] over 12 labels, below 0.6`
	for _, want := range []string{
		"Judge m with prompt " + hash + " against 24 labels from " + name + ", on first:",
		"  brief             12  0% [0–24%]        −1 [−1, −1]",
		"  polite            12  100% [76–100%]    1 [1, 1]",
		"Disagreements (12):",
		"Wrote .ananke/calibration.json: the calibration of 2 criteria for judge m with prompt " + hash + ".",
		"  ✓ \"polite\": its judge gates",
		"  ✗ \"brief\": its judge's verdicts are warnings: " + belowReason,
	} {
		if !strings.Contains(r.out, want) {
			t.Errorf("calibrate lacks %q", want)
		}
	}
	if r.code != ExitPass || strings.Contains(r.out, "Not compared") || t.Failed() {
		t.Fatalf("calibrate: exit %d\n%s%s", r.code, r.out, r.errOut)
	}
	cal, err := readCalibration(filepath.Join(dir, ".ananke", "calibration.json"))
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := cal.Find("m", hash, "polite"); !ok || c.N != 12 || c.Agreements != 12 || c.Kappa == nil || *c.Kappa != 1 || len(c.Labels) != 1 || c.Labels[0] != name {
		t.Errorf("the calibration of polite: %+v %v", c, ok)
	}
	if c, ok := cal.Find("m", hash, "brief"); !ok || c.N != 12 || c.Agreements != 0 || c.Kappa == nil || *c.Kappa != -1 {
		t.Errorf("the calibration of brief: %+v %v", c, ok)
	}

	// Gated: polite's judge fails the run ...
	r = run(t, dir, env, "run", "--report-dir", "odd", "--run", "^t01$")
	if r.code != ExitFail || !strings.Contains(r.out, `"polite" (false: fake)`) || strings.Contains(r.out, "reported as a warning") {
		t.Errorf("t01, whose polite verdict fails: exit %d, want 1 and no warning\n%s%s", r.code, r.out, r.errOut)
	}
	// ... while brief's failure is a warning, saying why (summary.json
	// reports the judge with severity warning and the reason).
	r = run(t, dir, env, "run", "--report-dir", "even", "--run", "^t00$")
	if r.code != ExitPass || !strings.Contains(r.out, "(reported as a warning: "+belowReason+")") {
		t.Errorf("t00, whose brief verdict fails: exit %d, want 0 and brief reported as a warning\n%s%s", r.code, r.out, r.errOut)
	}
	even, err := reportdir.ReadSummary(filepath.Join(dir, "even"))
	if err != nil {
		t.Fatal(err)
	}
	demoted := map[string]string{}
	for _, a := range even.Tests[0].Assertions {
		if a.Judge != nil {
			demoted[a.Judge.Criteria[0].Criterion] = string(a.Status) + " " + a.Severity + ": " + a.Judge.Demoted
		}
	}
	if want := map[string]string{"polite": "pass critical: ", "brief": "warn warning: " + belowReason}; len(demoted) != 2 || demoted["polite"] != want["polite"] || demoted["brief"] != want["brief"] {
		t.Errorf("summary.json's judges of t00 (status severity: demoted): %q; want %q", demoted, want)
	}
}

// labelKeyOf is the page's key of the verdict a label is about.
func labelKeyOf(l labels.Label) string {
	return `["` + l.Test + `",` + strconv.Itoa(l.Attempt) + `,"` + l.Assertion + `","` + l.Criterion + `"]`
}
