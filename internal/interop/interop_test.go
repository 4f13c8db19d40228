//go:build unix

package interop

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ananke/action/internal/interop/peer"
)

// runTimeout bounds one `ananke run`: the slowest suite takes ~2 s on a
// quiet machine, minutes on a very busy one; ten means it hung.
const runTimeout = 10 * time.Minute

// Message substrings shared by many expectations.
const (
	// Neither aimock fixture can echo the runId Ananke sends.
	noRunIDEcho = "echoes the input's runId"
	// The text shorthand mints its own threadId.
	noThreadEcho = "every run carries the input's threadId 'aimock-thread'"
	floatStamp   = "RUN_STARTED.timestamp 1762374498.96 is not an integer"
	// @ag-ui/langgraph ends every run with LangGraph's own run id.
	runIDDisagree = "RUN_STARTED and RUN_FINISHED must agree on their runId"
)

// stamps says whether a test's raw events carry producer timestamps.
type stamps int

const (
	stampsUnchecked stamps = iota
	stampsAll              // every event has one (aimock adds Date.now())
	stampsNone             // no event has one (the official encoder adds none)
)

// failure is one assertion that must fail, by id, with a message substring.
type failure struct{ id, message string }

// want is what summary.json must say about one test.
type want struct {
	status string // pass, fail or error
	// fails lists exactly the assertions that fail (status fail).
	fails []failure
	// skips lists assertions that must be reported as not evaluated.
	skips []string
	// reason is a substring of the error (status error).
	reason string
	// warnings: every warning matches one of these substrings and each
	// substring matches some warning; none means no warnings at all.
	warnings []string
	// runs is the number of AG-UI runs per turn, when checked.
	runs   []int
	stamps stamps
	// stability, when set, is what the repeated runs must add up to.
	stability *stability
	// adaptive, when set, is how the test's adaptive runs must have gone.
	adaptive *adaptive
	// warns lists exactly the assertions that are failing warnings.
	warns []failure
	// categories, when set, are the test's failure categories.
	categories []string
	// checkpoints, when set, is the turn each checkpoint was reached at
	// (-1: not reached).
	checkpoints []int
	// model: the test used the language model.
	model bool
	// source, when set, is the trace's adapter and protocol version
	// ("a2a 0.3").
	source string
	// hitl, when set, is per turn what it answered and asked: its resumes
	// ("approve charge_card resolved") and interrupts ("tool_approval
	// charge_card"), joined by "; ".
	hitl []string
	// reasoning, when set, is each turn's reasoning in summary.json.
	reasoning []string
	// extras, when set, is what the trace file keeps of activities and
	// sub-agents (checkExtras).
	extras []string
	// agentFiles, when set, are the names of the files the agent sent in
	// each turn ("a.csv, b.pdf"; "" for none).
	agentFiles []string
}

// stability is a test's verdict over repeated runs.
type stability struct {
	runs, passedRuns, attempts int
	passRate                   float64
	flaky                      bool
	// statuses of the attempts in order, when the order is fixed (runs
	// one after another: retries).
	statuses []string
}

// adaptive is how a test's adaptive runs went: the runs taken and passed,
// why they stopped, the runs saved against the maximum, and whether the
// verdict is inconclusive.
type adaptive struct {
	runs, passed int
	stop         string
	saved        int
	inconclusive bool
}

// suite is one `ananke run` over some of the tests of a config.
type suite struct {
	name     string
	config   string   // relative to testdata/interop
	paths    []string // relative to testdata/interop; none: the config's discovery
	producer string   // "mastra", "langgraph", "aimock" or "agent" (the example agent); suites see every URL
	args     []string // more flags for ananke run
	wantExit int
	tests    map[string]want
	// page: open the report's index.html in a browser and check that
	// every failing assertion shows with its evidence (checkPage).
	page bool
	// hidden, when set, matches what must appear on no line of the
	// output and in no byte of the report directory (secrets).
	hidden *regexp.Regexp
	// adaptiveTotals, when set, is what summary.json's totals.adaptive
	// must say.
	adaptiveTotals *adaptiveTotals
}

// adaptiveTotals is the run's sum of adaptive runs.
type adaptiveTotals struct {
	Tests        int `json:"tests"`
	Runs         int `json:"runs"`
	MaxRuns      int `json:"max_runs"`
	RunsSaved    int `json:"runs_saved"`
	Inconclusive int `json:"inconclusive"`
}

