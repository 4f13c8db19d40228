// Package reporttest provides one fixed report for reporters' golden tests:
// a passing, a failing, an erroring and a skipped test, a flaky test that
// passes over three runs and one that fails over two runs with a retry,
// evidence of every shape, protocol warnings, a failing warning-severity
// assertion and a warning judge that could not be made (its model failed)
// on the passing test, event references, a planted secret and
// agent text full of control characters, and what the agent used — priced
// usage of two models on the failing test, tokens without a price on the
// passing one, priced usage per run on the flaky one, partial usage (a
// retry that reported none) on the failing flaky one, none on the errored
// and skipped ones — built through report.Build so that masking and sums
// are exercised too.
package reporttest

import (
	"fmt"
	"time"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/stability"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// Secret is planted in the fixture's agent text, tool arguments and error
// detail; it must never appear in any rendered output.
const Secret = "sk-live-0123456789abcdef"

// Start is the fixture run's start time.
var Start = time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC)

func ms(offset int64) time.Time { return Start.Add(time.Duration(offset) * time.Millisecond) }

func pos(file string, line, col int) diag.Pos { return diag.Pos{File: file, Line: line, Col: col} }

func name(s string) vars.Name { return vars.Name{Value: s} }

// prices are the fixture's own, so that its costs never move with the
// built-in table.
var prices = &cost.Table{Rules: []cost.Rule{
	{Model: "gpt-4o-mini", Price: cost.Price{Input: 0.15, Output: 0.60}, Origin: "fixture"},
	{Model: "gpt-4o", Price: cost.Price{Input: 2.50, Output: 10}, Origin: "fixture"},
	{Model: "claude-sonnet-4-5", Price: cost.Price{Input: 3, Output: 15, CachedInput: f(0.30), CacheWrite: f(3.75)}, Origin: "fixture"},
	{Model: "claude-haiku-4-5", Price: cost.Price{Input: 1, Output: 5, CachedInput: f(0.10), CacheWrite: f(1.25)}, Origin: "fixture"},
}}

func f(v float64) *float64 { return &v }

// Usage is one run's report of what a provider's model used: input and
// output tokens, priced from the fixture's prices when they have the model.
func Usage(provider, model string, in, out int64) cost.Usage {
	var t cost.Tokens
	t.Set(cost.Input, in)
	t.Set(cost.Output, out)
	return cost.Usage{Provider: provider, Model: model, Tokens: t}
}

// Spent is a turn's usage: one run that reported us, priced from the
// fixture's prices (gpt-4o-mini, gpt-4o, claude-sonnet-4-5 and
// claude-haiku-4-5 have one).
func Spent(us ...cost.Usage) *cost.Spend {
	s := &cost.Spend{}
	s.Add(us...)
	prices.Apply(s)
	return s
}

