package html_test

import (
	"flag"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/html/htmltest"
	"github.com/ananke/action/reporters/internal/suitetest"
	"github.com/ananke/action/reporters/reportdir"
)

var screenshots = flag.Bool("screenshots", false, "write PNGs of the report's main views to docs/images")

// shot writes a screenshot of the page to docs/images with -screenshots.
func shot(p *htmltest.Page, name string) {
	if *screenshots {
		p.Screenshot(filepath.Join("..", "..", "docs", "images", name))
	}
}

// TestBrowser opens the fixture's report directory in a headless Chromium
// through file:// and uses the page as a person would: it loads nothing
// but itself, logs no error, and its filters, search, test view, evidence
// links and masking work.
func TestBrowser(t *testing.T) {
	dir := t.TempDir()
	if err := reportdir.Write(dir, fixture()); err != nil {
		t.Fatal(err)
	}
	p := htmltest.Open(t, filepath.Join(dir, reportdir.HTMLFile))
	p.WaitVisible("#totals")

	var totals map[string]string
	p.Eval(`Object.fromEntries([...document.querySelectorAll('#totals li')].map((li) => [li.dataset.total, li.querySelector('.n').textContent]))`, &totals)
	want := map[string]string{"total": "6", "passed": "2", "failed": "2", "errored": "1", "skipped": "1", "flaky": "2", "warned": "1", "not_made": "1", "pass_rate": "40%"}
	for k, v := range want {
		if totals[k] != v {
			t.Errorf("total %s = %q; want %q", k, totals[k], v)
		}
	}
	if s := p.Text("#run"); !strings.Contains(s, "after_all[0] failed") || !strings.Contains(s, "https://agent.example.com/agui") {
		t.Errorf("the run's header lacks the failed hook or the target:\n%s", s)
	}
	shot(p, "report-overview.png")

	t.Run("filter", func(t *testing.T) {
		p := p.For(t)
		p.Click(`.filters button[data-filter="fail"]`)
		if got := listed(p); !slices.Equal(got, []string{"tests/checkout", "tests/flip"}) {
			t.Errorf("the fail filter lists %q", got)
		}
		if c := p.Text(`.filters button[data-filter="fail"] .count`); c != "2" {
			t.Errorf("the fail filter's count is %q", c)
		}
		p.Click(`.filters button[data-filter="flaky"]`)
		if got := listed(p); !slices.Equal(got, []string{"tests/search", "tests/flip"}) {
			t.Errorf("the flaky filter lists %q", got)
		}
		p.Click(`.filters button[data-filter="all"]`)
		if got := listed(p); len(got) != 6 {
			t.Errorf("all lists %q", got)
		}
	})

	t.Run("search", func(t *testing.T) {
		p := p.For(t)
		p.Type("#search", "weather")
		if got := listed(p); !slices.Equal(got, []string{"tests/weather"}) {
			t.Errorf("searching weather lists %q", got)
		}
		p.Eval(`(() => { const s = document.getElementById('search'); s.value = ''; s.dispatchEvent(new Event('input')); return true; })()`, nil)
		if got := listed(p); len(got) != 6 {
			t.Errorf("an empty search lists %q", got)
		}
	})

	// What the agent used: the run's total, a cost column in the list that
	// sorts the tests by cost or tokens (unknown ones last, in order), and
	// a test's usage per run and per turn.
	t.Run("cost", func(t *testing.T) {
		p := p.For(t)
		if s := p.Text("#run"); !strings.Contains(s, "Agent usage") || !strings.Contains(s, "≥ 30.3k tokens (usage unknown for 2 of 5 tests)") {
			t.Errorf("the run's header lacks the agent's usage:\n%s", s)
		}
		var cells map[string]string
		p.Eval(`Object.fromEntries([...document.querySelectorAll('#list .item')].map((a) => [a.dataset.id, a.querySelector('.cost').textContent]))`, &cells)
		for id, want := range map[string]string{"tests/checkout": "$0.0036", "tests/weather": "10.2k tokens", "tests/refund": "—", "tests/legacy": "",
			"tests/search": "$0.0017", "tests/flip": "≥ 4.5k tokens"} {
			if cells[id] != want {
				t.Errorf("%s's cost cell is %q; want %q", id, cells[id], want)
			}
		}
		sortBy := func(by string) {
			p.Eval(`(() => { const s = document.getElementById('sort'); s.value = '`+by+`'; s.dispatchEvent(new Event('change')); return true; })()`, nil)
		}
		for _, tc := range []struct {
			by   string
			want []string
		}{
			{"cost", []string{"tests/checkout", "tests/search", "tests/weather", "tests/refund", "tests/legacy", "tests/flip"}},
			{"tokens", []string{"tests/search", "tests/weather", "tests/checkout", "tests/flip", "tests/refund", "tests/legacy"}},
			{"order", []string{"tests/checkout", "tests/weather", "tests/refund", "tests/legacy", "tests/search", "tests/flip"}},
		} {
			sortBy(tc.by)
			if got := listed(p); !slices.Equal(got, tc.want) {
				t.Errorf("sorted %s, the list is %q; want %q", tc.by, got, tc.want)
			}
		}
		p.SetHash("test=" + url.QueryEscape("tests/search"))
		p.WaitVisible(`#detail table.attempts`)
		if s := p.Text("#detail dl.pairs"); !strings.Contains(s, "10.5k tokens · $0.0017 (per run: mean 3.5k tokens · $0.00056, max 4.3k tokens · $0.0007)") ||
			!strings.Contains(s, "openai/gpt-4o-mini: 10.5k tokens · $0.0017") {
			t.Errorf("the test's usage shows as:\n%s", s)
		}
		if s := p.Text("#detail table.attempts"); !strings.Contains(s, "Usage") || !strings.Contains(s, "3.2k tokens · $0.00052") {
			t.Errorf("the runs table lacks each run's usage:\n%s", s)
		}
		if s := p.Text("#detail section.turn h3"); !strings.Contains(s, "4.3k tokens · $0.0007") {
			t.Errorf("the turn's head lacks its usage: %q", s)
		}
	})

	t.Run("failing test", func(t *testing.T) {
		p := p.For(t)
		p.Click(`#list .item[data-id="tests/checkout"]`)
		p.WaitVisible(`#detail details.assertion.st-fail`)
		var hash string
		p.Eval(`location.hash`, &hash)
		if hash != "#test="+url.PathEscape("tests/checkout") && hash != "#test=tests%2Fcheckout" {
			t.Errorf("the address is %q; want the test's", hash)
		}
		if n := p.Count(`#detail details.assertion.st-fail[open]`); n != 2 {
			t.Errorf("%d open failed assertions; want 2", n)
		}
		first := p.Text(`#detail .assertions details.assertion`)
		for _, want := range []string{"forbidden call to `charge_card`", "no call to `charge_card` with result_match `declined`",
			"1 call matching (1 call to `charge_card`)", "matches the forbidden pattern", "tests/checkout.ananke.yaml:14:13"} {
			if !strings.Contains(first, want) {
				t.Errorf("the first failed assertion lacks %q:\n%s", want, first)
			}
		}
		// The call's arguments, pretty-printed, the secret masked.
		args := p.Text(`#detail section.turn#turn-1 .call pre.json`)
		if !strings.Contains(args, "\"amount\": 42,\n") || !strings.Contains(args, `"token": "***"`) {
			t.Errorf("the call's arguments are not pretty-printed and masked:\n%s", args)
		}
		shot(p, "report-failing-test.png")
	})

	t.Run("evidence link", func(t *testing.T) {
		p := p.For(t)
		p.Click(`#detail details.assertion[data-id="turn[1].text.must_not_match[0]"] .evidence a.ev-link`)
		var state struct {
			Highlighted, Open, Visible, EventsOpen bool
			Raw                                    string
		}
		p.Eval(`(() => {
			const ev = document.getElementById('ev-12'), r = ev.getBoundingClientRect();
			return { highlighted: ev.classList.contains('hl'), open: ev.open, eventsOpen: ev.closest('details.events').open,
				visible: r.height > 0 && r.top >= 0 && r.bottom <= innerHeight, raw: ev.innerText };
		})()`, &state)
		if !state.Highlighted || !state.Open || !state.EventsOpen || !state.Visible {
			t.Errorf("event 12 after its link: %+v", state)
		}
		if !strings.Contains(state.Raw, `"delta": "key ***"`) {
			t.Errorf("event 12 shows %q; want its masked delta, pretty-printed", state.Raw)
		}
	})

	t.Run("link opens a test", func(t *testing.T) {
		p := p.For(t)
		p.SetHash("test=" + url.QueryEscape("tests/search"))
		p.WaitVisible(`#detail table.attempts`)
		s := p.Text(`#detail table.attempts`)
		for _, want := range []string{"run 1", "run 2", "run 3", "(shown below)", "`search` was never called"} {
			if !strings.Contains(s, want) {
				t.Errorf("the runs table lacks %q:\n%s", want, s)
			}
		}
		// How sure the pass rate is: its interval and pass^k, and the
		// interval of the rate the wobbling assertion fails at.
		if s := p.Text(`#detail section.stability`); !strings.Contains(s, "2 of 3 passed (66.7%, 95% CI 21–94%, at least 60% needed)") ||
			!strings.Contains(s, "pass^3 29.6% (95% CI 1–83%): the chance that 3 runs in a row all pass") {
			t.Errorf("the runs lack the pass rate's interval or pass^k:\n%s", s)
		}
		var failedIn string
		p.Eval(`document.querySelector('#detail .assertions details.assertion[data-id="turn[0].tools.require[0]"] dl').textContent`, &failedIn)
		if !strings.Contains(failedIn, "1 of 3 attempts (95% CI 6–79%)") {
			t.Errorf("the wobbling assertion's failure count lacks its interval:\n%s", failedIn)
		}
		p.SetHash("test=" + url.QueryEscape("tests/weather"))
		p.WaitVisible(`#detail details.assertion.st-warn[open]`)
		p.SetHash("test=" + url.QueryEscape("tests/refund"))
		p.WaitVisible(`#detail .callout.st-error`)
		if s := p.Text(`#detail .callout.st-error`); !strings.Contains(s, "exited with status 3") || !strings.Contains(s, "tests/refund.ananke.yaml:5:5") {
			t.Errorf("the errored test's reason shows %q", s)
		}
	})

	// The passing test whose warning judge could not be made says so in
	// the list, its header and its assertions; the check is open.
	t.Run("check not made", func(t *testing.T) {
		p := p.For(t)
		p.Click(`.filters button[data-filter="not made"]`)
		if got := listed(p); !slices.Equal(got, []string{"tests/weather"}) {
			t.Errorf("the not made filter lists %q", got)
		}
		if s := p.Text(`#list .item[data-id="tests/weather"]`); !strings.Contains(s, "1 check not made") {
			t.Errorf("the list item says %q", s)
		}
		p.Click(`#list .item[data-id="tests/weather"]`)
		p.WaitVisible(`#detail details.assertion.st-error[open]`)
		head, list := p.Text(`#detail .test-head`), p.Text(`#detail section.assertions h3`)
		if !strings.Contains(head, "PASS") || !strings.Contains(head, "1 check not made") || !strings.Contains(list, "0 failed · 1 not made · 1 warned") {
			t.Errorf("header %q, assertions %q", head, list)
		}
		if s := p.Text(`#detail details.assertion.st-error`); !strings.Contains(s, "the judge gave no verdict: model gpt-4o-mini") {
			t.Errorf("the check not made says %q", s)
		}
		p.Click(`.filters button[data-filter="all"]`)
	})

	t.Run("secret", func(t *testing.T) {
		p := p.For(t)
		// Each test shown with every fold open, so that all of it is in
		// the DOM.
		var text strings.Builder
		for _, id := range listed(p) {
			p.SetHash("test=" + url.QueryEscape(id))
			p.WaitVisible(`#detail[data-test="` + id + `"]`)
			var s string
			p.Eval(`(() => {
				document.querySelectorAll('#detail details').forEach((d) => { d.open = true; d.dispatchEvent(new Event('toggle')); });
				document.querySelectorAll('#detail button.more').forEach((b) => b.click());
				return document.body.innerText + document.body.textContent;
			})()`, &s)
			text.WriteString(s)
		}
		for _, s := range []string{reporttest.Secret, suitetest.Secret} {
			if strings.Contains(text.String(), s) {
				t.Errorf("the page shows the secret %q", s)
			}
		}
		if !strings.Contains(text.String(), report.Mask) {
			t.Error("the page shows no mask")
		}
	})

	if reqs := p.Requests(); len(reqs) != 1 || !strings.HasSuffix(reqs[0], "/"+reportdir.HTMLFile) {
		t.Errorf("the page made requests %q; want only its own document", reqs)
	}
	if errs := p.Errors(); len(errs) > 0 {
		t.Errorf("the page logged errors:\n%s", strings.Join(errs, "\n"))
	}
}