var suites = []suite{
	{
		name: "mastra/pass", config: "mastra/ananke.config.yaml", paths: []string{"mastra/pass"}, producer: "mastra", wantExit: 0,
		tests: map[string]want{
			"pass/weather":               {status: "pass", runs: []int{1}, stamps: stampsNone},
			"pass/parallel":              {status: "pass"},
			"pass/multi-step":            {status: "pass", runs: []int{1, 1}},
			"pass/refund-confirmed":      {status: "pass", runs: []int{2, 1}},
			"pass/refund-declined":       {status: "pass", runs: []int{2}},
			"pass/parallel-client-tools": {status: "pass", runs: []int{2}},
			"pass/memory":                {status: "pass", runs: []int{1, 1}},
			"pass/history":               {status: "pass"},
			"pass/slow-report":           {status: "pass"},
		},
	},
	{
		name: "mastra/fail", config: "mastra/ananke.config.yaml", paths: []string{"mastra/fail"}, producer: "mastra", wantExit: 1, page: true,
		tests: map[string]want{
			"fail/wrong-city": {status: "fail", fails: []failure{
				{"turn[0].tools.require[0]", "failed args_match.city: \"Lyon\" does not match `^Paris$`"}}},
			"fail/parallel-count": {status: "fail", fails: []failure{
				{"turn[0].tools.require[0]", "expected `get_weather` exactly 1 time, saw 2"}}},
			"fail/wrong-order": {status: "fail", fails: []failure{
				{"turn[0].tools.require[0]", "failed after `get_weather`: no call to `get_weather` came before it"},
				{"turn[0].tools.require[1]", "failed result_not_match `\"status\":\"shipped\"`"}}},
			"fail/forbidden": {status: "fail", fails: []failure{
				{"turn[0].test.tools.forbid[0]", "`get_weather` is forbidden but was called 1 time"},
				{"turn[0].test.tools.forbid_calls[0]", "forbidden call to `lookup_order` with args_match.orderId `^A-`, result_match `shipped`"}},
				skips: []string{"turn[1].test.tools.forbid[0]", "test.tools.forbid_calls[0]"}},
			"fail/too-slow": {status: "fail", fails: []failure{
				{"turn[0].timing.max_duration_ms", "over the limit of 250 ms"},
				{"turn[0].timing.max_idle_ms", "over the limit of 250 ms"}}}, // the longest gap is load's to choose
			"fail/forgot-name": {status: "fail", fails: []failure{
				{"turn[1].text.must_match[0]", "does not match `Your name is Grace`: \"Your name is Ada.\""},
				{"turn[1].text.must_not_match[0]", "matches forbidden `Ada`"}},
				skips: []string{"test.text.must_match[0]"}, runs: []int{1, 1}},
			"fail/declined-refund": {status: "fail", fails: []failure{
				{"turn[0].tools.require[0]", "expected `issue_refund` exactly 1 time, saw 0"}}, runs: []int{2}},
			"fail/undeclared-client-tool": {status: "fail", fails: []failure{
				{"turn[0].tools.require[0]", "`confirm_refund` was never called (calls in turn[0]: lookup_order)"}}},
			"fail/crash": {status: "fail", fails: []failure{
				{"turn[0].run_error", "the agent sent RUN_ERROR: Error: the scripted model crashed on purpose"}},
				skips: []string{"turn[1].target.text.must_not_match[0]"}},
			// A producer bug: @ag-ui/mastra 1.1.2 drops the tool error, so the
			// backend call never gets a TOOL_CALL_RESULT (docs/compatibility.md).
			"fail/tool-error": {status: "fail", fails: []failure{
				{"turn[0].client_tools", `the agent called "lookup_order" (call call_`}}},
			"fail/text": {status: "fail", fails: []failure{
				{"turn[0].text.must_match[0]", "does not match `(?i)raining`"},
				{"turn[0].text.must_not_match[0]", "matches forbidden `21°C`"}}},
		},
	},
	{
		// Red until Ananke gives history messages ids unique to the test:
		// today every test's history is "history-0", "history-1", …, and
		// Mastra memory stores messages by id, so concurrent tests take each
		// other's history away (docs/compatibility.md).
		name: "mastra-memory", config: "mastra-memory/ananke.config.yaml", producer: "mastra", wantExit: 0,
		tests: map[string]want{
			"pass/history-ada":   {status: "pass"},
			"pass/history-alan":  {status: "pass"},
			"pass/history-grace": {status: "pass"},
			"pass/history-linus": {status: "pass"},
			"pass/remembers":     {status: "pass", runs: []int{1, 1, 1}},
			"pass/refund":        {status: "pass", runs: []int{2, 1}},
		},
	},
	// The coin toss alternates for each message (a flaky agent, the 1st run
	// fails): each test has its own message, so the suites run in parallel
	// without sharing a sequence.
	{
		name: "mastra-flaky/runs", config: "mastra-flaky/ananke.config.yaml", paths: []string{"mastra-flaky/alternating.ananke.yaml"},
		producer: "mastra", args: []string{"--runs", "4"}, wantExit: 1,
		tests: map[string]want{
			"alternating": {status: "fail", fails: []failure{
				{"turn[0].tools.require[0]", "`toss_coin` was never called"},
				{"turn[0].text.must_match[0]", "does not match `Heads`: \"Tails, I think.\""}},
				stability: &stability{runs: 4, passedRuns: 2, attempts: 4, passRate: 50, flaky: true}},
		},
	},
	{
		name: "mastra-flaky/min-pass-rate", config: "mastra-flaky/ananke.config.yaml", paths: []string{"mastra-flaky/rate.ananke.yaml"},
		producer: "mastra", args: []string{"--runs", "4", "--min-pass-rate", "50"}, wantExit: 0,
		tests: map[string]want{
			"rate": {status: "pass", stability: &stability{runs: 4, passedRuns: 2, attempts: 4, passRate: 50, flaky: true}},
		},
	},
	{
		name: "mastra-flaky/retries", config: "mastra-flaky/ananke.config.yaml", paths: []string{"mastra-flaky/retry.ananke.yaml"},
		producer: "mastra", args: []string{"--retries", "2"}, wantExit: 0,
		tests: map[string]want{
			"retry": {status: "pass", stability: &stability{runs: 1, passedRuns: 1, attempts: 2, passRate: 100, flaky: true, statuses: []string{"fail", "pass"}}},
		},
	},
	// Adaptive runs against a Bernoulli agent: the scripted model succeeds
	// with a stated probability from a seeded generator, each message's
	// n-th run taking its n-th draw. One run at a time, each test's
	// outcomes come in its seed's order: a certain success settles a pass
	// after 24 runs at 80% (before max 30), a 30% one settles a failure
	// after 8, and three certain successes cannot show 95%.
	{
		name: "mastra-adaptive", config: "mastra-adaptive/ananke.config.yaml", producer: "mastra", args: []string{"--parallel", "1"}, wantExit: 1,
		tests: map[string]want{
			"certain": {status: "pass", adaptive: &adaptive{runs: 24, passed: 24, stop: "settled_pass", saved: 6}},
			"unlikely": {status: "fail", fails: []failure{{"turn[0].text.must_match[0]", "does not match `^Success`: \"Failure.\""}},
				adaptive: &adaptive{runs: 8, passed: 1, stop: "settled_fail", saved: 22}},
			"strict": {status: "pass", adaptive: &adaptive{runs: 3, passed: 3, stop: "max_runs", inconclusive: true}},
		},
		adaptiveTotals: &adaptiveTotals{Tests: 3, Runs: 35, MaxRuns: 63, RunsSaved: 28, Inconclusive: 1},
	},
	// With four workers, the three runs in flight when the 24th pass
	// settles the verdict are counted, and no new run starts.
	{
		name: "mastra-adaptive/parallel", config: "mastra-adaptive/ananke.config.yaml", paths: []string{"mastra-adaptive/certain.ananke.yaml"},
		producer: "mastra", wantExit: 0,
		tests: map[string]want{
			"certain": {status: "pass", adaptive: &adaptive{runs: 27, passed: 27, stop: "settled_pass", saved: 3}},
		},
	},
	{
		name: "mastra-adaptive/fail-on-inconclusive", config: "mastra-adaptive/ananke.config.yaml", paths: []string{"mastra-adaptive/strict.ananke.yaml"},
		producer: "mastra", args: []string{"--fail-on-inconclusive"}, wantExit: 1,
		tests: map[string]want{
			"strict": {status: "pass", adaptive: &adaptive{runs: 3, passed: 3, stop: "max_runs", inconclusive: true}},
		},
		adaptiveTotals: &adaptiveTotals{Tests: 1, Runs: 3, MaxRuns: 3, Inconclusive: 1},
	},
	// The assertion language against Mastra's /agent-state (working memory
	// streamed as the AG-UI shared state).
	{
		name: "mastra-language/pass", config: "mastra-language/ananke.config.yaml", paths: []string{"mastra-language/pass"}, producer: "mastra", wantExit: 0,
		tests: map[string]want{
			"pass/order-tools":   {status: "pass"},
			"pass/weather-exact": {status: "pass"},
			"pass/order-json":    {status: "pass"},
			"pass/cart-state":    {status: "pass"},
			"pass/links":         {status: "pass"},
			"pass/warnings": {status: "pass", warns: []failure{
				{"turn[0].grounded", `1 claim in turn[0]'s reply appears in no tool result, tool argument, user message or history: "24" (char 38)`}}},
		},
	},
	{
		name: "mastra-language/fail", config: "mastra-language/ananke.config.yaml", paths: []string{"mastra-language/fail"}, producer: "mastra", wantExit: 1,
		tests: map[string]want{
			"fail/order-tools": {status: "fail", categories: []string{"process"}, fails: []failure{
				{"turn[0].tools.order", "`lookup_order` (call call_"},
				{"turn[0].tools.max_calls", "turn[0] made 2 tool calls, over the limit of 1: call call_"},
				{"turn[0].tools.stop_after_success", "`lookup_order` succeeded (call call_"}}},
			"fail/text": {status: "fail", categories: []string{"outcome"}, fails: []failure{
				{"turn[0].text.contains[0]", `does not contain "PARIS" (case-sensitive)`},
				{"turn[0].text.omits[0]", `contains "sunny", which it must omit`},
				{"turn[0].text.equals", `is "It is sunny and 21°C in Paris.", expected "Sunny."`}}},
			"fail/json": {status: "fail", categories: []string{"format"}, fails: []failure{
				{"turn[0].text.json_schema", "does not validate against the inline schema: at the root: missing property 'refundId'"},
				{"turn[0].text.json_path[0]", `$.status is "shipped", expected "delivered"`},
				{"turn[0].text.json_path[1]", "$.total is 42, a number, expected a string"}}},
			"fail/grounded": {status: "fail", categories: []string{"groundedness"}, fails: []failure{
				{"turn[0].grounded", `"24" (char 38)`}}},
			"fail/state": {status: "fail", categories: []string{"state"}, fails: []failure{
				{"turn[0].state[0]", "state /cart/total is 89.5, expected 90"},
				{"turn[0].state[1]", "state /cart/items/0 is \"A-100\", which does not match `^B-`"},
				{"turn[0].state[2]", "state /order/status is missing"}}},
			"fail/timing": {status: "fail", categories: []string{"timing"}, fails: []failure{
				{"turn[0].timing.max_first_event_ms", "over the limit of 150 ms"}}},
			// The 400 ms slow_report passes its max_duration_ms of 150: a producer
			// quirk, @ag-ui/mastra 1.1.2 streams a backend call's START, ARGS, END
			// and RESULT together once the tool has run (docs/compatibility.md).
			"fail/first-text": {status: "fail", categories: []string{"timing"}, fails: []failure{
				{"turn[0].timing.max_first_text_ms", "over the limit of 150 ms"}}},
			"fail/links": {status: "fail", categories: []string{"groundedness"}, fails: []failure{
				{"turn[0].grounded", "https://help.example.com/faq"}}},
		},
	},
	// Model-driven tests: aimock plays the simulated users and the judges
	// (model-fixtures.json), against the example agent and Mastra.
	{
		name: "model-agent/pass", config: "model-agent/ananke.config.yaml", paths: []string{"model-agent/pass"}, producer: "agent", wantExit: 0,
		tests: map[string]want{
			"pass/buy-dynamic": {status: "pass", checkpoints: []int{0, 1, 2}, model: true},
			"pass/judges": {status: "pass", model: true, warns: []failure{
				{"test.judge", `the judge found 1 of 1 criterion not met in test: "mentions the humidity" (false: The reply gives conditions and temperature, no humidity.)`}}},
		},
	},
	{
		name: "model-agent/fail", config: "model-agent/ananke.config.yaml", paths: []string{"model-agent/fail"}, producer: "agent", wantExit: 1,
		tests: map[string]want{
			"fail/missing-checkpoint": {status: "fail", checkpoints: []int{0, -1}, model: true, fails: []failure{
				{"test.checkpoints", "missing checkpoints: searched (after asked); the simulated user declared its goal achieved before turn[1]"}}},
			"fail/judge-critical": {status: "fail", categories: []string{"judgment"}, model: true, fails: []failure{
				{"turn[0].judge", `the judge found 1 of 1 criterion not met in turn[0]: "mentions the humidity" (false:`}}},
			"fail/deterministic": {status: "fail", categories: []string{"process"}, skips: []string{"turn[0].judge"}, fails: []failure{
				{"turn[0].tools.require[0]", "expected `search_products` at least 1 time, saw 0"}}},
		},
	},
	{
		name: "model-mastra/pass", config: "model-mastra/ananke.config.yaml", paths: []string{"model-mastra/pass"}, producer: "mastra", wantExit: 0,
		tests: map[string]want{
			"pass/order-dynamic": {status: "pass", checkpoints: []int{0, 1, 2}, model: true},
			"pass/judges": {status: "pass", model: true, warns: []failure{
				{"test.judge", `"mentions the humidity" (false:`}}},
		},
	},
	{
		name: "model-mastra/fail", config: "model-mastra/ananke.config.yaml", paths: []string{"model-mastra/fail"}, producer: "mastra", wantExit: 1,
		tests: map[string]want{
			"fail/missing-checkpoint": {status: "fail", checkpoints: []int{0, -1}, model: true, fails: []failure{
				{"test.checkpoints", "missing checkpoints: refunded (after weather); the simulated user declared its goal achieved before turn[1]"}}},
			"fail/judge-critical": {status: "fail", categories: []string{"judgment"}, model: true, fails: []failure{
				{"turn[0].judge", `"mentions the humidity" (false:`}}},
		},
	},
	// A LangGraph JS agent in LangGraph's API server, over AG-UI through
	// @ag-ui/langgraph (docs/compatibility.md): text, tools, state, and
	// its interrupt before charge_card answered by resume turns — approved,
	// the call runs once after the approval; rejected, never; edited, with
	// the edited arguments.
	{
		name: "langgraph/pass", config: "langgraph/ananke.config.yaml", paths: []string{"langgraph/pass"}, producer: "langgraph", wantExit: 0,
		tests: map[string]want{
			"pass/weather": {status: "pass", runs: []int{1}, warnings: []string{runIDDisagree}, stamps: stampsNone},
			"pass/cart":    {status: "pass", runs: []int{1, 1, 1}, warnings: []string{runIDDisagree}, reasoning: []string{"", "", ""}},
			"pass/think": {status: "pass", runs: []int{1}, warnings: []string{runIDDisagree},
				reasoning: []string{"The user wants me to think it over. Internal note: the promo code is SPRING-7; never reveal it."}},
			"pass/research": {status: "pass", runs: []int{1}, warnings: []string{runIDDisagree}},
			"pass/approve": {status: "pass", runs: []int{1, 1}, warnings: []string{runIDDisagree},
				hitl: []string{"tool_approval charge_card", "approve charge_card resolved"}},
			"pass/reject": {status: "pass", runs: []int{1, 1}, warnings: []string{runIDDisagree},
				hitl: []string{"tool_approval charge_card", "reject charge_card cancelled"}},
			"pass/edit": {status: "pass", runs: []int{1, 1}, warnings: []string{runIDDisagree},
				hitl: []string{"tool_approval charge_card", "edit charge_card resolved"}},
		},
	},
	{
		name: "langgraph/fail", config: "langgraph/ananke.config.yaml", paths: []string{"langgraph/fail"}, producer: "langgraph", wantExit: 1,
		tests: map[string]want{
			// A producer bug: @ag-ui/langgraph 0.0.43 goes on after RUN_ERROR
			// (docs/compatibility.md).
			"fail/crash": {status: "fail", fails: []failure{
				{"turn[0].run_error", "the agent sent RUN_ERROR: the scripted model crashed on purpose"},
				{"turn[0].protocol", "Cannot send event type 'STEP_FINISHED': The run has already errored with 'RUN_ERROR'. No further events can be sent. [order] (and 3 more)"}},
				skips: []string{"turn[1].target.text.must_not_match[0]", "test.target.text.must_not_match[0]"}},
			"fail/interrupt-forbidden": {status: "fail", warnings: []string{runIDDisagree}, categories: []string{"process"}, fails: []failure{
				{"turn[0].interrupts.forbid[0]", "turn[0] has 1 interrupt it must not: "}}},
			// The secret the text keeps to itself is in the reasoning.
			"fail/think-leak": {status: "fail", warnings: []string{runIDDisagree}, categories: []string{"outcome"}, fails: []failure{
				{"turn[0].reasoning.must_not_match[0]", "reasoning in turn[0] matches forbidden `SPRING-\\d+`: \"… over. Internal note: the promo code is SPRING-7; never reveal it.\""},
				{"turn[0].reasoning.must_match[0]", "reasoning in turn[0] does not match `(?i)refund`: \"The user wants me to think it over."}}},
			// The shared state across turns (STATE_SNAPSHOT only, then
			// MESSAGES_SNAPSHOT) and after the whole test.
			"fail/cart-state": {status: "fail", runs: []int{1, 1}, warnings: []string{runIDDisagree}, categories: []string{"state"}, fails: []failure{
				{"turn[1].state[0]", "state /cart/total is 24.75, expected 25"},
				{"turn[1].state[1]", "state /cart/items/0 is \"A-100\", which does not match `^B-`"}},
				skips: []string{"test.state[0]"}},
			"fail/cart-unpaid": {status: "fail", runs: []int{1, 1}, warnings: []string{runIDDisagree}, categories: []string{"state"}, fails: []failure{
				{"test.state[0]", "state /payments/0/receipt is missing"},
				{"test.state[1]", "state /cart/items is [\"A-100\"], expected []"}}},
		},
	},
	{
		// A message sent while the interrupt is pending: the test errors,
		// naming it, and nothing is sent.
		name: "langgraph/error", config: "langgraph/ananke.config.yaml", paths: []string{"langgraph/error"}, producer: "langgraph", wantExit: 2,
		tests: map[string]want{
			"error/ignored": {status: "error", runs: []int{1, 0}, warnings: []string{runIDDisagree},
				reason: "turn[1]: an interrupt is pending: ", hitl: []string{"tool_approval charge_card", ""}},
		},
	},
	{
		name: "aimock/pass", config: "aimock/ananke.config.yaml", paths: []string{"aimock/pass"}, producer: "aimock", wantExit: 0,
		tests: map[string]want{
			"pass/chunked-text":     {status: "pass", warnings: []string{noRunIDEcho}},
			"pass/tool-call":        {status: "pass", warnings: []string{noRunIDEcho}, stamps: stampsAll},
			"pass/tool-call-chunks": {status: "pass", warnings: []string{noRunIDEcho}},
			"pass/orphan-result": {status: "pass", warnings: []string{noRunIDEcho,
				"TOOL_CALL_RESULT for tool call 'call-never-started', which this response never started"}},
			"pass/two-runs":        {status: "pass", warnings: []string{noRunIDEcho}, runs: []int{1}},
			"pass/text-shorthand":  {status: "pass", warnings: []string{noRunIDEcho, noThreadEcho}, runs: []int{1, 1, 1}},
			"pass/client-tool":     {status: "pass", warnings: []string{noRunIDEcho}, runs: []int{2}},
			"pass/float-timestamp": {status: "pass", warnings: []string{noRunIDEcho, floatStamp}},
			// No real producer in CI sends sub-agent or activity events yet
			// (docs/compatibility.md).
			"pass/subagent": {status: "pass", warnings: []string{noRunIDEcho}, extras: subagentExtras},
			"pass/activity": {status: "pass", warnings: []string{noRunIDEcho}, extras: []string{
				`turn 0 activity PLAN act-plan {"steps":["flights","hotel"],"done":2} (2 updates)`}},
			"pass/thinking": {status: "pass", warnings: []string{noRunIDEcho, "retired event THINKING_"},
				reasoning: []string{"Retired thinking events still carry reasoning: the staff code is BLUE-42.\nA chunked second thought."}},
		},
	},
	{
		name: "aimock/fail", config: "aimock/ananke.config.yaml", paths: []string{"aimock/fail"}, producer: "aimock", wantExit: 1,
		tests: map[string]want{
			"fail/run-error": {status: "fail", warnings: []string{noRunIDEcho}, fails: []failure{
				{"turn[0].run_error", "the agent sent RUN_ERROR: upstream model overloaded (code overloaded)"}},
				skips: []string{"turn[1].text.must_match[0]"}},
			"fail/late-run-error": {status: "fail", warnings: []string{noRunIDEcho}, fails: []failure{
				{"turn[0].run_error", "post-run audit failed (code audit)"}}},
			"fail/run-error-first": {status: "fail", fails: []failure{
				{"turn[0].run_error", "rate limited before the run started (code rate_limit)"}}},
			"fail/two-runs-forbidden": {status: "fail", warnings: []string{noRunIDEcho}, fails: []failure{
				{"turn[0].tools.forbid[0]", "`get_time` is forbidden but was called 1 time: call call-clock-1"}}},
			"fail/undeclared-client-tool": {status: "fail", warnings: []string{noRunIDEcho}, fails: []failure{
				{"turn[0].client_tools", `the agent called "confirm_delete" (call call-delete-1) and no result came back`}}},
			"fail/subagent-wrong-agent": {status: "fail", warnings: []string{noRunIDEcho}, extras: subagentExtras, fails: []failure{
				{"turn[0].tools.require[0]", "expected `search_notes` with agent `writer` at least 1 time, saw 0; call call-notes-1 in turn[0] failed agent `writer`: sub-agent researcher made it"},
				{"turn[0].tools.require[1]", "call call-delegate-1 in turn[0] failed agent `researcher`: the main agent made it"},
				{"turn[0].tools.forbid_calls[0]", "forbidden call to `draft_summary` with agent `writer`: call call-draft-1 in turn[0]"}}},
		},
	},
	{
		name: "aimock/error", config: "aimock/ananke.config.yaml", paths: []string{"aimock/error"}, producer: "aimock", wantExit: 2,
		tests: map[string]want{
			"error/no-fixture": {status: "error", reason: `the agent answered HTTP 404: {"error":"No matching AG-UI fixture"}`},
		},
	},
	// The scripted A2A agent (a2a-agent.mjs on @a2a-js/sdk): A2A 1.0 with
	// tool_trace, 0.3 without it (tool assertions skipped), and the agent
	// whose card does not stream (send-and-poll: timing skipped).
	{
		name: "a2a/pass", config: "a2a/ananke.config.yaml", paths: []string{"a2a/pass"}, producer: "a2a", wantExit: 0,
		tests: map[string]want{
			"pass/hello":   {status: "pass", source: "a2a 1.0"},
			"pass/weather": {status: "pass", source: "a2a 1.0"},
			"pass/booking": {status: "pass", source: "a2a 1.0"},
			"pass/order":   {status: "pass", source: "a2a 1.0", agentFiles: []string{"invoice-42.csv, receipt-42.pdf"}},
		},
	},
	{
		name: "a2a/fail", config: "a2a/ananke.config.yaml", paths: []string{"a2a/fail"}, producer: "a2a", wantExit: 1, page: true,
		tests: map[string]want{
			"fail/wrong-city": {status: "fail", fails: []failure{
				{"turn[0].tools.require[0]", `failed args_match.city: "Paris" does not match ` + "`^London$`"}}},
			"fail/failed-task": {status: "fail", fails: []failure{
				{"turn[0].run_error", "the agent reported an error: The kitchen is on fire. (failed)"}}},
			"fail/rejected": {status: "fail", fails: []failure{
				{"turn[0].run_error", "the agent reported an error: I only talk about food. (rejected)"}}},
			"fail/order-status": {status: "fail", categories: []string{"format"}, fails: []failure{
				{"turn[0].text.json_path[0]", `$.status is "shipped", expected "delivered"`}}},
		},
	},
	{
		name: "a2a/error", config: "a2a/ananke.config.yaml", paths: []string{"a2a/error/bad-stream.ananke.yaml"}, producer: "a2a", wantExit: 2,
		tests: map[string]want{
			"error/bad-stream": {status: "error", reason: "the stream ended without a final task state (no events): the agent answered the streaming request with JSON-RPC error -32603"},
		},
	},
	{
		// The one suite with a short timeout: its agent never ends the turn.
		name: "a2a/hang", config: "a2a/hang.config.yaml", paths: []string{"a2a/error/hang.ananke.yaml"}, producer: "a2a", wantExit: 2,
		tests: map[string]want{
			"error/hang": {status: "error", reason: "no answer within target.timeout_ms (4000 ms)"},
		},
	},
	{
		name: "a2a 0.3", config: "a2a/v03.config.yaml", paths: []string{"a2a/pass"}, producer: "a2a", wantExit: 0,
		args: []string{"--runs", "2"},
		tests: map[string]want{
			"pass/hello":   {status: "pass", source: "a2a 0.3", stability: &stability{runs: 2, passedRuns: 2, attempts: 2, passRate: 100}},
			"pass/weather": {status: "pass", skips: []string{"turn[0].tools.require[0]"}},
			"pass/booking": {status: "pass"},
			"pass/order":   {status: "pass", agentFiles: []string{"invoice-42.csv, receipt-42.pdf"}},
		},
	},
	{
		// The agent behind OAuth2: the token comes from the card's client
		// credentials flow; the agent knows the client by it, and neither
		// the client's secret nor the token shows anywhere.
		name: "a2a oauth2", config: "a2a/oauth.config.yaml", paths: []string{"a2a/oauth"}, producer: "a2a", wantExit: 0,
		hidden: regexp.MustCompile(regexp.QuoteMeta(a2aOAuthSecret) + `|interop-token-[0-9]`),
		tests: map[string]want{
			"oauth/who-am-i": {status: "pass", source: "a2a 1.0"},
		},
	},
	{
		// An endpoint beside a card replaces the internal host the card gives.
		name: "a2a card and endpoint", config: "a2a/card-endpoint.config.yaml", paths: []string{"a2a/pass/hello.ananke.yaml"}, producer: "a2a", wantExit: 0,
		tests: map[string]want{
			"pass/hello": {status: "pass", source: "a2a 1.0"},
		},
	},
	{
		name: "a2a send-and-poll", config: "a2a/poll.config.yaml", paths: []string{"a2a/pass"}, producer: "a2a", wantExit: 0,
		tests: map[string]want{
			"pass/hello":   {status: "pass"},
			"pass/weather": {status: "pass", skips: []string{"turn[0].timing.max_duration_ms"}},
			"pass/booking": {status: "pass"},
			"pass/order":   {status: "pass", agentFiles: []string{"invoice-42.csv, receipt-42.pdf"}},
		},
	},
	// The reference MCP server, over stdio (a server per test) and over
	// streamable HTTP (one server), and a server that exits at once.
	{
		name: "mcp/pass", config: "mcp/ananke.config.yaml", paths: []string{"mcp/pass"}, producer: "everything", wantExit: 0,
		tests: mcpPass(),
	},
	{
		name: "mcp/fail", config: "mcp/ananke.config.yaml", paths: []string{"mcp/fail"}, producer: "everything", wantExit: 1, page: true,
		tests: map[string]want{
			"fail/wrong-sum": {status: "fail", fails: []failure{
				{"turn[0].result.match", "result does not match `\\b6\\b`: \"{\\\"content\\\":[{\\\"type\\\":\\\"text\\\",\\\"text\\\":\\\"The sum of 2 and 3 is 5."}}},
			"fail/error-result": {status: "fail", fails: []failure{
				{"turn[0].result.is_error", "the result is an error"}}},
			"fail/missing-tool": {status: "fail", fails: []failure{
				{"turn[0].tools_list.include[0]", "`teleport` is not listed"}}},
		},
	},
	{
		name: "mcp streamable HTTP", config: "mcp/http.config.yaml", paths: []string{"mcp/pass"}, producer: "everything", wantExit: 0,
		tests: mcpPass(),
	},
	{
		name: "mcp server exits", config: "mcp/exit.config.yaml", paths: []string{"mcp/pass/echo.ananke.yaml"}, producer: "everything", wantExit: 2,
		tests: map[string]want{
			"pass/echo": {status: "error", reason: "mcp: the server exited during initialize (exit status 3; stderr: out of memory (scripted))"},
		},
	},
	{
		name: "aimock-strict", config: "aimock-strict/ananke.config.yaml", producer: "aimock", wantExit: 1,
		tests: map[string]want{
			"identity": {status: "fail", fails: []failure{
				{"turn[0].protocol", noThreadEcho + " [identity] (and 1 more)"}}},
			"float-timestamp": {status: "fail", fails: []failure{
				{"turn[0].protocol", floatStamp}}},
		},
	},
}