// Outcome is the engine outcome the fixture report is built from.
func Outcome() *engine.Outcome {
	base := Start.UnixMilli()
	pay := trace.ToolCall{ID: "call-1", Name: "charge_card", Turn: 1, Args: `{"amount":42,"token":"` + Secret + `"}`, ArgsJSON: true,
		Result: &trace.Result{Content: `{"status":"declined"}`, JSON: true}, StartedMs: base + 1300, EndedMs: base + 1320, TimestampMs: base + 1450,
		StartSeq: 9, EndSeq: 10, ResultSeq: 11}
	search := trace.ToolCall{ID: "call-0", Name: "search", Turn: 0, Args: `{"q":"shoes"}`, ArgsJSON: true,
		Result: &trace.Result{Content: "2 hits", JSON: false}, StartedMs: base + 100, EndedMs: base + 110, TimestampMs: base + 200,
		StartSeq: 3, EndSeq: 4, ResultSeq: 5}
	failing := once(&spec.Test{Path: "tests/checkout.ananke.yaml", ID: "tests/checkout", Name: name("checkout declines the card"), Tags: []vars.Name{name("payments")}}, &engine.Attempt{
		Status: status.Fail,
		Start:  ms(0), End: ms(1600),
		Trace: &trace.Trace{TestStartMs: base, TestEndMs: base + 1600, Turns: []trace.Turn{
			{Index: 0, Kind: "user", UserText: "find shoes", StartMs: base, EndMs: base + 900, ToolCalls: []trace.ToolCall{search}, Texts: []string{"Found 2."},
				Usage:  Spent(Usage("openai", "gpt-4o-mini", 1200, 80)),
				Runs:   []trace.Run{{RunID: "run-1", Request: []byte(`{"threadId":"t","runId":"run-1","messages":[]}`), StartMs: base, EndMs: base + 900, FirstSeq: 1, Frames: 6}},
				Events: []trace.Event{{Seq: 1, ReceivedMs: base + 50, Type: "RUN_STARTED", Raw: []byte(`{"type":"RUN_STARTED","threadId":"t","runId":"run-1"}`)}}},
			{Index: 1, Kind: "user", UserText: "pay with my card", StartMs: base + 1000, EndMs: base + 1600, ToolCalls: []trace.ToolCall{pay},
				Usage: Spent(Usage("openai", "gpt-4o-mini", 2650, 140), Usage("openai", "gpt-4o", 900, 60)),
				Texts: []string{"Payment \x1b[31mdeclined\x1b[0m ]]> <b>&amp;</b> key " + Secret},
				Runs: []trace.Run{{RunID: "run-2", Request: []byte(`{"threadId":"t","runId":"run-2","messages":[{"id":"u","role":"user","content":"card ` + Secret + `"}]}`),
					StartMs: base + 1000, EndMs: base + 1600, FirstSeq: 7, Frames: 8}},
				Events: []trace.Event{{Seq: 7, ReceivedMs: base + 1010, Type: "RUN_STARTED", Raw: []byte(`{"type":"RUN_STARTED"}`)},
					{Seq: 12, ReceivedMs: base + 1500, Type: "TEXT_MESSAGE_CONTENT", Raw: []byte(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"key ` + Secret + `"}`)}}},
		}},
		Results: []assertion.Result{
			{ID: "turn[0].tools.require[0]", Level: assertion.LevelTurn, Kind: assertion.KindRequire, Scope: "turn[0]", Source: pos("tests/checkout.ananke.yaml", 8, 13),
				Severity: assertion.Critical, Status: status.Pass, Message: "`search` called 1 time, expected at least 1 time", Expected: "`search` at least 1 time",
				Observed: "1 call satisfying the entry (1 call to `search`)", Evidence: []assertion.Evidence{{Note: "satisfies the entry", Call: &search}}},
			{ID: "turn[1].tools.forbid_calls[0]", Level: assertion.LevelTurn, Kind: assertion.KindForbidCalls, Scope: "turn[1]", Source: pos("tests/checkout.ananke.yaml", 14, 13),
				Severity: assertion.Critical, Status: status.Fail, Message: "forbidden call to `charge_card` with result_match `declined`: call call-1 in turn[1] (result \"{\\\"status\\\":\\\"declined\\\"}\")",
				Expected: "no call to `charge_card` with result_match `declined`", Observed: "1 call matching (1 call to `charge_card`)",
				Evidence: []assertion.Evidence{{Note: "matches the forbidden pattern", Call: &pay}}},
			{ID: "turn[1].text.must_not_match[0]", Level: assertion.LevelTurn, Kind: assertion.KindMustNotMatch, Scope: "turn[1]", Source: pos("tests/checkout.ananke.yaml", 17, 25),
				Severity: assertion.Critical, Status: status.Fail, Message: "assistant text in turn[1] matches forbidden `declined`: \"Payment \x1b[31mdeclined\x1b[0m ]]>\"",
				Expected: "assistant text not matching `declined`", Observed: "match \"declined\"",
				Evidence: []assertion.Evidence{{Note: "forbidden match", Text: "Payment \x1b[31mdeclined\x1b[0m ]]> <b>&amp;</b> key " + Secret, EventRefs: []int64{12}}}},
			{ID: "turn[1].target.timing.max_idle_ms", Level: assertion.LevelTarget, Kind: assertion.KindMaxIdle, Scope: "turn[1]", Source: pos("ananke.config.yaml", 9, 20),
				Status: status.Pass, Message: "longest idle gap 300 ms (limit 5000 ms)", Expected: "no idle gap over 5000 ms", Observed: "300 ms idle from turn start to call call-1 (charge_card)",
				Evidence: []assertion.Evidence{{Note: "longest idle gap", Gap: &assertion.Gap{FromMs: base + 1000, ToMs: base + 1300, From: "turn start", To: "call call-1 (charge_card)"},
					EventRefs: []int64{7, 9}}}},
			{ID: "test.tools.require[0]", Level: assertion.LevelTest, Kind: assertion.KindRequire, Scope: "test", Source: pos("tests/checkout.ananke.yaml", 21, 7),
				Status: status.Skip, Message: "not evaluated: the test stopped when turn[1] failed"},
		},
		Warnings: []engine.Warning{{Turn: 0, Seq: 2, Rule: "identity", Message: "no RUN_STARTED in the response echoes the input's runId 'run-1'"}},
		Secrets:  []string{Secret},
	})
	// The reply's temperature is in no input: a grounded check of warning
	// severity fails, which is reported but leaves the test passing; so
	// does a warning judge whose model failed, a check not made.
	passing := once(&spec.Test{Path: "tests/weather.ananke.yaml", ID: "tests/weather", Name: name("weather in Paris")}, &engine.Attempt{
		Status: status.Pass, Start: ms(0), End: ms(420),
		Trace: &trace.Trace{TestStartMs: base, TestEndMs: base + 420, Turns: []trace.Turn{{Index: 0, Kind: "user", UserText: "weather?", StartMs: base, EndMs: base + 420,
			Texts: []string{"Sunny, 23 °C."}, FirstTextMs: base + 380, FirstTextSeq: 3, Usage: Spent(Usage("acme", "acme-large-2", 9800, 420)),
			Runs: []trace.Run{{RunID: "run-w", Request: []byte(`{"threadId":"t","runId":"run-w","messages":[]}`), StartMs: base, EndMs: base + 420, FirstSeq: 1, Frames: 5,
				FirstEventMs: base + 40}},
			Events: []trace.Event{{Seq: 1, ReceivedMs: base + 40, Type: "RUN_STARTED", Raw: []byte(`{"type":"RUN_STARTED","threadId":"t","runId":"run-w"}`)},
				{Seq: 3, ReceivedMs: base + 380, Type: "TEXT_MESSAGE_CONTENT", Raw: []byte(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"Sunny, 23 °C."}`)}}}}},
		Results: []assertion.Result{
			{ID: "turn[0].text.must_match[0]", Level: assertion.LevelTurn, Kind: assertion.KindMustMatch, Scope: "turn[0]", Source: pos("tests/weather.ananke.yaml", 6, 21),
				Severity: assertion.Critical, Status: status.Pass, Message: "assistant text matches `Sunny`", Expected: "assistant text matching `Sunny`", Observed: "\"Sunny, 23 °C.\"",
				Evidence: []assertion.Evidence{{Note: "match", Text: "Sunny, 23 °C.", EventRefs: []int64{3}}}},
			{ID: "turn[0].grounded", Level: assertion.LevelTurn, Kind: assertion.KindGrounded, Scope: "turn[0]", Source: pos("tests/weather.ananke.yaml", 7, 17),
				Severity: assertion.Warning, Status: status.Warn,
				Message:  `1 claim in turn[0]'s reply appears in no tool result, tool argument, user message or history: "23" (char 7)`,
				Expected: "every number in the reply found in a tool result, tool argument, user message or history", Observed: `1 ungrounded claim: "23"`,
				Evidence: []assertion.Evidence{{Note: "ungrounded claim", Text: "Sunny, 23 °C.", EventRefs: []int64{3}}}},
			{ID: "turn[0].judge", Level: assertion.LevelTurn, Kind: assertion.KindJudge, Scope: "turn[0]", Source: pos("tests/weather.ananke.yaml", 8, 15),
				Severity: assertion.Warning, Status: status.Error,
				Message:  "the judge gave no verdict: model gpt-4o-mini at https://models.example.com/v1: server error (500) after 3 attempts: upstream overloaded",
				Expected: `the judge finds every criterion true: "answers in the user's units"`, Observed: "no verdict"},
		},
	})
	errored := once(&spec.Test{Path: "tests/refund.ananke.yaml", ID: "tests/refund", Name: name("refund needs a seeded order")}, &engine.Attempt{
		Status: status.Error, Start: ms(0), End: ms(35),
		Reason: `hooks[0]: hook "bash seed.sh" exited with status 3; stderr: cannot reach db with ` + Secret, ReasonPos: pos("tests/refund.ananke.yaml", 5, 5),
		Detail: "connecting...\ncannot reach db with " + Secret,
	})
	skipped := &engine.TestResult{
		Test:   &spec.Test{Path: "tests/legacy.ananke.yaml", ID: "tests/legacy", Name: name("legacy flow"), Skip: "waiting for agent v2"},
		Status: status.Skipped, Reason: "waiting for agent v2", Start: ms(0), End: ms(0),
		Policy: stability.Policy{Runs: 1, MinPassRate: 100},
	}
	return &engine.Outcome{Tests: []*engine.TestResult{failing, passing, errored, skipped, wobbly(base), flipping(base)}, Start: Start, End: ms(1700)}
}

