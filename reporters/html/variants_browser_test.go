package html_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/reportdir"
)

// TestBrowserVariants opens the page of a run against three variants: the
// run's header gives the pair verdicts; the comparison view has each
// variant's totals, usage, median turn and error, and the matrix of tests
// × variants, each cell its status, passed runs, pass rate with interval,
// cost and latency, the significant difference marked on both cells; the
// matrix sorts by a variant's pass rate and by the largest difference,
// and filters to the tests that differ significantly; a cell opens its
// test under that variant, which links back to its row. The page loads
// nothing and logs no error.
func TestBrowserVariants(t *testing.T) {
	p := openReport(t, variantsReport())
	p.WaitVisible("#variants-summary")
	if got := p.Text("#variants-summary"); !strings.Contains(got, "Variants: baseline · careful · broken · 1 test significantly different") ||
		!strings.Contains(got, "careful passes as many tests, costs 22% less") || !strings.Contains(got, "broken did not run: "+brokenReason) {
		t.Errorf("the run's header says of the variants:\n%s", got)
	}
	if got := p.Text("#variants-link"); got != "Variants 3 compared · 1 significant" {
		t.Errorf("the list's link to the variants says %q", got)
	}

	p.Click("#variants-summary a")
	p.WaitVisible(`#detail[data-view="variants"] #variant-rows`)
	var heads [][]string
	p.Eval(`[...document.querySelectorAll('table.variant-heads tbody tr')].map((tr) => [...tr.cells].map((c) => c.innerText))`, &heads)
	want := [][]string{
		{"baseline", "server.env.MODEL_BEHAVIOUR", "2 of 3", "1", "0", "0", "66.7%", "46.3k tokens · $0.0078", "900 ms"},
		{"careful", "server.env.MODEL_BEHAVIOUR", "2 of 3", "1", "0", "0", "66.7%", "35.2k tokens · $0.006", "1.1 s"},
		{"broken", "command", "0 of 3", "0", "3", "0", "0%", "–", "–"},
		{"ERROR " + brokenReason},
	}
	if !slices.EqualFunc(heads, want, slices.Equal) {
		t.Errorf("the variants: %q; want %q", heads, want)
	}
	cells := func() [][]string {
		var got [][]string
		p.Eval(`[...document.querySelectorAll('#variant-rows tr')].map((tr) => [tr.dataset.test, ...[...tr.cells].slice(1).map((c) => c.innerText.replace(/\n/g, ' | '))])`, &got)
		return got
	}
	want = [][]string{
		{"tests/checkout", "✓ 6/6 | 100% (61–100%) | $0.00036 · 1.2 s", "✓ 6/6 | 100% (61–100%) | $0.00029 · 1.3 s", "! 0/1 | ERROR", ""},
		{"tests/refund", "✗ 1/6 ▼ | 16.7% (3–56%) | $0.00043 · 900 ms", "✓ 6/6 ▲ | 100% (61–100%) | $0.00033 · 1.1 s", "! 0/1 | ERROR",
			"careful passes more often than baseline (p = 0.015)"},
		{"tests/search", "✓ 4/6 | 66.7% (30–90%) | $0.0005 · 800 ms", "✗ 3/6 | 50% (19–81%) | $0.00038 · 950 ms", "! 0/1 | ERROR", ""},
	}
	if got := cells(); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("the matrix:\n%q\nwant\n%q", got, want)
	}
	var look struct{ Worse, Better, FailBg, PassBg, Sym, Fail string }
	p.Eval(`(() => {
		const color = (v) => { const s = document.createElement('span'); s.style.color = v; document.body.append(s); const c = getComputedStyle(s).color; s.remove(); return c; };
		const row = document.querySelector('#variant-rows tr[data-test="tests/refund"]');
		return { worse: getComputedStyle(row.cells[1]).backgroundColor, better: getComputedStyle(row.cells[2]).backgroundColor,
			failBg: color('var(--fail-bg)'), passBg: color('var(--pass-bg)'), sym: getComputedStyle(row.cells[1].querySelector('.sym')).color, fail: color('var(--fail)') };
	})()`, &look)
	if look.Worse != look.FailBg || look.Better != look.PassBg || look.Sym != look.Fail {
		t.Errorf("the significant difference is not marked in colour: %+v", look)
	}

	rows := func() []string {
		var got []string
		p.Eval(`[...document.querySelectorAll('#variant-rows tr')].map((tr) => tr.dataset.test)`, &got)
		return got
	}
	sortBy := func(by string) []string {
		p.Eval(`(() => { const s = document.getElementById('variant-sort'); s.value = '`+by+`'; s.dispatchEvent(new Event('change')); return true; })()`, nil)
		return rows()
	}
	for _, tc := range []struct {
		by   string
		want []string
	}{
		{"rate:0", []string{"tests/refund", "tests/search", "tests/checkout"}}, // baseline's pass rate, the lowest first
		{"rate:1", []string{"tests/search", "tests/checkout", "tests/refund"}}, // careful's; a tie keeps the suite's order
		{"rate:2", []string{"tests/checkout", "tests/refund", "tests/search"}}, // broken's: none judged
		{"spread", []string{"tests/refund", "tests/search", "tests/checkout"}},
		{"test", []string{"tests/checkout", "tests/refund", "tests/search"}},
	} {
		if got := sortBy(tc.by); !slices.Equal(got, tc.want) {
			t.Errorf("sorted by %s: %q; want %q", tc.by, got, tc.want)
		}
	}

	p.Eval(`document.getElementById('detail').scrollIntoView(); true`, nil)
	shot(p, "report-variants.png")

	p.Click(`.vfilters button[data-vfilter="significant"]`)
	if got := rows(); !slices.Equal(got, []string{"tests/refund"}) {
		t.Errorf("the significant filter shows %q", got)
	}
	if got := p.Text("#variant-shown"); got != "Showing 1 of 3 tests" {
		t.Errorf("the count of shown tests: %q", got)
	}
	var counts []string
	p.Eval(`[...document.querySelectorAll('.vfilters button .count')].map((c) => c.textContent)`, &counts)
	if !slices.Equal(counts, []string{"3", "3", "1"}) {
		t.Errorf("the filters count %q", counts)
	}

	// A cell opens the test under its variant, which links back to its row.
	p.Click(`#variant-rows tr[data-test="tests/refund"] td[data-variant="careful"] a`)
	p.WaitVisible(`#detail[data-test="tests/refund@careful"]`)
	if got := p.Text("#detail dl.pairs"); !strings.Contains(got, "careful compare variants") {
		t.Errorf("the test's view says of its variant:\n%s", got)
	}
	var view string
	p.Eval(`document.getElementById('detail').dataset.view || ''`, &view)
	if view != "" {
		t.Errorf("a test's view is marked %q", view)
	}
	p.Click("#detail a.compare")
	p.WaitVisible(`#variant-rows tr.shown[data-test="tests/refund"]`)
	if n := p.Count("#variant-rows tr.shown"); n != 1 {
		t.Errorf("%d rows marked; want the refund test's", n)
	}

	if reqs := p.Requests(); len(reqs) != 1 || !strings.HasSuffix(reqs[0], "/"+reportdir.HTMLFile) {
		t.Errorf("the page made requests %q; want only its own document", reqs)
	}
	checkNoErrors(t, p)
}

