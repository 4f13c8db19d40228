// Package suitetest provides a second fixture report for reporters' tests,
// with what reporttest's lacks: suite hooks (a before_all that passed, an
// after_all that failed), tests from a dataset (*.ananke.jsonl, one test
// case per line, so several tests share a file), user messages carrying
// attachments, a failing script assertion and an after hook that could not
// clean up (an assertion with status error), and usage every test
// reported, priced, one with cached input and cache writes (so the run's
// total cost is known). It is built through report.Build, so that
// statuses, totals, sums and masking are real.
package suitetest

import (
	"time"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/stability"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// Secret is planted in the after_all hook's stderr; it must never appear
// in any rendered output.
const Secret = "sk-hook-0123456789abcdef"

// Start is the fixture run's start time.
var Start = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

// Config is the path of the fixture's config, where the suite hooks are.
const Config = "ananke.config.yaml"

// Dataset is the dataset file the Receipt and Invoice tests come from.
const Dataset = "tests/receipts.ananke.jsonl"

// Positions of the fixture's tests in Outcome.
const (
	Receipt = iota // dataset line 3: fails a text check and a script; its after hook errors
	Invoice        // dataset line 4: errored, with no position for its cause
	Smoke          // a test file: passes
)

func ms(offset int64) time.Time { return Start.Add(time.Duration(offset) * time.Millisecond) }

func pos(file string, line, col int) diag.Pos { return diag.Pos{File: file, Line: line, Col: col} }

// Hooks are the fixture's suite hooks: before_all[0] passed, after_all[0]
// failed, its stderr holding the secret.
func Hooks() []engine.SuiteHook {
	return []engine.SuiteHook{
		{Phase: engine.BeforeAll, Index: 0, Pos: pos(Config, 6, 5), Start: ms(0), End: ms(120)},
		{Phase: engine.AfterAll, Index: 0, Pos: pos(Config, 9, 5), Start: ms(2000), End: ms(2050),
			Error:  `after_all[0]: hook "./cleanup.sh" exited with status 1; stderr: boom`,
			Detail: "removing tmp/orders with key " + Secret + "\nboom"},
	}
}

// Outcome is the engine outcome the fixture report is built from.
func Outcome() *engine.Outcome {
	base := Start.UnixMilli()
	receipt := once(&spec.Test{Path: Dataset, Pos: pos(Dataset, 3, 1), ID: "tests/receipts/T002", Name: vars.Name{Value: "reads the receipt total"}}, &engine.Attempt{
		Status: status.Fail, Start: ms(200), End: ms(1400),
		Trace: &trace.Trace{TestStartMs: base + 200, TestEndMs: base + 1400, Turns: []trace.Turn{
			{Index: 0, Kind: "user", UserText: "What is the total on this receipt?", StartMs: base + 200, EndMs: base + 1300,
				Attachments: []trace.Attachment{{Name: "receipt.png", MIME: "image/png", Bytes: 2150}},
				AgentFiles: []trace.Attachment{{Name: "total.csv", MIME: "text/csv", Bytes: 42},
					{Name: "chart.png", MIME: "image/png", URI: "https://files.example.com/chart.png?sig=" + Secret}},
				Texts: []string{"The total is 12.00 EUR."}, Usage: reporttest.Spent(cached("claude-sonnet-4-5", 5200, 3000, 1200, 310))},
		}},
		Results: []assertion.Result{
			{ID: "turn[0].text.must_match[0]", Level: assertion.LevelTurn, Kind: assertion.KindMustMatch, Scope: "turn[0]", Source: pos(Dataset, 3, 121),
				Severity: assertion.Critical, Status: status.Fail, Message: "assistant text in turn[0] does not match `42\\.00`",
				Expected: "assistant text matching `42\\.00`", Observed: `"The total is 12.00 EUR."`},
			{ID: "test.script[0]", Level: assertion.LevelTest, Kind: assertion.KindScript, Scope: "test", Source: pos(Dataset, 3, 160),
				Severity: assertion.Critical, Status: status.Fail, Message: "total 12.00 is not the receipt's 42.00",
				Expected: "`./check_total.py` exits 0", Observed: "exit status 1",
				Evidence: []assertion.Evidence{{Note: "stdout of `./check_total.py`", Text: "total 12.00 is not the receipt's 42.00"}}},
			{ID: "test.after[0]", Level: engine.LevelBuiltin, Kind: assertion.KindAfterHook, Scope: "test", Source: pos(Dataset, 3, 210),
				Severity: assertion.Critical, Status: status.Error, Message: `after[0]: hook "./reset.sh" exited with status 2; stderr: order 42 is locked`,
				Expected: "exits 0", Observed: "failed"},
		},
	})
	invoice := once(&spec.Test{Path: Dataset, Pos: pos(Dataset, 4, 1), ID: "tests/receipts/T003", Name: vars.Name{Value: "reads a scanned invoice"}}, &engine.Attempt{
		Status: status.Error, Start: ms(200), End: ms(30200), Reason: "turn[0]: the agent sent nothing for 30s",
		Trace: &trace.Trace{TestStartMs: base + 200, TestEndMs: base + 30200, Turns: []trace.Turn{
			{Index: 0, Kind: "user", UserText: "Book this invoice", StartMs: base + 200, EndMs: base + 30200,
				Attachments: []trace.Attachment{{Name: "invoice.pdf", MIME: "application/pdf", Bytes: 48_900}, {Name: "notes.txt", MIME: "text/plain", Bytes: 312}},
				Usage:       reporttest.Spent(reporttest.Usage("anthropic", "claude-sonnet-4-5", 4100, 0))},
		}},
	})
	smoke := once(&spec.Test{Path: "tests/smoke.ananke.yaml", Pos: pos("tests/smoke.ananke.yaml", 1, 1), ID: "tests/smoke", Name: vars.Name{Value: "says hello"}}, &engine.Attempt{
		Status: status.Pass, Start: ms(200), End: ms(500),
		Trace: &trace.Trace{TestStartMs: base + 200, TestEndMs: base + 500, Turns: []trace.Turn{
			{Index: 0, Kind: "user", UserText: "hi", StartMs: base + 200, EndMs: base + 500, Texts: []string{"Hello!"},
				Usage: reporttest.Spent(reporttest.Usage("anthropic", "claude-haiku-4-5", 800, 20))},
		}},
		Results: []assertion.Result{
			{ID: "turn[0].text.must_match[0]", Level: assertion.LevelTurn, Kind: assertion.KindMustMatch, Scope: "turn[0]", Source: pos("tests/smoke.ananke.yaml", 5, 21),
				Severity: assertion.Critical, Status: status.Pass, Message: "assistant text matches `Hello`"},
		},
	})
	return &engine.Outcome{Tests: []*engine.TestResult{receipt, invoice, smoke}, Hooks: Hooks(), Secrets: []string{Secret}, Start: Start, End: ms(2100)}
}

// cached is what one of Anthropic's models used: in input tokens, of
// which read came from the prompt cache and write went into it, and out
// output tokens.
func cached(model string, in, read, write, out int64) cost.Usage {
	u := reporttest.Usage("anthropic", model, in, out)
	u.Tokens.Set(cost.CachedInput, read)
	u.Tokens.Set(cost.CacheWrite, write)
	return u
}

// once is a test run once, whose status, reason and position are its
// attempt's, judged as the engine does.
func once(t *spec.Test, a *engine.Attempt) *engine.TestResult {
	for i := range a.Results {
		a.Results[i].Finish()
	}
	p := stability.Policy{Runs: 1, MinPassRate: 100}
	return &engine.TestResult{Test: t, Status: a.Status, Reason: a.Reason, ReasonPos: a.ReasonPos, Detail: a.Detail, Policy: p,
		Verdict: p.Judge([][]status.Status{{a.Status}}), Attempts: []*engine.Attempt{a}, Start: a.Start, End: a.End}
}

func meta() report.Meta {
	return report.Meta{Version: "v1.2.3", Parallel: 1, Config: &spec.Config{Path: Config, Target: spec.Target{Type: "agui", Endpoint: vars.Literal("https://agent.example.com/agui")}}}
}

// Report builds the fixture report: one failed and one errored dataset
// test, a passing test, and a failed after_all hook.
func Report() *report.Report { return report.Build(Outcome(), meta()) }

// Pick builds a report from some of the fixture's tests and its hooks:
// Pick(Smoke) is a run whose tests all passed and that errored all the
// same, because its after_all hook failed.
func Pick(tests ...int) *report.Report {
	out := Outcome()
	all := out.Tests
	out.Tests = nil
	for _, i := range tests {
		out.Tests = append(out.Tests, all[i])
	}
	return report.Build(out, meta())
}

// BeforeAllFailed builds the report of a run whose before_all hook failed:
// no test ran, each errored with the hook's message at its position, as
// the engine reports them, and the after_all hook passed.
func BeforeAllFailed() *report.Report {
	out := Outcome()
	hook := engine.SuiteHook{Phase: engine.BeforeAll, Index: 0, Pos: pos(Config, 6, 5), Start: ms(0), End: ms(40),
		Error: `before_all[0]: hook "./seed.sh" exited with status 3; stderr: database unreachable`, Detail: "connecting to db\ndatabase unreachable"}
	out.Hooks = []engine.SuiteHook{hook, {Phase: engine.AfterAll, Index: 0, Pos: pos(Config, 9, 5), Start: ms(50), End: ms(60)}}
	for i, r := range out.Tests {
		out.Tests[i] = &engine.TestResult{Test: r.Test, Status: status.Error, Reason: hook.Error, ReasonPos: hook.Pos, Detail: hook.Detail,
			Policy: r.Policy, Start: ms(40), End: ms(40)}
	}
	out.End = ms(60)
	return report.Build(out, meta())
}