// once is a test run once, whose status and reason are its attempt's.
func once(t *spec.Test, a *engine.Attempt) *engine.TestResult {
	p := stability.Policy{Runs: 1, MinPassRate: 100}
	return judged(t, p, a.Status, a.Reason, a)
}

// judged is a test with its attempts, judged by policy p as the engine
// does.
func judged(t *spec.Test, p stability.Policy, st status.Status, reason string, attempts ...*engine.Attempt) *engine.TestResult {
	runs := map[int][]status.Status{}
	for _, a := range attempts {
		runs[a.Run] = append(runs[a.Run], a.Status)
		// As the engine does: apply severities and gather the evidence's
		// event references.
		for i := range a.Results {
			a.Results[i].Finish()
		}
	}
	var byRun [][]status.Status
	for i := range len(runs) {
		byRun = append(byRun, runs[i])
	}
	r := &engine.TestResult{Test: t, Status: st, Reason: reason, Policy: p, Verdict: p.Judge(byRun), Attempts: attempts,
		Start: attempts[0].Start, End: attempts[len(attempts)-1].End}
	r.ReasonPos, r.Detail = attempts[0].ReasonPos, attempts[0].Detail
	return r
}

// searchAttempt is one run of the wobbly search test: the agent searched
// for shoes, or answered from memory.
func searchAttempt(base int64, run int, searched bool) *engine.Attempt {
	start := base + int64(run)*500
	req := assertion.Result{ID: "turn[0].tools.require[0]", Level: assertion.LevelTurn, Kind: assertion.KindRequire, Scope: "turn[0]",
		Source: pos("tests/search.ananke.yaml", 9, 13), Expected: "`search` at least 1 time"}
	runID := fmt.Sprintf("run-s%d", run)
	turn := trace.Turn{Index: 0, Kind: "user", UserText: "find red shoes", StartMs: start, EndMs: start + 300, ToolCalls: []trace.ToolCall{},
		Runs:   []trace.Run{{RunID: runID, Request: []byte(`{"runId":"` + runID + `"}`), StartMs: start, EndMs: start + 300, FirstSeq: 1, Frames: 2}},
		Events: []trace.Event{{Seq: 1, ReceivedMs: start + 10, Type: "RUN_STARTED", Raw: []byte(`{"type":"RUN_STARTED","runId":"` + runID + `"}`)}}}
	a := &engine.Attempt{Run: run, Status: status.Pass, Start: time.UnixMilli(start).UTC(), End: time.UnixMilli(start + 300).UTC()}
	if searched {
		c := trace.ToolCall{ID: fmt.Sprintf("call-s%d", run), Name: "search", Args: `{"q":"red shoes"}`, ArgsJSON: true,
			Result: &trace.Result{Content: "3 hits"}, StartedMs: start + 50, EndedMs: start + 60, TimestampMs: start + 120, StartSeq: 3}
		turn.ToolCalls, turn.Texts = []trace.ToolCall{c}, []string{"Found 3 pairs."}
		req.Status, req.Message, req.Observed = status.Pass, "`search` called 1 time, expected at least 1 time", "1 call satisfying the entry (1 call to `search`)"
		req.Evidence = []assertion.Evidence{{Note: "satisfies the entry", Call: &c}}
	} else {
		turn.Texts = []string{"Red shoes are popular this year."}
		a.Status = status.Fail
		req.Status, req.Message, req.Observed = status.Fail, "`search` was never called (no tool calls in turn[0])", "0 calls"
	}
	a.Trace = &trace.Trace{TestStartMs: start, TestEndMs: start + 300, Turns: []trace.Turn{turn}}
	a.Results = []assertion.Result{req}
	return a
}