// listed returns the ids of the tests the list shows.
func listed(p *htmltest.Page) []string {
	var ids []string
	p.Eval(`[...document.querySelectorAll('#list .item')].map((a) => a.dataset.id)`, &ids)
	return ids
}

// TestBrowserLarge opens the page of a 500-test suite: it loads cleanly,
// lists every test, and a failing test's evidence link highlights the
// run of text deltas it points at.
func TestBrowserLarge(t *testing.T) {
	dir := t.TempDir()
	if err := reportdir.Write(dir, synthetic(500)); err != nil {
		t.Fatal(err)
	}
	p := htmltest.Open(t, filepath.Join(dir, reportdir.HTMLFile))
	p.WaitVisible("#list")
	if n := p.Count("#list .item"); n != 500 {
		t.Errorf("%d tests listed; want 500", n)
	}
	p.Click(`.filters button[data-filter="fail"]`)
	if got := listed(p); len(got) != 13 || got[0] != "tests/shop/case-007" {
		t.Errorf("the fail filter lists %d tests, first %q; want 13 from case-007", len(got), got)
	}
	p.Click(`#list .item[data-id="tests/shop/case-047"]`)
	p.WaitVisible(`#detail[data-test="tests/shop/case-047"] details.assertion.st-fail`)
	shot(p, "report-suite.png")
	p.Click(`#detail details.assertion.st-fail .evidence a.ev-link`)
	var hl []string
	p.Eval(`[...document.querySelectorAll('.hl')].map((e) => e.id)`, &hl)
	if !slices.Equal(hl, []string{"ev-65", "ev-66", "ev-67"}) {
		t.Errorf("highlighted %q; want the three text deltas", hl)
	}
	shot(p, "report-evidence.png")
	if reqs := p.Requests(); len(reqs) != 1 {
		t.Errorf("the page made requests %q; want only its own document", reqs)
	}
	if errs := p.Errors(); len(errs) > 0 {
		t.Errorf("the page logged errors:\n%s", strings.Join(errs, "\n"))
	}
}