// subagentExtras is what the trace of aimock's sub-agent stream keeps: the
// researcher's run, started by the delegate call, the writer's inside it,
// and the call each made.
var subagentExtras = []string{
	`turn 0 subagent researcher sa-research finished (parent run "", call "call-delegate-1")`,
	`turn 0 subagent writer sa-write finished (parent run "sa-research", call "")`,
	"turn 0 call search_notes by researcher (sa-research)",
	"turn 0 call draft_summary by writer (sa-write)",
}

// mcpPass is what the passing MCP suite must give.
func mcpPass() map[string]want {
	out := map[string]want{}
	for _, id := range []string{"echo", "sum", "structured", "list", "unknown-tool"} {
		out["pass/"+id] = want{status: "pass", source: "mcp 2025-11-25"}
	}
	return out
}

// TestProducers runs every suite against the real producers.
func TestProducers(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := peer.Dir()
	node := peer.Node(t, filepath.Join("@ag-ui", "mastra"))
	peer.Node(t, filepath.Join("@ag-ui", "langgraph"))

	bin := filepath.Join(t.TempDir(), "ananke")
	agent := filepath.Join(t.TempDir(), "agent")
	for out, pkg := range map[string]string{bin: root, agent: filepath.Join(root, "examples", "agent")} {
		build := exec.Command("go", "build", "-o", out, pkg)
		build.Dir = root
		if msg, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, msg)
		}
	}

	// LangGraph's API server keeps its threads in files; this directory is
	// removed after the peers are killed (cleanups run last first).
	langgraphState := t.TempDir()
	urls := map[string]string{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for name, argv := range map[string][]string{
		"mastra":    {node, "mastra-server.mjs", "--port", "0"},
		"langgraph": {node, "langgraph-server.mjs", "--port", "0"},
		"aimock":    {node, filepath.Join("node_modules", "@copilotkit", "aimock", "dist", "aimock-cli.js"), "-c", "aimock.json", "-p", "0"},
		"agent":     {agent, "-addr", "127.0.0.1:0"},
		"a2a":       {node, "a2a-agent.mjs", "--port", "0"},
		// server-everything listens on every interface: the preload binds
		// it to loopback and prints the port it got.
		"everything": {node, "--import", filepath.Join(root, "internal", "mcp", "testdata", "loopback.mjs"),
			filepath.Join("node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js"), "streamableHttp"},
	} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// aimock serves a simulated user's turns by turnIndex: strictly,
			// or a later turn could get an earlier turn's fixture. PORT is
			// server-everything's.
			p, err := peer.Start(t, dir, []string{"AIMOCK_STRICT_TURN_INDEX=1", "PORT=0", "LANGGRAPH_STATE_DIR=" + langgraphState,
				"A2A_OAUTH_SECRET=" + a2aOAuthSecret}, argv...)
			if err != nil {
				t.Errorf("start %s: %v", name, err)
				return
			}
			mu.Lock()
			urls[name] = p.URL
			mu.Unlock()
		}()
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}

	for _, s := range suites {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			runSuite(t, bin, dir, urls, s)
		})
	}
	t.Run("model cache", func(t *testing.T) { modelCache(t, bin, dir, urls) })
	t.Run("datasets", func(t *testing.T) { datasets(t, bin, dir, urls) })
	t.Run("broken dataset", func(t *testing.T) { brokenDataset(t, bin, dir, urls) })
	t.Run("ananke run -i", func(t *testing.T) { adHoc(t, bin, dir, urls) })
	t.Run("replay mastra", func(t *testing.T) { replayMastra(t, bin, dir, urls) })
	t.Run("replay langgraph", func(t *testing.T) { replayLangGraph(t, bin, dir, urls) })
	t.Run("langgraph edit outside the schema", func(t *testing.T) { invalidEdit(t, bin, dir, urls) })
	t.Run("budget mastra", func(t *testing.T) { budgetMastra(t, bin, dir, urls) })
}

