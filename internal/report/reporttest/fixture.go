// Package reporttest provides one fixed report for reporters' golden tests:
// a passing, a failing, an erroring and a skipped test, evidence of every
// shape, protocol warnings, a planted secret and agent text full of control
// characters, built through report.Build so that masking is exercised too.
package reporttest

import (
	"time"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/trace"
)

// Secret is planted in the fixture's agent text, tool arguments and error
// detail; it must never appear in any rendered output.
const Secret = "sk-live-0123456789abcdef"

// Start is the fixture run's start time.
var Start = time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC)

func ms(offset int64) time.Time { return Start.Add(time.Duration(offset) * time.Millisecond) }

func pos(file string, line, col int) spec.Pos { return spec.Pos{File: file, Line: line, Col: col} }

func name(s string) spec.Name { return spec.Name{Value: s} }

// Outcome is the engine outcome the fixture report is built from.
func Outcome() *engine.Outcome {
	base := Start.UnixMilli()
	pay := trace.ToolCall{ID: "call-1", Name: "charge_card", Turn: 1, Args: `{"amount":42,"token":"` + Secret + `"}`, ArgsJSON: true,
		Result: &trace.Result{Content: `{"status":"declined"}`, JSON: true}, StartedMs: base + 1300, EndedMs: base + 1320, TimestampMs: base + 1450, StartSeq: 9}
	search := trace.ToolCall{ID: "call-0", Name: "search", Turn: 0, Args: `{"q":"shoes"}`, ArgsJSON: true,
		Result: &trace.Result{Content: "2 hits", JSON: false}, StartedMs: base + 100, EndedMs: base + 110, TimestampMs: base + 200, StartSeq: 3}
	failing := &engine.TestResult{
		Test:   &spec.Test{Path: "tests/checkout.ananke.yaml", ID: "tests/checkout", Name: name("checkout declines the card"), Tags: []spec.Name{name("payments")}},
		Status: engine.Fail,
		Start:  ms(0), End: ms(1600),
		Trace: &trace.Trace{TestStartMs: base, TestEndMs: base + 1600, Turns: []trace.Turn{
			{Index: 0, Kind: "user", UserText: "find shoes", StartMs: base, EndMs: base + 900, ToolCalls: []trace.ToolCall{search}, Texts: []string{"Found 2."},
				Runs:   []trace.Run{{RunID: "run-1", Request: []byte(`{"threadId":"t","runId":"run-1","messages":[]}`), StartMs: base, EndMs: base + 900, FirstSeq: 1, Frames: 6}},
				Events: []trace.Event{{Seq: 1, ReceivedMs: base + 50, Type: "RUN_STARTED", Raw: []byte(`{"type":"RUN_STARTED","threadId":"t","runId":"run-1"}`)}}},
			{Index: 1, Kind: "user", UserText: "pay with my card", StartMs: base + 1000, EndMs: base + 1600, ToolCalls: []trace.ToolCall{pay},
				Texts: []string{"Payment \x1b[31mdeclined\x1b[0m ]]> <b>&amp;</b> key " + Secret},
				Runs: []trace.Run{{RunID: "run-2", Request: []byte(`{"threadId":"t","runId":"run-2","messages":[{"id":"u","role":"user","content":"card ` + Secret + `"}]}`),
					StartMs: base + 1000, EndMs: base + 1600, FirstSeq: 7, Frames: 8}},
				Events: []trace.Event{{Seq: 7, ReceivedMs: base + 1010, Type: "RUN_STARTED", Raw: []byte(`{"type":"RUN_STARTED"}`)},
					{Seq: 12, ReceivedMs: base + 1500, Type: "TEXT_MESSAGE_CONTENT", Raw: []byte(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"key ` + Secret + `"}`)}}},
		}},
		Results: []assertion.Result{
			{ID: "turn[0].tools.require[0]", Level: spec.LevelTurn, Kind: spec.KindRequire, Scope: "turn[0]", Source: pos("tests/checkout.ananke.yaml", 8, 13),
				Status: assertion.Pass, Message: "`search` called 1 time, expected at least 1 time", Expected: "`search` at least 1 time",
				Observed: "1 call satisfying the entry (1 call to `search`)", Evidence: []assertion.Evidence{{Note: "satisfies the entry", Call: &search}}},
			{ID: "turn[1].tools.forbid_calls[0]", Level: spec.LevelTurn, Kind: spec.KindForbidCalls, Scope: "turn[1]", Source: pos("tests/checkout.ananke.yaml", 14, 13),
				Status: assertion.Fail, Message: "forbidden call to `charge_card` with result_match `declined`: call call-1 in turn[1] (result \"{\\\"status\\\":\\\"declined\\\"}\")",
				Expected: "no call to `charge_card` with result_match `declined`", Observed: "1 call matching (1 call to `charge_card`)",
				Evidence: []assertion.Evidence{{Note: "matches the forbidden pattern", Call: &pay}}},
			{ID: "turn[1].text.must_not_match[0]", Level: spec.LevelTurn, Kind: spec.KindMustNotMatch, Scope: "turn[1]", Source: pos("tests/checkout.ananke.yaml", 17, 25),
				Status: assertion.Fail, Message: "assistant text in turn[1] matches forbidden `declined`: \"Payment \x1b[31mdeclined\x1b[0m ]]>\"",
				Expected: "assistant text not matching `declined`", Observed: "match \"declined\"",
				Evidence: []assertion.Evidence{{Note: "forbidden match", Text: "Payment \x1b[31mdeclined\x1b[0m ]]> <b>&amp;</b> key " + Secret}}},
			{ID: "turn[1].target.timing.max_idle_ms", Level: spec.LevelTarget, Kind: spec.KindMaxIdle, Scope: "turn[1]", Source: pos("ananke.config.yaml", 9, 20),
				Status: assertion.Pass, Message: "longest idle gap 300 ms (limit 5000 ms)", Expected: "no idle gap over 5000 ms", Observed: "300 ms idle from turn start to call call-1 (charge_card)",
				Evidence: []assertion.Evidence{{Note: "longest idle gap", Gap: &assertion.Gap{FromMs: base + 1000, ToMs: base + 1300, From: "turn start", To: "call call-1 (charge_card)"}}}},
			{ID: "test.tools.require[0]", Level: spec.LevelTest, Kind: spec.KindRequire, Scope: "test", Source: pos("tests/checkout.ananke.yaml", 21, 7),
				Status: assertion.Skip, Message: "not evaluated: the test stopped when turn[1] failed"},
		},
		Warnings: []engine.Warning{{Turn: 0, Seq: 2, Rule: "identity", Message: "no RUN_STARTED in the response echoes the input's runId 'run-1'"}},
		Secrets:  []string{Secret},
	}
	passing := &engine.TestResult{
		Test:   &spec.Test{Path: "tests/weather.ananke.yaml", ID: "tests/weather", Name: name("weather in Paris")},
		Status: engine.Pass, Start: ms(0), End: ms(420),
		Trace: &trace.Trace{TestStartMs: base, TestEndMs: base + 420, Turns: []trace.Turn{{Index: 0, Kind: "user", UserText: "weather?", StartMs: base, EndMs: base + 420, Texts: []string{"Sunny."}}}},
		Results: []assertion.Result{{ID: "turn[0].text.must_match[0]", Level: spec.LevelTurn, Kind: spec.KindMustMatch, Scope: "turn[0]", Source: pos("tests/weather.ananke.yaml", 6, 21),
			Status: assertion.Pass, Message: "assistant text matches `Sunny`", Expected: "assistant text matching `Sunny`", Observed: "\"Sunny.\""}},
	}
	errored := &engine.TestResult{
		Test:   &spec.Test{Path: "tests/refund.ananke.yaml", ID: "tests/refund", Name: name("refund needs a seeded order")},
		Status: engine.Error, Start: ms(0), End: ms(35),
		Reason: `hooks[0]: hook "bash seed.sh" exited with status 3; stderr: cannot reach db with ` + Secret, ReasonPos: pos("tests/refund.ananke.yaml", 5, 5),
		Detail: "connecting...\ncannot reach db with " + Secret,
	}
	skipped := &engine.TestResult{
		Test:   &spec.Test{Path: "tests/legacy.ananke.yaml", ID: "tests/legacy", Name: name("legacy flow"), Skip: "waiting for agent v2"},
		Status: engine.Skipped, Reason: "waiting for agent v2", Start: ms(0), End: ms(0),
	}
	return &engine.Outcome{Tests: []*engine.TestResult{failing, passing, errored, skipped}, Start: Start, End: ms(1700)}
}

// Config is the fixture's config.
func Config() *spec.Config {
	return &spec.Config{Path: "ananke.config.yaml", Target: spec.Target{Type: "agui", Endpoint: spec.Literal("https://agent.example.com/agui"), AgentID: spec.Literal("shop")},
		Redact: []*spec.Regex{spec.MustRegex(`tok_[a-z0-9]{8}`)}}
}

// Report builds the fixture report.
func Report() *report.Report {
	return report.Build(Outcome(), report.Meta{Version: "v1.2.3", Config: Config(), Parallel: 2})
}