// TestBrowserExtras shows every part of the extras fixture — checkpoints,
// history, a client-answered call, state, a run error, memory, messages
// sent out, an imported source — without an error.
func TestBrowserExtras(t *testing.T) {
	dir := t.TempDir()
	if err := reportdir.Write(dir, extras()); err != nil {
		t.Fatal(err)
	}
	p := htmltest.Open(t, filepath.Join(dir, reportdir.HTMLFile))
	p.WaitVisible("#list")
	for id, want := range map[string][]string{
		"tests/ship": {"not reached", "reached at turn 0", "History", "I moved last month.", "Simulated user", "client-answered",
			"RUN_ERROR 429: rate limited", "STATE_SNAPSHOT", "STATE_DELTA", "State at the end of the turn", `"items": 2`},
		"tests/memory": {"claude-transcript · 1 · import · sessions/s1.jsonl", "write CLAUDE.md (group main)", "Shoe size: 42",
			"to chat:main", "Saved your size.", "Read at sessions/s1.jsonl:4"},
	} {
		p.SetHash("test=" + url.QueryEscape(id))
		p.WaitVisible(`#detail[data-test="` + id + `"]`)
		p.Eval(`document.querySelectorAll('#detail details').forEach((d) => { d.open = true; d.dispatchEvent(new Event('toggle')); }); true`, nil)
		text := strings.ToLower(p.Text("#detail")) // labels are upper case
		for _, w := range want {
			if !strings.Contains(text, strings.ToLower(w)) {
				t.Errorf("%s: the page lacks %q", id, w)
			}
		}
	}
	if errs := p.Errors(); len(errs) > 0 {
		t.Errorf("the page logged errors:\n%s", strings.Join(errs, "\n"))
	}
}