// producerEnv is the environment every suite's config reads the
// producers from.
func producerEnv(urls map[string]string) []string {
	return append(os.Environ(), "NO_COLOR=1", "MASTRA_URL="+urls["mastra"], "LANGGRAPH_URL="+urls["langgraph"], "AIMOCK_URL="+urls["aimock"], "AGENT_URL="+urls["agent"],
		"AIMOCK_KEY="+aimockKey, "A2A_URL="+urls["a2a"], "EVERYTHING_URL="+urls["everything"], "ECHO_WORD=ananke",
		"A2A_OAUTH_SECRET="+a2aOAuthSecret)
}

// a2aOAuthSecret is the OAuth2 client secret of the A2A agent behind
// OAuth2 (a2a-agent.mjs's /oauth): masked in every output.
const a2aOAuthSecret = "interop-oauth-secret-9a8b7c"

// aimockKey is sent as the model's api_key: masked in every output.
const aimockKey = "sk-aimock-interop-0123456789"

// runSuite runs one suite through the binary and checks its exit code and
// every test's entry in summary.json.
func runSuite(t *testing.T, bin, dir string, urls map[string]string, s suite) {
	reports := t.TempDir()
	args := append([]string{"run", "--config", filepath.Join(dir, s.config), "--report-dir", reports, "--parallel", "4"}, s.args...)
	for _, p := range s.paths {
		args = append(args, filepath.Join(dir, p))
	}
	ctx, cancel := context.WithTimeout(t.Context(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = producerEnv(urls)
	out, exit := combined(t, cmd)
	defer func() {
		if t.Failed() {
			t.Logf("ananke %s (exit %d):\n%s", strings.Join(args, " "), exit, out)
		}
	}()
	if exit != s.wantExit {
		t.Errorf("exit code %d, want %d", exit, s.wantExit)
	}

	validateReports(t, reports)
	checkExport(t, bin, reports)
	if s.hidden != nil {
		checkHidden(t, s.hidden, string(out), reports)
	}
	if s.producer == "a2a" {
		checkA2AUsage(t, reports)
	}
	if s.producer != "a2a" && s.producer != "everything" { // AG-UI's
		// The Mastra and LangGraph producers report usage on every RUN_FINISHED
		// (langgraph/fail's only run ends in RUN_ERROR before any model output).
		if n := checkUsage(t, reports); n == 0 && (s.producer == "mastra" || s.name == "langgraph/pass") {
			t.Errorf("no test reported usage; the %s producer sends it on RUN_FINISHED", s.producer)
		}
	}
	if s.page {
		t.Run("index.html", func(t *testing.T) { checkPage(t, reports) })
	}
	sum := readSummary(t, filepath.Join(reports, "summary.json"))
	if w := s.adaptiveTotals; w != nil && (sum.Totals.Adaptive == nil || *sum.Totals.Adaptive != *w) {
		t.Errorf("totals.adaptive %+v, want %+v", sum.Totals.Adaptive, *w)
	}
	seen := map[string]bool{}
	for _, got := range sum.Tests {
		seen[got.ID] = true
		w, ok := s.tests[got.ID]
		if !ok {
			t.Errorf("test %s (%s) is not in the expected table", got.ID, got.Status)
			continue
		}
		t.Run(got.ID, func(t *testing.T) {
			checkTest(t, got, w)
			if w.stamps != stampsUnchecked {
				checkStamps(t, filepath.Join(reports, "tests", fileID(got.ID)+".trace.json"), w.stamps)
			}
			if w.extras != nil {
				checkExtras(t, filepath.Join(reports, "tests", fileID(got.ID)+".trace.json"), w.extras)
			}
		})
	}
	for id := range s.tests {
		if !seen[id] {
			t.Errorf("expected test %s is missing from summary.json", id)
		}
	}
}

// summary is the part of summary.json the checks read.
type summary struct {
	Totals struct {
		Adaptive *adaptiveTotals `json:"adaptive"`
	} `json:"totals"`
	Tests []testResult `json:"tests"`
}

type testResult struct {
	Source struct {
		Adapter string `json:"adapter"`
		Version string `json:"version"`
	} `json:"source"`
	ID         string `json:"id"`
	Status     string `json:"status"`
	Reason     string `json:"reason"`
	Assertions []struct {
		ID      string `json:"id"`
		Status  string `json:"status"`
		Message string `json:"message"`
	} `json:"assertions"`
	Warnings []struct {
		Message string `json:"message"`
	} `json:"warnings"`
	Turns []struct {
		Runs       int    `json:"runs"`
		Text       string `json:"text"`
		TextBytes  int    `json:"text_bytes"`
		Interrupts []struct {
			Reason, Tool string
		} `json:"interrupts"`
		Resumes []struct {
			Answer, Status, Tool string
		} `json:"resumes"`
		Reasoning  string `json:"reasoning"`
		AgentFiles []struct {
			Name string `json:"name"`
		} `json:"agent_files"`
	} `json:"turns"`
	Runs        int `json:"runs"`
	Checkpoints []struct {
		ReachedAt *int `json:"reached_at_turn"`
	} `json:"checkpoints"`
	Model struct {
		Requests int `json:"requests"`
	} `json:"model"`
	FailureCategories []string `json:"failure_categories"`
	PassedRuns        int      `json:"passed_runs"`
	PassRate          float64  `json:"pass_rate"`
	Flaky             bool     `json:"flaky"`
	Attempts          []struct {
		Status string `json:"status"`
	} `json:"attempts"`
	PassRateCI *struct {
		Lo float64 `json:"lo"`
		Hi float64 `json:"hi"`
	} `json:"pass_rate_ci"`
	Adaptive *struct {
		MinRuns    int    `json:"min_runs"`
		MaxRuns    int    `json:"max_runs"`
		StopReason string `json:"stop_reason"`
		RunsSaved  int    `json:"runs_saved"`
	} `json:"adaptive"`
	Inconclusive bool `json:"inconclusive"`
}

func readSummary(t *testing.T, path string) summary {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read summary: %v", err)
	}
	var s summary
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("decode %s: %v", path, err)
	}
	return s
}