// TestBrowserVariantsMarkup: markup in a test's name, a variant's error
// and a pair's line shows as text, never run.
func TestBrowserVariantsMarkup(t *testing.T) {
	p := openPage(t, hostileVariants())
	p.WaitVisible("#variants-summary")
	want := strings.TrimSpace(hostile) // innerText drops the trailing space
	if got := p.Text("#variants-summary .pair-lines"); !strings.Contains(got, want) {
		t.Errorf("the pair's line shows as %q", got)
	}
	p.SetHash("variants")
	p.WaitVisible("#variant-rows")
	if got := p.Text(`#variant-rows tr[data-test="tests/refund"] td .name`); got != want {
		t.Errorf("the refund test's name shows as %q", got)
	}
	if got := p.Text("table.variant-heads tr.variant-error"); !strings.Contains(got, want) {
		t.Errorf("the broken variant's error shows as %q", got)
	}
	var ran struct {
		Pwned  bool
		Images int
	}
	p.Eval(`({ pwned: !!window.pwned, images: document.querySelectorAll('img').length })`, &ran)
	if ran.Pwned || ran.Images > 0 {
		t.Errorf("the markup ran: %+v", ran)
	}
	checkNoErrors(t, p)
}

// TestBrowserNoVariants: a page of a run without variants shows no
// comparison, and its address for the comparison view shows the tests to
// look at, with no error.
func TestBrowserNoVariants(t *testing.T) {
	p := openPage(t, reporttest.Report())
	p.WaitVisible("#list")
	if n := p.Count("#variants-summary, #variants-link, table.variant-matrix, a.compare"); n != 0 {
		t.Errorf("%d variant elements in a page without variants", n)
	}
	if got := p.Text("body"); strings.Contains(got, "ariant") {
		t.Errorf("a page without variants speaks of them:\n%s", got)
	}
	p.SetHash("variants")
	p.WaitVisible("#detail .attention")
	p.SetHash("test=tests%2Fcheckout")
	p.WaitVisible(`#detail[data-test="tests/checkout"]`)
	if got := p.Text("#detail dl.pairs"); strings.Contains(got, "Variant") {
		t.Errorf("a test without a variant says one:\n%s", got)
	}
	checkNoErrors(t, p)
}
