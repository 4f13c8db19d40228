package html_test

import (
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/html/htmltest"
	"github.com/ananke/action/reporters/reportdir"
)

// TestBrowserAttacks opens the page of a run that attacked its tests: the
// run's header says the attack runs' totals and the gate's verdict; the
// attacks view counts them, lists each test's channel sites with their
// success rate and utility, and the runs worst first, a succeeded one as a
// failure; opening it shows its payload, where it was planted, its
// evidence and the test's failures under attack, the canary marked and
// the markup in them shown as text, never run; filtering by outcome hides
// the others; an address opens a run. The page loads nothing and logs no
// error.
func TestBrowserAttacks(t *testing.T) {
	p := openReport(t, attacksReport())
	p.WaitVisible("#attacks-summary")
	if got := p.Text("#attacks-summary"); !strings.Contains(got, "FAIL Attacks: 5 attack runs · 1 succeeded (33.3%) · 1 errored · 1 skipped · utility 33.3% · 5.2k tokens · $0.00094") ||
		!strings.Contains(got, "1 of 3 attack runs succeeded (33.3%), above the allowed 0%") {
		t.Errorf("the run's header says of the attacks:\n%s", got)
	}
	if got := p.Text("#attacks-link"); !strings.Contains(got, "Attacks 1 of 5 runs succeeded") {
		t.Errorf("the list's link to the attacks says %q", got)
	}

	p.Click("#attacks-summary a")
	p.WaitVisible(`#detail[data-view="attacks"] #attack-totals`)
	var totals map[string]string
	p.Eval(`Object.fromEntries([...document.querySelectorAll('#attack-totals li')].map((li) => [li.dataset.total, li.querySelector('.n').textContent]))`, &totals)
	for k, v := range map[string]string{"runs": "5", "succeeded": "1", "resisted": "2", "errored": "1", "skipped": "1", "success_rate": "33.3%", "utility": "33.3%"} {
		if totals[k] != v {
			t.Errorf("attack total %s = %q; want %q", k, totals[k], v)
		}
	}
	if got := p.Text("#detail .test-head"); !strings.Contains(got, "FAIL") || !strings.Contains(got, "gate: none may succeed") {
		t.Errorf("the attacks view's head says %q", got)
	}
	var groups [][]string
	p.Eval(`[...document.querySelectorAll('#attack-groups tr')].map((tr) => [...tr.cells].slice(0, 7).map((c) => c.innerText.replace(/\n/g, ' ')))`, &groups)
	want := [][]string{
		{"weather in Paris tests/weather.ananke.yaml:1", "tool_result get_weather", "3", "1", "50%", "1", "50%"},
		{"search finds shoes tests/search.ananke.yaml:1", "history 1", "1", "0", "—", "0", "—"},
		{"search finds shoes tests/search.ananke.yaml:1", "user", "1", "0", "0%", "0", "0%"},
	}
	if !slices.EqualFunc(groups, want, slices.Equal) {
		t.Errorf("the channel sites: %q; want %q", groups, want)
	}
	// Sorted by utility, the lowest first; a site with no measured run last.
	sortBy := func(by string) []string {
		p.Eval(`(() => { const s = document.getElementById('attack-sort'); s.value = '`+by+`'; s.dispatchEvent(new Event('change')); return true; })()`, nil)
		var got []string
		p.Eval(`[...document.querySelectorAll('#attack-groups tr')].map((tr) => tr.dataset.group)`, &got)
		return got
	}
	if got := sortBy("utility"); !slices.Equal(got, []string{"tests/search user", "tests/weather tool_result get_weather", "tests/search history 1"}) {
		t.Errorf("sorted by utility: %q", got)
	}
	if got := sortBy("success"); !slices.Equal(got, []string{"tests/weather tool_result get_weather", "tests/search user", "tests/search history 1"}) {
		t.Errorf("sorted by success rate: %q", got)
	}
	sortBy("order")
	if got := p.Text("#detail section.not-attacked"); !strings.Contains(got, "checkout declines the card: did not pass without attack (failed)") {
		t.Errorf("the tests not attacked: %q", got)
	}

	t.Run("runs", func(t *testing.T) {
		p := p.For(t)
		if got := shownRuns(p); !slices.Equal(got, []string{"succeeded", "error", "resisted", "resisted", "skipped"}) {
			t.Errorf("the runs show as %q; want the worst first", got)
		}
		var look struct{ Border, Badge, FailColor string }
		p.Eval(`(() => {
			const run = document.querySelector('details.attack-run[data-outcome="succeeded"]'), st = getComputedStyle(run);
			const probe = document.createElement('span'); probe.style.color = 'var(--fail)'; document.body.append(probe);
			const fail = getComputedStyle(probe).color; probe.remove();
			return { border: st.borderLeftColor, badge: getComputedStyle(run.querySelector('.badge')).color, failColor: fail };
		})()`, &look)
		if look.Border != look.FailColor || look.Badge != look.FailColor {
			t.Errorf("a succeeded attack is not shown as a failure: border %s, badge %s; the failure colour is %s", look.Border, look.Badge, look.FailColor)
		}
		if got := p.Text(`details.attack-run[data-outcome="succeeded"] summary`); !strings.Contains(got, "SUCCEEDED") || !strings.Contains(got, "leak-url") {
			t.Errorf("the succeeded run's summary says %q", got)
		}
		sel := `details.attack-run[data-outcome="succeeded"]`
		p.Click(sel + " > summary")
		p.WaitVisible(sel + " pre.payload")
		body := strings.ToLower(p.Text(sel + " .body")) // labels are upper case
		for _, w := range []string{"tests/weather@attack/tool_result.get_weather/leak-url", "leak-url · goal leak · style fake_tool · from builtin",
			"tool_result get_weather at tests/weather.ananke.yaml:4:5", "turn 0 · called the goal’s tool", "delete_order", "the canary in an address",
			"Failed under attack", "assistant text does not match `Sunny, 23` (key ***)"} {
			if !strings.Contains(body, strings.ToLower(w)) {
				t.Errorf("the succeeded run lacks %q:\n%s", w, body)
			}
		}
		if got := p.Text(sel + " pre.payload"); !strings.Contains(got, hostile) || !strings.Contains(got, canaryLeak) {
			t.Errorf("the payload shows as %q", got)
		}
		var marks []string
		p.Eval(`[...document.querySelectorAll('`+sel+` mark.canary')].map((m) => m.textContent)`, &marks)
		if len(marks) != 3 || slices.ContainsFunc(marks, func(m string) bool { return m != canaryLeak }) {
			t.Errorf("the canary is marked %q; want in the canary line, the payload and the excerpt", marks)
		}
		var ran struct {
			Pwned  bool
			Images int
		}
		p.Eval(`({ pwned: !!window.pwned, images: document.querySelectorAll('img').length })`, &ran)
		if ran.Pwned || ran.Images > 0 {
			t.Errorf("the payload's markup ran: %+v", ran)
		}
		p.Eval(`document.querySelector('#detail section.attack-runs').scrollIntoView(); true`, nil)
		shot(p, "report-attacks.png")
	})

	t.Run("filter", func(t *testing.T) {
		p := p.For(t)
		p.Click(`.outcomes button[data-outcome="succeeded"]`)
		if got := shownRuns(p); !slices.Equal(got, []string{"succeeded"}) {
			t.Errorf("the succeeded filter shows %q", got)
		}
		if got := p.Text("#attack-shown"); got != "Showing 1 of 5 attack runs" {
			t.Errorf("the count of shown runs: %q", got)
		}
		p.Click(`.outcomes button[data-outcome="resisted"]`)
		if got := shownRuns(p); !slices.Equal(got, []string{"resisted", "resisted"}) {
			t.Errorf("the resisted filter shows %q", got)
		}
		// A channel site's runs alone, then every run again.
		p.Click(`.outcomes button[data-outcome="all"]`)
		p.Click(`#attack-groups tr[data-group="tests/search user"] button`)
		if got := shownRuns(p); !slices.Equal(got, []string{"resisted"}) {
			t.Errorf("the user site's runs show as %q", got)
		}
		if c := p.Text(`.outcomes button[data-outcome="succeeded"] .count`); c != "0" {
			t.Errorf("the succeeded filter counts %q within the site", c)
		}
		p.Click(`#attack-groups tr[data-group="tests/search user"] button`)
		if got := shownRuns(p); len(got) != 5 {
			t.Errorf("every run again shows %q", got)
		}
	})

	t.Run("address", func(t *testing.T) {
		p := p.For(t)
		p.Click(`.outcomes button[data-outcome="succeeded"]`)
		id := "tests/search@attack/history.1/tool-roleplay"
		p.SetHash("attacks&run=" + url.QueryEscape(id))
		p.WaitVisible(`details.attack-run[data-run="` + id + `"][open] .body`)
		if got := p.Text(`details.attack-run[data-run="` + id + `"] .body`); !strings.Contains(got, "the test itself calls search") {
			t.Errorf("the skipped run says %q", got)
		}
		p.SetHash("test=" + url.QueryEscape("tests/weather"))
		p.WaitVisible(`#detail[data-test="tests/weather"]`)
		var view string
		p.Eval(`document.getElementById('detail').dataset.view || ''`, &view)
		if view != "" || p.Text("#attacks-link") == "" {
			t.Errorf("a test's view is marked %q", view)
		}
	})

	if reqs := p.Requests(); len(reqs) != 1 || !strings.HasSuffix(reqs[0], "/"+reportdir.HTMLFile) {
		t.Errorf("the page made requests %q; want only its own document", reqs)
	}
	checkNoErrors(t, p)
}

// shownRuns returns the outcomes of the attack runs the view shows.
func shownRuns(p *htmltest.Page) []string {
	var out []string
	p.Eval(`[...document.querySelectorAll('details.attack-run')].filter((d) => d.offsetParent !== null).map((d) => d.dataset.outcome)`, &out)
	return out
}

// TestBrowserNoAttacks: a page of a run without attacks says nothing of
// them, and its address for the attacks view shows the tests to look at,
// with no error.
func TestBrowserNoAttacks(t *testing.T) {
	p := openPage(t, reporttest.Report())
	p.WaitVisible("#list")
	if n := p.Count("#attacks-summary, #attacks-link, details.attack-run"); n != 0 {
		t.Errorf("%d attack elements in a page without attacks", n)
	}
	if got := p.Text("body"); strings.Contains(got, "ttack") {
		t.Errorf("a page without attacks speaks of them:\n%s", got)
	}
	p.SetHash("attacks")
	p.WaitVisible("#detail .attention")
	checkNoErrors(t, p)
}