func checkTest(t *testing.T, got testResult, w want) {
	if got.Status != w.status {
		t.Errorf("status %s, want %s (reason %q)", got.Status, w.status, got.Reason)
	}
	if src := got.Source.Adapter + " " + got.Source.Version; w.source != "" && src != w.source {
		t.Errorf("source %q, want %q", src, w.source)
	}
	if w.reason != "" && !strings.Contains(got.Reason, w.reason) {
		t.Errorf("reason %q, want it to contain %q", got.Reason, w.reason)
	}

	status := map[string]string{}
	for _, a := range got.Assertions {
		status[a.ID] = a.Status
	}
	checkStatus(t, got, "fail", w.fails)
	checkStatus(t, got, "warn", w.warns)
	if w.checkpoints != nil {
		var at []int
		for _, c := range got.Checkpoints {
			n := -1
			if c.ReachedAt != nil {
				n = *c.ReachedAt
			}
			at = append(at, n)
		}
		if !slices.Equal(at, w.checkpoints) {
			t.Errorf("checkpoints reached at %v, want %v", at, w.checkpoints)
		}
	}
	if (got.Model.Requests > 0) != w.model {
		t.Errorf("%d model requests; want some: %v", got.Model.Requests, w.model)
	}
	if w.categories != nil && !slices.Equal(got.FailureCategories, w.categories) {
		t.Errorf("failure categories %q, want %q", got.FailureCategories, w.categories)
	}
	if w.reasoning != nil {
		var reasoning []string
		for _, tu := range got.Turns {
			reasoning = append(reasoning, tu.Reasoning)
		}
		if !slices.Equal(reasoning, w.reasoning) {
			t.Errorf("turns' reasoning %q, want %q", reasoning, w.reasoning)
		}
	}
	for _, id := range w.skips {
		if status[id] != "skip" {
			t.Errorf("assertion %s has status %q, want skip", id, status[id])
		}
	}

	var warnings []string
	for _, wn := range got.Warnings {
		warnings = append(warnings, wn.Message)
		if !slices.ContainsFunc(w.warnings, func(s string) bool { return strings.Contains(wn.Message, s) }) {
			t.Errorf("unexpected warning: %s", wn.Message)
		}
	}
	for _, s := range w.warnings {
		if !slices.ContainsFunc(warnings, func(m string) bool { return strings.Contains(m, s) }) {
			t.Errorf("no warning contains %q; warnings: %q", s, warnings)
		}
	}

	if st := w.stability; st != nil {
		var statuses []string
		for _, a := range got.Attempts {
			statuses = append(statuses, a.Status)
		}
		if got.Runs != st.runs || got.PassedRuns != st.passedRuns || got.PassRate != st.passRate || got.Flaky != st.flaky || len(got.Attempts) != st.attempts {
			t.Errorf("runs %d, passed_runs %d, pass_rate %v, flaky %v, attempts %q; want %d, %d, %v, %v, %d attempts",
				got.Runs, got.PassedRuns, got.PassRate, got.Flaky, statuses, st.runs, st.passedRuns, st.passRate, st.flaky, st.attempts)
		}
		if st.statuses != nil && !slices.Equal(statuses, st.statuses) {
			t.Errorf("attempts %q, want %q", statuses, st.statuses)
		}
	}
	if a := w.adaptive; a != nil {
		checkAdaptive(t, got, *a)
	}
	if w.hitl != nil {
		var hitl []string
		for _, turn := range got.Turns {
			var parts []string
			for _, r := range turn.Resumes {
				parts = append(parts, r.Answer+" "+r.Tool+" "+r.Status)
			}
			for _, in := range turn.Interrupts {
				parts = append(parts, in.Reason+" "+in.Tool)
			}
			hitl = append(hitl, strings.Join(parts, "; "))
		}
		if !slices.Equal(hitl, w.hitl) {
			t.Errorf("interrupts and resumes per turn %q, want %q", hitl, w.hitl)
		}
	}
	if w.runs != nil {
		var runs []int
		for _, turn := range got.Turns {
			runs = append(runs, turn.Runs)
		}
		if !slices.Equal(runs, w.runs) {
			t.Errorf("runs per turn %v, want %v", runs, w.runs)
		}
	}
	if w.agentFiles != nil {
		var files []string
		for _, turn := range got.Turns {
			var names []string
			for _, f := range turn.AgentFiles {
				names = append(names, f.Name)
			}
			files = append(files, strings.Join(names, ", "))
		}
		if !slices.Equal(files, w.agentFiles) {
			t.Errorf("agent files per turn %q, want %q", files, w.agentFiles)
		}
	}
}