// wobbly is a test run three times that must pass 60% of its runs: two
// runs pass, the second fails, so it passes and is flaky.
func wobbly(base int64) *engine.TestResult {
	t := &spec.Test{Path: "tests/search.ananke.yaml", ID: "tests/search", Name: name("search finds shoes")}
	runs := []*engine.Attempt{searchAttempt(base, 0, true), searchAttempt(base, 1, false), searchAttempt(base, 2, true)}
	for i, u := range [][2]int64{{3100, 90}, {2900, 60}, {4200, 120}} {
		runs[i].Trace.Turns[0].Usage = Spent(Usage("openai", "gpt-4o-mini", u[0], u[1]))
	}
	return judged(t, stability.Policy{Runs: 3, MinPassRate: 60}, status.Pass, "", runs...)
}

// flipping is a test run twice with one retry: its first run fails twice,
// its second passes, so it fails (50% of runs passed) and is flaky.
func flipping(base int64) *engine.TestResult {
	t := &spec.Test{Path: "tests/flip.ananke.yaml", ID: "tests/flip", Name: name("search flips")}
	first, retry, second := searchAttempt(base, 0, false), searchAttempt(base, 0, false), searchAttempt(base, 1, true)
	retry.Retry = 1
	// The retry's agent reported no usage: the test's is partial.
	first.Trace.Turns[0].Usage = Spent(Usage("openai", "gpt-4o-mini", 2000, 50))
	second.Trace.Turns[0].Usage = Spent(Usage("openai", "gpt-4o-mini", 2400, 100))
	for _, a := range []*engine.Attempt{first, retry, second} {
		a.Results[0].Source.File = t.Path
	}
	return judged(t, stability.Policy{Runs: 2, MinPassRate: 100, Retries: 1}, status.Fail,
		"1 of 2 runs passed (50%), below min_pass_rate 100%", first, retry, second)
}