// TestBrowserTarget: the run's header names the agent under test whatever
// its type: an A2A agent's card, a stdio MCP server's command.
func TestBrowserTarget(t *testing.T) {
	for _, tc := range []struct {
		target report.Target
		want   string
	}{
		{report.Target{Type: "a2a", AgentCardURL: "https://agent.example.com/card.json"}, "a2a · card https://agent.example.com/card.json"},
		{report.Target{Type: "mcp", Command: []string{"node", "server.js", "stdio"}}, "mcp · node server.js stdio"},
	} {
		t.Run(tc.target.Type, func(t *testing.T) {
			rep := extras()
			rep.Target = tc.target
			dir := t.TempDir()
			if err := reportdir.Write(dir, rep); err != nil {
				t.Fatal(err)
			}
			p := htmltest.Open(t, filepath.Join(dir, reportdir.HTMLFile))
			p.WaitVisible("#run")
			if got := p.Text("#run"); !strings.Contains(got, tc.want) {
				t.Errorf("the run's header %q lacks %q", got, tc.want)
			}
		})
	}
}

// TestBrowserRunBudget: the run's header shows each bound of the config's
// budget — a run that failed on its budget alone says why — and tokens the
// judges' endpoint did not report read as unknown, never 0.
func TestBrowserRunBudget(t *testing.T) {
	rep := extras()
	rep.Status = status.Fail
	rep.Budget = &report.RunBudget{Status: status.Fail, Exceeded: true, Limits: []report.BudgetLimit{
		{Name: report.BudgetTokens, Status: status.Fail, Message: "run budget exceeded: 2.1M total tokens > max_total_tokens 2M (ananke.config.yaml:9:3)"},
		{Name: report.BudgetCost, Status: status.Skip, Message: "run budget not checked: model m has no price (add it under pricing: in the config) — max_cost_usd $5.00 (ananke.config.yaml:8:3)"},
	}}
	rep.Totals.Model = report.Usage{Requests: 2, Unreported: 2}
	dir := t.TempDir()
	if err := reportdir.Write(dir, rep); err != nil {
		t.Fatal(err)
	}
	p := htmltest.Open(t, filepath.Join(dir, reportdir.HTMLFile))
	p.WaitVisible("#run")
	got := p.Text("#run")
	for _, w := range []string{"FAIL run budget exceeded: 2.1M total tokens > max_total_tokens 2M", "SKIP run budget not checked: model m has no price",
		"2 requests, 0 cached, tokens unknown"} {
		if !strings.Contains(got, w) {
			t.Errorf("the run's header lacks %q:\n%s", w, got)
		}
	}
	if strings.Contains(got, "0 + 0 tokens") {
		t.Errorf("the run's header says 0 tokens for tokens never reported:\n%s", got)
	}
	if n := p.Count("#run .callout.budget"); n != 2 {
		t.Errorf("%d budget lines, want 2", n)
	}
}