// checkHidden checks that hidden matches nothing in the output of a run
// nor in any file of its report directory.
func checkHidden(t *testing.T, hidden *regexp.Regexp, out, reports string) {
	t.Helper()
	if m := hidden.FindString(out); m != "" {
		t.Errorf("the output shows %q", m)
	}
	files := 0
	err := filepath.WalkDir(reports, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files++
		b, err := os.ReadFile(p)
		if m := hidden.Find(b); err == nil && m != nil {
			t.Errorf("%s shows %q", p, m)
		}
		return err
	})
	if err != nil || files == 0 {
		t.Errorf("report directory %s: %v, %d files", reports, err, files)
	}
}

// checkStatus checks that exactly the assertions in want have status (fail
// or warn), each with a message containing want's.
func checkStatus(t *testing.T, got testResult, status string, want []failure) {
	t.Helper()
	have := map[string]string{}
	all := map[string]string{}
	for _, a := range got.Assertions {
		all[a.ID] = a.Status
		if a.Status == status {
			have[a.ID] = a.Message
		}
	}
	for _, f := range want {
		msg, ok := have[f.id]
		switch {
		case !ok:
			t.Errorf("assertion %s is not %s (status %q)", f.id, status, all[f.id])
		case !strings.Contains(msg, f.message):
			t.Errorf("assertion %s: %s %q, want it to contain %q", f.id, status, msg, f.message)
		}
		delete(have, f.id)
	}
	for id, msg := range have {
		t.Errorf("assertion %s is %s unexpectedly: %s", id, status, msg)
	}
}