// Config is the fixture's config.
func Config() *spec.Config {
	return &spec.Config{Path: "ananke.config.yaml", Target: spec.Target{Type: "agui", Endpoint: vars.Literal("https://agent.example.com/agui"), AgentID: vars.Literal("shop")},
		Redact: []*vars.Regex{vars.MustRegex(`tok_[a-z0-9]{8}`)}}
}

// Report builds the fixture report.
func Report() *report.Report {
	return report.Build(Outcome(), report.Meta{Version: "v1.2.3", Config: Config(), Parallel: 2})
}

// OutcomeWithoutUsage is Outcome as a run whose agent reported no usage.
func OutcomeWithoutUsage() *engine.Outcome {
	out := Outcome()
	for _, t := range out.Tests {
		for _, a := range t.Attempts {
			if a.Trace == nil {
				continue
			}
			for i := range a.Trace.Turns {
				a.Trace.Turns[i].Usage = nil
			}
		}
	}
	return out
}

// ReportWithoutUsage builds the fixture report of a run whose agent
// reported no usage: outputs show nothing about usage for it.
func ReportWithoutUsage() *report.Report {
	return report.Build(OutcomeWithoutUsage(), report.Meta{Version: "v1.2.3", Config: Config(), Parallel: 2})
}

// Positions of the fixture's tests in Outcome.
const (
	Failing = iota // fails two assertions in one run
	Passing
	Errored // a hook failed
	Skipped
	Wobbly // passes 2 of 3 runs: flaky
	Flips  // fails: 1 of 2 runs passed, with a retry; flaky
)

// Pick builds a report from some of the fixture's tests through
// report.Build, as a run would, so that its status and totals are real.
func Pick(failOnFlaky bool, tests ...int) *report.Report {
	out := Outcome()
	all := out.Tests
	out.Tests = nil
	for _, i := range tests {
		out.Tests = append(out.Tests, all[i])
	}
	return report.Build(out, report.Meta{Version: "v1.2.3", Config: Config(), FailOnFlaky: failOnFlaky})
}
