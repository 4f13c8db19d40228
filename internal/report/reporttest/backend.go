package reporttest

import (
	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/backend"
	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// BackendOutcome is a run whose agent took its tools from Ananke's tool
// doubles and its model from Ananke's gateway (docs/backend.md): an A2A
// agent that streamed no tool call, so its turn's calls are the ones the
// doubles served — one answered, one the test gave no answer (with its
// warning) — and one its OpenTelemetry spans showed, and whose model calls are the gateway's: a 429 Ananke
// injected, then the retry, which reported the turn's usage, then one
// the upstream refused, which errored the attempt. A request
// no test took is the run's warning; the secret is planted in a model
// call's error and in an orphan.
func BackendOutcome() *engine.Outcome {
	base := Start.UnixMilli()
	stock := trace.ToolCall{ID: "double-1", Name: "check_stock", Turn: 0, Args: `{"sku":"A-1"}`, ArgsJSON: true,
		Result: &trace.Result{Content: `{"in_stock":4}`, JSON: true}, StartedMs: base + 300, EndedMs: base + 320, TimestampMs: base + 320,
		Served: &trace.Served{By: "doubles", Tool: "check_stock", Answer: "match[0]"}}
	reserve := trace.ToolCall{ID: "double-2", Name: "reserve", Turn: 0, Args: `{"sku":"A-1","token":"` + Secret + `"}`, ArgsJSON: true,
		Result: &trace.Result{Content: "no answer for reserve in this test", Error: "no answer for reserve in this test"}, StartedMs: base + 500, EndedMs: base + 501, TimestampMs: base + 501,
		Served: &trace.Served{By: "doubles", Tool: "reserve", Unanswered: true}}
	// The agent streamed no calls over A2A: quote_price is known from its
	// OpenTelemetry spans alone.
	quote := trace.ToolCall{ID: "call_9", Name: "quote_price", Turn: 0, Args: `{"sku":"A-1"}`, ArgsJSON: true,
		Result: &trace.Result{Content: "89.50"}, StartedMs: base + 700, EndedMs: base + 720, TimestampMs: base + 720, Source: trace.SourceSpans}
	used := Usage("", "gpt-4o-mini", 1200, 80)
	retry := trace.ModelCall{Turn: 0, Model: "gpt-4o-mini", ResponseModel: "gpt-4o-mini-2024-07-18", Messages: 2, Tools: []string{"check_stock", "reserve"},
		Usage: &used, Status: 200, Mode: "replay", FinishReason: "tool_calls", ToolCalls: []string{"check_stock"},
		StartedMs: base + 120, EndedMs: base + 290}
	turn := trace.Turn{Index: 0, Kind: "a2a:send", UserText: "is A-1 in stock?", StartMs: base, EndMs: base + 900,
		ToolCalls: []trace.ToolCall{stock, reserve, quote}, Texts: []string{"A-1: 4 in stock."},
		ModelCalls: []trace.ModelCall{
			{Turn: 0, Model: "gpt-4o-mini", Messages: 2, Status: 429, Fault: "429", Mode: "replay", StartedMs: base + 100, EndedMs: base + 101},
			retry,
			{Turn: 0, Model: "gpt-4o-mini", Messages: 4, Status: 502, Mode: "replay", Error: "upstream refused key " + Secret, StartedMs: base + 600, EndedMs: base + 640},
		},
		Usage: Spent(Usage("", "gpt-4o-mini", 1200, 80)),
		Runs:  []trace.Run{{RunID: "run-b", Request: []byte(`{}`), StartMs: base, EndMs: base + 900, FirstSeq: 1, Frames: 1}}}
	a := &engine.Attempt{Status: status.Error, Reason: "turn[0]: model gateway: upstream refused key " + Secret, ReasonPos: pos("tests/stock.ananke.yaml", 4, 5),
		Start: ms(0), End: ms(900), Secrets: []string{Secret},
		Trace: &trace.Trace{TestStartMs: base, TestEndMs: base + 900, Doubles: true, Gateway: true, Turns: []trace.Turn{turn},
			Source: &trace.Source{Adapter: "a2a", Version: "1.0", Mode: "live", Capabilities: []string{capability.LiveRun}}},
		Results: []assertion.Result{
			{ID: "turn[0].tools.require[0]", Level: assertion.LevelTurn, Kind: assertion.KindRequire, Scope: "turn[0]", Source: pos("tests/stock.ananke.yaml", 6, 13),
				Severity: assertion.Critical, Status: status.Pass, Message: "`check_stock` called 1 time, expected at least 1 time", Expected: "`check_stock` at least 1 time",
				Observed: "1 call satisfying the entry (1 call to `check_stock`)", Evidence: []assertion.Evidence{{Note: "satisfies the entry", Call: &stock}}},
			{ID: "turn[0].model.min_calls", Level: assertion.LevelTurn, Kind: assertion.KindModelMinCalls, Scope: "turn[0]", Source: pos("tests/stock.ananke.yaml", 7, 22),
				Severity: assertion.Critical, Status: status.Pass, Message: "turn[0] made 3 model calls (at least 2)", Expected: "at least 2 model calls", Observed: "3 model calls"},
		},
		Warnings: []engine.Warning{{Turn: 0, Rule: "doubles", Message: `reserve was called with {"sku":"A-1","token":"` + Secret + `"}, and the test gives the double reserve no answer: the agent got an MCP error`}},
	}
	stockTest := once(&spec.Test{Path: "tests/stock.ananke.yaml", ID: "tests/stock", Name: vars.Name{Value: "stock of A-1"}}, a)
	return &engine.Outcome{Tests: []*engine.TestResult{stockTest}, Start: Start, End: ms(1000),
		Orphans: []backend.Orphan{{What: "tools/call check_stock", Why: "no test that uses the backend was running"},
			{What: "chat completions gpt-4o-mini", Why: "no test attempt is running as Ananke-Test: \"" + Secret + "\""}}}
}

// BackendReport builds the report of BackendOutcome.
func BackendReport() *report.Report {
	return report.Build(BackendOutcome(), report.Meta{Version: "v1.2.3", Config: Config(), Parallel: 2})
}