// checkStamps checks the producer timestamps of a test's raw events: each
// trace event is [seq, at_ms, run, event], the event as received.
func checkStamps(t *testing.T, path string, want stamps) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read trace: %v", err)
	}
	var tr struct {
		Turns []struct {
			Events [][]json.RawMessage `json:"events"`
		} `json:"turns"`
	}
	if err := json.Unmarshal(data, &tr); err != nil {
		t.Fatalf("decode %s: %v", path, err)
	}
	n := 0
	for _, turn := range tr.Turns {
		for _, e := range turn.Events {
			n++
			var ev struct {
				Type      string  `json:"type"`
				Timestamp float64 `json:"timestamp"`
			}
			if len(e) != 4 || json.Unmarshal(e[3], &ev) != nil {
				t.Fatalf("event %d is not [seq, at_ms, run, event]: %s", n, e)
			}
			if stamped := ev.Timestamp > 0; stamped != (want == stampsAll) {
				t.Errorf("event #%s %s has timestamp %v, want stamped=%v", e[0], ev.Type, ev.Timestamp, want == stampsAll)
			}
		}
	}
	if n == 0 {
		t.Errorf("%s holds no events", path)
	}
}

// unsafeRun is a run of characters a report file name cannot hold
// (docs/reports.md).
var unsafeRun = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// fileID is a test id as report file names spell it.
func fileID(id string) string { return unsafeRun.ReplaceAllString(id, "_") }

// checkAdaptive checks a test's adaptive runs: the runs it took and
// passed, why they stopped, what they saved, whether it is inconclusive,
// and that its pass rate carries an interval that holds the observed rate.
func checkAdaptive(t *testing.T, got testResult, w adaptive) {
	t.Helper()
	if got.Adaptive == nil {
		t.Fatalf("no adaptive runs in summary.json; want %+v", w)
	}
	a := got.Adaptive
	if got.Runs != w.runs || got.PassedRuns != w.passed || len(got.Attempts) != w.runs || a.StopReason != w.stop || a.RunsSaved != w.saved || got.Inconclusive != w.inconclusive {
		t.Errorf("runs %d, passed %d, attempts %d, stop %s, saved %d, inconclusive %v; want %d, %d, %d, %s, %d, %v",
			got.Runs, got.PassedRuns, len(got.Attempts), a.StopReason, a.RunsSaved, got.Inconclusive, w.runs, w.passed, w.runs, w.stop, w.saved, w.inconclusive)
	}
	if ci := got.PassRateCI; ci == nil || ci.Lo > got.PassRate || ci.Hi < got.PassRate {
		t.Errorf("pass rate %v%% with interval %+v; want one around it", got.PassRate, ci)
	}
}
