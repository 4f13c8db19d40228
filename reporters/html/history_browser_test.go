package html_test

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/history"
	"github.com/ananke/action/internal/history/historytest"
	"github.com/ananke/action/reporters/html/htmltest"
	"github.com/ananke/action/reporters/reportdir"
)

// TestBrowserHistory opens a report read against 20 runs of main: the run's
// header names them; every row of the list has its mini trend, a mark per
// run; a test's view draws its results, durations and cost (or tokens) as
// sparklines of 21 marks — a test main never ran has dots there and a
// single point in its lines, gaps where a figure is unknown, never 0 — and
// a failed test's head says the history's verdict. The marks' colours are
// the page's, light and dark; the page loads nothing.
func TestBrowserHistory(t *testing.T) {
	rep := fixture()
	history.Attach(rep, historytest.History(historytest.Main(true)), "main", 0.05)
	says, isNew := map[string]string{}, map[string]bool{}
	for _, rt := range rep.Tests {
		says[rt.ID], isNew[rt.ID] = rt.History.Says, rt.History.New
	}
	if !strings.HasPrefix(says["tests/checkout"], "known flaky") || !isNew["tests/checkout"] || says["tests/refund"] != "new failure (not run on main in its history)" || says["tests/weather"] != "" {
		t.Fatalf("the fixture's verdicts: %q", says)
	}
	// The page alone: summary.json cannot hold a report's history yet
	// (its writer expects the tests last).
	path := filepath.Join(t.TempDir(), reportdir.HTMLFile)
	if err := os.WriteFile(path, []byte(render(t, rep)), 0o644); err != nil {
		t.Fatal(err)
	}
	p := htmltest.Open(t, path)
	p.WaitVisible("#list")
	var pairs map[string]string
	p.Eval(`Object.fromEntries([...document.querySelectorAll('#run dt')].map((dt) => [dt.textContent, dt.nextElementSibling.textContent]))`, &pairs)
	if pairs["History"] != "20 runs of main" {
		t.Errorf("the run's header says of the history %q", pairs["History"])
	}
	var marks map[string][]int
	p.Eval(`Object.fromEntries([...document.querySelectorAll('#list .item')].map((a) =>
		[a.dataset.id, [a.querySelectorAll('svg.spark.results .m').length, a.querySelectorAll('svg.spark.results .m.absent').length]]))`, &marks)
	for id, want := range map[string][]int{"tests/checkout": {21, 0}, "tests/weather": {21, 0}, "tests/search": {21, 0},
		"tests/refund": {21, 20}, "tests/legacy": {21, 20}, "tests/flip": {21, 20}} {
		if got := marks[id]; len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
			t.Errorf("%s's mini trend has %v marks (all, absent); want %v", id, got, want)
		}
	}
	if s := p.Text("#detail .attention"); !strings.Contains(s, says["tests/checkout"]) || !strings.Contains(s, says["tests/refund"]) {
		t.Errorf("the tests to look at lack the history's verdicts:\n%s", s)
	}

	// view opens a test and returns what its history view drew.
	type drawn struct {
		Results, Absent, Durations, Use int
		UseLabel, Head, Section, Last   string
		Path                            string
	}
	view := func(id string) drawn {
		p.SetHash("test=" + url.QueryEscape(id))
		p.WaitVisible(`#detail[data-test="` + id + `"] section.trend`)
		var d drawn
		p.Eval(`(() => {
			const s = document.querySelector('#detail section.trend'), use = s.querySelector('svg.spark.cost, svg.spark.tokens');
			const res = s.querySelectorAll('svg.spark.results .m');
			return { results: res.length, absent: s.querySelectorAll('svg.spark.results .m.absent').length,
				durations: s.querySelectorAll('svg.spark.duration .m').length, use: use ? use.querySelectorAll('.m').length : 0,
				useLabel: use ? use.closest('.trend-row').querySelector('.trend-label').textContent : '',
				path: s.querySelector('svg.spark.duration path').getAttribute('d'),
				head: document.querySelector('#detail .test-head').innerText, section: s.innerText,
				last: res[res.length - 1].textContent };
		})()`, &d)
		return d
	}

	t.Run("failing test", func(t *testing.T) {
		d := view("tests/checkout")
		if d.Results != 21 || d.Absent != 0 || d.Durations != 21 || d.Last != "this run: failed" {
			t.Errorf("checkout's view drew %+v", d)
		}
		// Known flaky, but failing here more often than main explains:
		// its failure counts as new, and its flag says so.
		var title string
		p.Eval(`document.querySelector('#detail .test-head .flag.blame.new').title`, &title)
		if !strings.Contains(d.Head, says["tests/checkout"]) || !strings.Contains(title, "counts as a new failure") {
			t.Errorf("checkout's head lacks its verdict %q or that it counts as new (%q):\n%s", says["tests/checkout"], title, d.Head)
		}
		if !strings.Contains(d.Section, "20 runs of main and this run, oldest first") || !strings.Contains(d.Section, "passed 20 of 20 runs on main · flake rate 10%") {
			t.Errorf("checkout's history says:\n%s", d.Section)
		}
		shot(p, "report-history.png")
		var titles []string
		p.Eval(`[...document.querySelectorAll('#detail svg.spark.results .m title')].map((t) => t.textContent)`, &titles)
		if len(titles) != 21 || titles[0] != "20 runs ago: passed" || titles[2] != "18 runs ago: passed, flaky" || titles[19] != "1 run ago: passed" {
			t.Errorf("the marks' titles: %q", titles)
		}
	})

	t.Run("cost", func(t *testing.T) {
		d := view("tests/search")
		if d.Results != 21 || d.Use != 21 || d.UseLabel != "Cost per attempt" || strings.Contains(d.Head, "new failure") {
			t.Errorf("search's view drew %+v", d)
		}
		if !strings.Contains(d.Section, "this run $0.00056 · before $0.012–$0.014") {
			t.Errorf("search's cost note:\n%s", d.Section)
		}
	})

	// Weather passes here; main reported no usage for it, this run its
	// tokens: one point, the runs before it gaps.
	t.Run("tokens, gaps", func(t *testing.T) {
		d := view("tests/weather")
		if d.Use != 1 || d.UseLabel != "Tokens per attempt" || p.Count(`#detail .test-head .flag.blame`) != 0 {
			t.Errorf("weather's view drew %+v", d)
		}
		if !strings.Contains(d.Section, "unknown before") {
			t.Errorf("weather's usage before this run is not unknown:\n%s", d.Section)
		}
	})

	t.Run("absent from main", func(t *testing.T) {
		d := view("tests/refund")
		if d.Results != 21 || d.Absent != 20 || d.Durations != 1 || d.Use != 0 || strings.Contains(d.Path, "L") {
			t.Errorf("refund's view drew %+v", d)
		}
		if !strings.Contains(d.Head, "new failure (not run on main in its history)") || p.Count(`#detail .test-head .flag.blame.new`) != 1 {
			t.Errorf("refund's head:\n%s", d.Head)
		}
		if !strings.Contains(d.Section, "not run on main in these 20 runs") {
			t.Errorf("refund's history says:\n%s", d.Section)
		}
	})

	// The marks take the page's colours, which follow the system's scheme.
	t.Run("colours", func(t *testing.T) {
		view("tests/checkout")
		const probe = `(() => {
			const colour = (v) => { const el = document.createElement('span'); el.style.color = 'var(' + v + ')'; document.body.append(el);
				const c = getComputedStyle(el).color; el.remove(); return c; };
			const fill = (sel) => getComputedStyle(document.querySelector('#detail ' + sel)).fill;
			return { pass: [fill('svg.spark.results .m.pass:not(.flaky)'), colour('--pass')], fail: [fill('svg.spark.results .m.fail'), colour('--fail')],
				flaky: [fill('svg.spark.results .m.pass.flaky'), colour('--warn')], line: [getComputedStyle(document.querySelector('#detail svg.spark.duration path')).stroke, colour('--bar')] };
		})()`
		scheme := map[string]map[string][]string{}
		for _, s := range []string{"light", "dark"} {
			p.ColorScheme(s)
			var got map[string][]string
			p.Eval(probe, &got)
			for k, v := range got {
				if len(v) != 2 || v[0] != v[1] || v[0] == "" {
					t.Errorf("%s: the %s mark is %q, not the page's colour", s, k, v)
				}
			}
			scheme[s] = got
		}
		for k := range scheme["light"] {
			if scheme["light"][k][0] == scheme["dark"][k][0] {
				t.Errorf("the %s mark is %s in light and dark", k, scheme["light"][k][0])
			}
		}
		p.ColorScheme("light")
	})

	if reqs := p.Requests(); len(reqs) != 1 || !strings.HasSuffix(reqs[0], "/"+reportdir.HTMLFile) {
		t.Errorf("the page made requests %q; want only its own document", reqs)
	}
	if errs := p.Errors(); len(errs) > 0 {
		t.Errorf("the page logged errors:\n%s", strings.Join(errs, "\n"))
	}
}
