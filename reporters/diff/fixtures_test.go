package diff_test

import (
	"fmt"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
)

// tc builds a test of a fixture report: id, status and duration, then
// changes.
func tc(id string, st status.Status, ms int64, opts ...func(*report.Test)) report.Test {
	t := report.Test{ID: id, Name: id, File: id + ".ananke.yaml", Line: 1, Status: st, DurationMs: ms, Runs: 1}
	if st == status.Pass {
		t.PassedRuns = 1
	}
	for _, o := range opts {
		o(&t)
	}
	return t
}

func named(name string) func(*report.Test) { return func(t *report.Test) { t.Name = name } }

// flaky makes a test flaky in a single run: an attempt failed, and a
// retry passed (or failed again).
func flaky(t *report.Test) { t.Flaky, t.Retries = true, 1 }

func reason(r string) func(*report.Test) { return func(t *report.Test) { t.Reason = r } }

// failed adds failing assertions, each "id: message", at lines 10, 11, …
// of the test's file.
func failed(pairs ...string) func(*report.Test) {
	return func(t *report.Test) {
		for i := 0; i+1 < len(pairs); i += 2 {
			t.Assertions = append(t.Assertions, report.Assertion{ID: pairs[i], Status: status.Fail, Message: pairs[i+1],
				Source: report.Location{File: t.File, Line: 10 + i/2, Col: 7}})
		}
	}
}

// inDataset puts the test at a line of a dataset.
func inDataset(file string, line int) func(*report.Test) {
	return func(t *report.Test) { t.File, t.Line = file, line }
}

// rep is a report of tests with their totals counted, as report.Build
// counts them.
func rep(durationMs int64, tests ...report.Test) *report.Report {
	r := &report.Report{Schema: report.Schema, DurationMs: durationMs, Status: status.Pass, Tests: tests}
	t := &r.Totals
	for _, x := range tests {
		t.Total++
		switch x.Status {
		case status.Pass:
			t.Passed++
		case status.Fail:
			t.Failed++
			r.Status = status.Fail
		case status.Error:
			t.Errored++
		case status.Skipped:
			t.Skipped++
		}
		if x.Flaky {
			t.Flaky++
		}
	}
	if n := t.Total - t.Skipped; n > 0 {
		t.PassRate = float64(t.Passed*1000/n) / 10
	}
	return r
}

// hostile is a name an agent or a test file could hold: markup, mentions,
// links, HTML and escape sequences.
const hostile = "@octocat <b>*bold*</b> [x](https://evil.example) `tick` | #12 \x1b[31mred\x1b[0m"

// pair returns a base and a head run with a test in every category.
func pair() (base, head *report.Report) {
	base = rep(12300,
		tc("weather", status.Pass, 800),
		tc("checkout", status.Fail, 1500, failed("turn[0].tools.require[0]", "`charge_card` was never called")),
		tc("refund", status.Fail, 600, failed("turn[0].text.must_match[0]", "assistant text does not match `refund`")),
		tc("search", status.Fail, 900, failed("turn[0].tools.require[0]", "`search` was never called")),
		tc("coin", status.Pass, 300),
		tc("dice", status.Pass, 300, flaky),
		tc("legacy", status.Pass, 200),
		tc("memo", status.Skipped, 0, reason("waiting for agent v2")),
		tc("old", status.Pass, 100),
		tc("slow", status.Pass, 1000),
		tc("quick", status.Pass, 5000),
		tc("steady", status.Pass, 1000),
		tc("receipt", status.Pass, 400, named("receipt: Please file this receipt"), inDataset("tests/receipts.ananke.jsonl", 4)),
		tc("hostile", status.Pass, 300, named(hostile)),
	)
	head = rep(15000,
		tc("weather", status.Fail, 900, named("weather in Paris uses the weather tool"), failed(
			"turn[0].text.must_match[0]", "assistant text in turn[0] does not match `sunny and 21°C`: \"It is raining.\"",
			"turn[0].tools.require[0]", "expected `get_weather` exactly 1 time, saw 0")),
		tc("brand-new", status.Error, 50, reason(`hooks[0]: hook "bash seed.sh" exited with status 3`)),
		tc("checkout", status.Pass, 1400),
		tc("refund", status.Error, 30, reason("agent unreachable: connection refused")),
		tc("search", status.Fail, 950, failed("turn[0].text.must_match[0]", "assistant text does not match `shoes`")),
		tc("coin", status.Pass, 320, flaky),
		tc("dice", status.Pass, 310),
		tc("legacy", status.Skipped, 0, reason("waiting for `v3`")),
		tc("memo", status.Pass, 500),
		tc("extra", status.Pass, 200),
		tc("slow", status.Pass, 4200),
		tc("quick", status.Pass, 1200),
		tc("steady", status.Pass, 1400),
		tc("receipt", status.Fail, 450, named("receipt: Please file this receipt"), inDataset("tests/receipts.ananke.jsonl", 4),
			failed("contains[0]", "reply lacks \"filed\"")),
		tc("hostile", status.Fail, 350, named(hostile), failed(
			"a[0]", "saw @octocat <script>alert(1)</script> ![img](https://evil.example/x.png) \x1b]8;;https://evil\x07link",
			"a[1]", "second", "a[2]", "third", "a[3]", "fourth", "a[4]", "fifth")),
	)
	return base, head
}

// slowdowns returns runs where n tests each got slower by i+1 seconds.
func slowdowns(n int) (base, head *report.Report) {
	var b, h []report.Test
	for i := range n {
		id := fmt.Sprintf("t%02d", i)
		b = append(b, tc(id, status.Pass, 1000))
		h = append(h, tc(id, status.Pass, int64(2000+1000*i)))
	}
	return rep(int64(1000*n), b...), rep(int64(3000*n), h...)
}