// TestBrowserAdaptive: a test run adaptively says how many runs it took of
// how many it could and why it stopped, an inconclusive one is flagged, and
// the run's header says what stopping once settled saved.
func TestBrowserAdaptive(t *testing.T) {
	rep := reporttest.AdaptiveReport(false, reporttest.SettledPass, reporttest.Inconclusive, reporttest.Fixed)
	dir := t.TempDir()
	if err := reportdir.Write(dir, rep); err != nil {
		t.Fatal(err)
	}
	p := htmltest.Open(t, filepath.Join(dir, reportdir.HTMLFile))
	p.WaitVisible("#run")
	if got := p.Text("#run"); !strings.Contains(got, "27 of at most 33 (adaptive runs of 2 tests; 6 saved)") {
		t.Errorf("the run's header lacks what adaptive runs saved:\n%s", got)
	}
	for id, want := range map[string]string{
		"tests/tool":   "runs 3–30: settled after 24 runs (6 fewer than the maximum)",
		"tests/strict": "runs 2–3: inconclusive: not settled within the maximum of 3 runs",
	} {
		p.SetHash("test=" + url.QueryEscape(id))
		p.WaitVisible(`#detail[data-test="` + id + `"]`)
		if got := p.Text("#detail"); !strings.Contains(got, want) {
			t.Errorf("%s: the test lacks %q:\n%s", id, want, got)
		}
		if flagged := p.Count(`#detail .test-head .flag.warn`) > 0; flagged != (id == "tests/strict") {
			t.Errorf("%s: inconclusive flag shown = %v", id, flagged)
		}
	}
	p.SetHash("test=" + url.QueryEscape("tests/fixed"))
	p.WaitVisible(`#detail[data-test="tests/fixed"]`)
	if got := p.Text("#detail"); strings.Contains(got, "settled") || strings.Contains(got, "inconclusive") {
		t.Errorf("a test with fixed runs speaks of adaptive runs:\n%s", got)
	}
}