// used gives a test its usage per attempt: mean tokens, and mean cost
// when usd is not negative.
func used(tokens, usd float64) func(*report.Test) {
	return func(t *report.Test) {
		t.PerAttempt = &report.AttemptUsage{Attempts: t.Runs, MeanTokens: &tokens}
		if usd >= 0 {
			t.PerAttempt.MeanCostUSD = &usd
		}
	}
}

// costPair returns a base and a head run whose tests' usage changed in
// every way a comparison tells apart.
func costPair() (base, head *report.Report) {
	base = rep(5000,
		tc("checkout", status.Pass, 500, used(1200, 0.012)),
		tc("search", status.Pass, 500, used(1000, -1)),
		tc("weather", status.Pass, 500, used(800, 0.004)),
		tc("refund", status.Pass, 500, used(500, 0.005)),
		tc("memo", status.Pass, 500),
		tc("coin", status.Pass, 500, used(300, 0.003)),
		tc("legacy", status.Pass, 500),
		tc("fresh", status.Pass, 500, used(0, 0)),
		tc("repriced", status.Pass, 500, used(100, 0.001)),
		tc("paused", status.Pass, 500, used(700, 0.007)),
		tc("old", status.Pass, 500, used(100, 0.001)),
		tc("hostile", status.Pass, 500, named(hostile), used(100, 0.001)),
	)
	head = rep(5000,
		tc("checkout", status.Pass, 500, used(2400, 0.024)),
		tc("search", status.Fail, 500, used(1380, -1), failed("turn[0].text.must_match[0]", "no shoes")),
		tc("weather", status.Pass, 500, used(600, 0.003)),
		tc("refund", status.Pass, 500, used(500, 0.005)),
		tc("memo", status.Pass, 500, used(900, 0.009)),
		tc("coin", status.Error, 500, reason("agent unreachable")),
		tc("legacy", status.Pass, 500),
		tc("fresh", status.Pass, 500, used(150, -1)),
		tc("repriced", status.Pass, 500, used(200, -1)),
		tc("paused", status.Skipped, 0, reason("paused")),
		tc("extra", status.Pass, 500, used(5000, 0.05)),
		tc("hostile", status.Pass, 500, named(hostile), used(130, 0.0013)),
	)
	return base, head
}

// runs gives a test n runs, passed of them passing, one attempt each.
func runs(passed, n int) func(*report.Test) {
	return func(t *report.Test) {
		t.Runs, t.PassedRuns, t.Flaky = n, passed, passed > 0 && passed < n
		t.Attempts = make([]report.Attempt, n)
		for i := range t.Attempts {
			t.Attempts[i] = report.Attempt{Run: i + 1, Status: status.Fail}
			if i < passed {
				t.Attempts[i].Status = status.Pass
			}
		}
	}
}

// retried adds k retries to a test's attempts (after runs).
func retried(k int) func(*report.Test) {
	return func(t *report.Test) {
		for range k {
			t.Attempts = append(t.Attempts, report.Attempt{Run: 1, Retry: 1, Status: status.Fail})
		}
		t.Flaky = true
	}
}

// check adds an assertion that failed in k of the test's attempts, at
// line 10 + its position of the test's file.
func check(id string, k int) func(*report.Test) {
	return func(t *report.Test) {
		st, msg := status.Pass, ""
		if k > 0 {
			st, msg = status.Fail, "not met"
		}
		t.Assertions = append(t.Assertions, report.Assertion{ID: id, Status: st, Message: msg, FailedRuns: k,
			Source: report.Location{File: t.File, Line: 10 + len(t.Assertions), Col: 7}})
	}
}

// ratePair returns a base and a head run of tests run ten times whose
// pass rates changed in every way a comparison tells apart, beside a
// single-run test that newly fails.
func ratePair() (base, head *report.Report) {
	base = rep(9000,
		tc("checkout", status.Pass, 500, runs(10, 10), check("turn[0].tools.require[0]", 0), check("turn[0].text.must_match[0]", 0), check("judge[0]", 0)),
		tc("search", status.Pass, 500, runs(10, 10), check("turn[0].text.must_match[0]", 0)),
		tc("refund", status.Pass, 500, runs(6, 10), check("turn[0].tools.require[0]", 4)),
		tc("coin", status.Pass, 500, runs(10, 10), check("turn[0].tools.require[0]", 0)),
		tc("weather", status.Pass, 500, runs(1, 1)),
		tc("dice", status.Pass, 500, runs(1, 1)),
		tc("hostile", status.Pass, 500, named(hostile), runs(10, 10), check("a[0]", 0)),
	)
	head = rep(9000,
		tc("checkout", status.Fail, 500, runs(6, 10), check("turn[0].tools.require[0]", 4), check("turn[0].text.must_match[0]", 1), check("judge[0]", 0),
			reason("6 of 10 runs passed (60%), below min_pass_rate 100%")),
		tc("search", status.Fail, 500, runs(9, 10), check("turn[0].text.must_match[0]", 1), reason("9 of 10 runs passed (90%), below min_pass_rate 100%")),
		tc("refund", status.Pass, 500, runs(10, 10), check("turn[0].tools.require[0]", 0)),
		// Every run passed, but only on a retry in half of them.
		tc("coin", status.Pass, 500, runs(10, 10), retried(10), check("turn[0].tools.require[0]", 10)),
		tc("weather", status.Fail, 500, runs(0, 1), failed("turn[0].text.must_match[0]", "no sun")),
		tc("dice", status.Pass, 500, runs(6, 10)),
		tc("hostile", status.Pass, 500, named(hostile), runs(5, 10), check("a[0]", 5)),
	)
	return base, head
}