// TestBrowserBackend: a run whose agent took its tools from Ananke's
// doubles and its model from its gateway marks each served call as the
// double's — the one the test gave no answer as such — lists the turn's
// model calls with their outcome and tokens, and its header shows the
// requests no test took.
func TestBrowserBackend(t *testing.T) {
	dir := t.TempDir()
	if err := reportdir.Write(dir, reporttest.BackendReport()); err != nil {
		t.Fatal(err)
	}
	p := htmltest.Open(t, filepath.Join(dir, reportdir.HTMLFile))
	p.WaitVisible("#run")
	if got := p.Text("#run"); !strings.Contains(got, "tools/call check_stock was attributed to no test") {
		t.Errorf("the run's header lacks the orphan request:\n%s", got)
	}
	p.SetHash("test=" + url.QueryEscape("tests/stock"))
	p.WaitVisible(`#detail[data-test="tests/stock"]`)
	text := strings.ToLower(p.Text("#detail")) // labels are upper case
	for _, w := range []string{"⇄ double (match[0])", "⇄ double: no answer for this test", "Model calls (gateway)",
		"429 fault 429 injected", "200 tool_calls", "1,200 in / 80 out", "502 error: upstream refused key ***"} {
		if !strings.Contains(text, strings.ToLower(w)) {
			t.Errorf("the test lacks %q:\n%s", w, text)
		}
	}
	if n := p.Count("#detail .call.unanswered"); n != 1 {
		t.Errorf("%d calls marked unanswered, want 1", n)
	}
	if n := p.Count("#detail .model-calls tbody tr"); n != 3 {
		t.Errorf("%d model call rows, want 3", n)
	}
	if strings.Contains(p.Text("body"), reporttest.Secret) {
		t.Error("the page shows the secret")
	}
	if errs := p.Errors(); len(errs) > 0 {
		t.Errorf("the page logged errors:\n%s", strings.Join(errs, "\n"))
	}
}

// TestBrowserTraceID: a test's page shows its shown attempt's trace id.
func TestBrowserTraceID(t *testing.T) {
	rep := extras()
	const id = "0af7651916cd43dd8448eb211c80319c"
	rep.Tests[0].TraceID = id
	dir := t.TempDir()
	if err := reportdir.Write(dir, rep); err != nil {
		t.Fatal(err)
	}
	p := htmltest.Open(t, filepath.Join(dir, reportdir.HTMLFile))
	p.WaitVisible("#list")
	p.SetHash("test=" + url.QueryEscape(rep.Tests[0].ID))
	p.WaitVisible(`#detail[data-test="` + rep.Tests[0].ID + `"]`)
	if got := p.Text("#detail .trace-id"); got != id {
		t.Errorf("the page shows trace id %q, want %s", got, id)
	}

	// A test run more than once: each attempt's, in its row of the runs.
	rep = reporttest.Report()
	ft := &rep.Tests[reporttest.Flips]
	var want []string
	for i := range ft.Attempts {
		ft.Attempts[i].TraceID = fmt.Sprintf("%032x", i+1)
		want = append(want, ft.Attempts[i].TraceID)
	}
	dir = t.TempDir()
	if err := reportdir.Write(dir, rep); err != nil {
		t.Fatal(err)
	}
	p = htmltest.Open(t, filepath.Join(dir, reportdir.HTMLFile))
	p.WaitVisible("#list")
	p.SetHash("test=" + url.QueryEscape(ft.ID))
	p.WaitVisible(`#detail[data-test="` + ft.ID + `"]`)
	var got []string
	p.Eval(`[...document.querySelectorAll('#detail .attempts .attempt-trace-id')].map((e) => e.textContent)`, &got)
	if !slices.Equal(got, want) {
		t.Errorf("the runs' trace ids %q, want %q", got, want)
	}
}
