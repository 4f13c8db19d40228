package report

import (
	"fmt"
	"strings"
	"time"

	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/model"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// Schema identifies the summary.json format.
const Schema = "ananke.report/v1"

// Report is a whole run. Slices are never nil, so JSON holds [] not null.
type Report struct {
	Schema     string    `json:"schema"`
	Version    string    `json:"ananke_version"`
	StartedAt  time.Time `json:"started_at"`
	EndedAt    time.Time `json:"ended_at"`
	DurationMs int64     `json:"duration_ms"`
	Config     string    `json:"config"`
	Target     Target    `json:"target"`
	Parallel   int       `json:"parallel"`
	// Shard is the part of the suite this run ran (--shard i/n); nil for
	// the whole suite, and after a merge.
	Shard *Shard `json:"shard,omitempty"`
	// FailOnFlaky: a flaky test fails the run even when it passed.
	FailOnFlaky bool `json:"fail_on_flaky"`
	// FailOnInconclusive: an inconclusive test fails the run whatever its
	// status (absent: false).
	FailOnInconclusive bool `json:"fail_on_inconclusive,omitempty"`
	// Confidence is the level, in percent, of the report's intervals
	// (the config's confidence).
	Confidence float64 `json:"confidence"`
	// Status is the run's verdict — pass, fail or error — from the statuses
	// of the tests not quarantined, FailOnFlaky, FailOnInconclusive and the
	// run's budget. The exit code and the
	// check run's conclusion follow it.
	Status status.Status `json:"status"`
	Totals Totals        `json:"totals"`
	// Budget is how the run kept to the config's budget: (nil: it has
	// none); a run over it fails.
	Budget *RunBudget `json:"budget,omitempty"`
	// Hooks are the config's before_all and after_all hooks that ran;
	// one that failed makes a passing run an error.
	Hooks []Hook `json:"hooks"`
	// QuarantineAdvice are suggestions about the quarantine list from
	// evidence beyond this run (Advise; nil: none).
	QuarantineAdvice []QuarantineAdvice `json:"quarantine_advice,omitempty"`
	// Warnings are about the run as a whole and failed no test: the
	// requests to Ananke's backend no test attempt took (backend.go);
	// absent when there are none.
	Warnings []RunWarning `json:"warnings,omitempty"`
	// History is the base branch's recent runs the tests were read against
	// (history.Attach); nil without one. Tests stay last: summary.json is
	// written a test at a time after the fields before them.
	History *History `json:"history,omitempty"`
	// Attacks is what the attack runs found (SetAttacks,
	// docs/attacks.md); nil when none ran.
	Attacks *Attacks `json:"attacks,omitempty"`
	// Variants compares the variants the suite ran against
	// (docs/variants.md); nil without variants.
	Variants *Variants `json:"variants,omitempty"`
	// Snapshots is what the run did with snapshots (docs/snapshots.md);
	// nil when it wrote, updated, failed and found obsolete none.
	Snapshots *Snapshots `json:"snapshots,omitempty"`
	Tests     []Test     `json:"tests"`

	masked []string
}

// Hook is how one before_all or after_all hook went.
type Hook struct {
	Phase      string        `json:"phase"` // before_all | after_all
	Index      int           `json:"index"`
	Source     Location      `json:"source"`
	Status     status.Status `json:"status"` // pass | error
	Message    string        `json:"message,omitempty"`
	Detail     string        `json:"detail,omitempty"`
	DurationMs int64         `json:"duration_ms"`
}

// FailedHooks returns the suite hooks that failed.
func (r *Report) FailedHooks() []Hook {
	var out []Hook
	for _, h := range r.Hooks {
		if h.Status == status.Error {
			out = append(out, h)
		}
	}
	return out
}

// MaskValues returns the secret values the report was masked with, for an
// output that must mask text Ananke does not write itself (GitHub's
// ::add-mask:: lines). No reporter needs it: the report is masked already.
func (r *Report) MaskValues() []string { return r.masked }

// Target describes the agent under test as configured (secrets masked):
// where it is, whatever its type.
type Target struct {
	Type     string `json:"type"`
	Endpoint string `json:"endpoint"`
	AgentID  string `json:"agent_id"`
	// AgentCardURL is an A2A agent's card URL; Command a stdio MCP
	// server's command and arguments.
	AgentCardURL string   `json:"agent_card_url,omitempty"`
	Command      []string `json:"command,omitempty"`
}

// Shard is one part of a suite split with --shard i/n.
type Shard struct {
	Index int `json:"index"` // from 1
	Total int `json:"total"`
}

// Totals counts tests by status.
type Totals struct {
	Total   int `json:"total"`
	Passed  int `json:"passed"`
	Failed  int `json:"failed"`
	Errored int `json:"errored"`
	Skipped int `json:"skipped"`
	// Flaky counts tests with passing and failing attempts, whatever
	// their status.
	Flaky int `json:"flaky"`
	// Warned counts tests whose shown attempt has a failing warning.
	Warned int `json:"warned"`
	// NotMade counts the checks that could not be made (status error) in
	// the tests' shown attempts, whatever their tests' status: a critical
	// one errors its test, while a warning one (a warning judge whose model
	// failed) leaves its test passing, and is told by this count and its
	// own status, never hidden.
	NotMade int `json:"not_made"`
	// Adaptive sums the tests that ran adaptively (runs: {min, max}):
	// their runs, what stopping once settled saved, the inconclusive ones;
	// nil when none did.
	Adaptive *AdaptiveTotals `json:"adaptive,omitempty"`
	// Quarantined counts the quarantined tests, which the counts above
	// include and the run's verdict leaves out (Counted); nil when none
	// are.
	Quarantined *QuarantineTotals `json:"quarantined,omitempty"`
	// Model is what the run's judges and simulated users cost, and
	// ModelCostUSD its price, kept apart from the agent's: nil when they
	// used no tokens, or when some test's cost is unknown (the model has
	// no price).
	Model        Usage    `json:"model"`
	ModelCostUSD *float64 `json:"model_cost_usd,omitempty"`
	// Usage is what the agent under test used over every attempt of every
	// test (docs/cost.md); nil when no test's trace reported usage.
	Usage *cost.Spend `json:"usage,omitempty"`
	// PassRate is passed / (total - skipped), in percent.
	PassRate float64 `json:"pass_rate"`
}

// Assertion severities: a critical check that fails fails its test, and
// one that could not be made errors it; a warning never changes its test's
// status, and is reported all the same.
const (
	SeverityCritical = "critical"
	SeverityWarning  = "warning"
)

// Test is one test's result.
type Test struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Variant is the variant the test ran under, its ID qualified
	// (VariantID); "" without variants.
	Variant string `json:"variant,omitempty"`
	File    string `json:"file"`
	// Line is where the test is declared: 1 for a test file, the case's
	// line in a dataset.
	Line   int           `json:"line"`
	Tags   []string      `json:"tags"`
	Status status.Status `json:"status"`
	// Reason says why a test errored or was skipped; At is where its cause
	// is written, when known.
	Reason     string    `json:"reason,omitempty"`
	At         *Location `json:"reason_at,omitempty"`
	Detail     string    `json:"detail,omitempty"`
	StartedAt  time.Time `json:"started_at"`
	DurationMs int64     `json:"duration_ms"`
	// Runs is how many runs were judged, PassedRuns how many of them
	// passed; PassRate is their ratio in percent (0 when none ran), judged
	// against MinPassRate. Retries is how often a failing run could be run
	// again. Flaky: some attempt passed and some did not.
	Runs        int     `json:"runs"`
	PassedRuns  int     `json:"passed_runs"`
	PassRate    float64 `json:"pass_rate"`
	MinPassRate float64 `json:"min_pass_rate"`
	Retries     int     `json:"retries"`
	Flaky       bool    `json:"flaky"`
	// PassRateCI is the pass rate's confidence interval and PassK is
	// pass^k for k = Runs, for a test run more than once (nil otherwise).
	PassRateCI *Interval `json:"pass_rate_ci,omitempty"`
	PassK      *PassK    `json:"pass_k,omitempty"`
	// Turns, Assertions and Warnings are those of the shown attempt: the
	// first failing one of a failed test, the last passing one of a passed
	// test, the first of an errored test. Each assertion says in how many
	// attempts it failed.
	Turns      []Turn      `json:"turns"`
	Assertions []Assertion `json:"assertions"`
	Warnings   []Warning   `json:"warnings"`
	// Attempts are every run and retry, ordered by run, then retry; Shown
	// is the position (from 1) of the shown attempt among them, 0 when the
	// test never ran.
	Attempts []Attempt `json:"attempts"`
	Shown    int       `json:"shown_attempt"`
	// Checkpoints are a dynamic test's checkpoints in its shown attempt,
	// with the turn each was reached at.
	Checkpoints []Checkpoint `json:"checkpoints,omitempty"`
	// Model is what the test's judges and simulated user cost, over all
	// its attempts, and ModelCostUSD its price at the config's model's
	// price (nil: no tokens used, or the model has no price).
	Model        Usage    `json:"model"`
	ModelCostUSD *float64 `json:"model_cost_usd,omitempty"`
	// Usage is what the agent used over all the test's attempts, and
	// PerAttempt its mean and maximum per attempt; both nil when no
	// attempt's trace reported usage (docs/cost.md).
	Usage      *cost.Spend   `json:"usage,omitempty"`
	PerAttempt *AttemptUsage `json:"usage_per_attempt,omitempty"`
	// FailureCategories are the kinds of failure of the test's failing
	// assertions, over all its attempts (process, outcome, format,
	// groundedness, state, memory, scheduler, timing, cost, protocol,
	// judgment, script).
	FailureCategories []string `json:"failure_categories"`
	// Adaptive is how the test's adaptive runs went (nil: a fixed number
	// of runs); Inconclusive, that they reached their maximum without a
	// settled verdict, which is then the observed rate's.
	Adaptive *AdaptiveRuns `json:"adaptive,omitempty"`
	// History is what the base branch's recent runs say of the test
	// (history.Attach); nil without a history.
	History      *TestHistory `json:"history,omitempty"`
	Inconclusive bool         `json:"inconclusive,omitempty"`
	// Quarantined is the quarantine entry that names the test (nil: not
	// quarantined): it ran and is reported as it did, but its status plays
	// no part in the run's verdict.
	Quarantined *Quarantined `json:"quarantined,omitempty"`
	// ResultFile and TraceFile are the test's files in the report
	// directory (slash-separated, relative to it); TraceFile is the shown
	// attempt's trace.
	ResultFile string `json:"result_file"`
	TraceFile  string `json:"trace_file"`
	// TraceID is the shown attempt's W3C trace id: its requests to the
	// agent carried it (docs/opentelemetry.md#trace-context); "" for an
	// attempt that sent none, or an imported trace.
	TraceID string `json:"trace_id,omitempty"`
	// Source is where the shown attempt's trace came from and what it
	// can observe: the capabilities its assertions were gated on.
	Source Source `json:"source"`
	// Trace is the shown attempt's masked trace, written to its own file
	// rather than into summary.json.
	Trace *trace.Trace `json:"-"`
}

// Source is the adapter a test's trace came from (docs/imports.md).
type Source struct {
	// Adapter is "ag-ui" for runs of the target, or an import format.
	Adapter string `json:"adapter"`
	Version string `json:"version,omitempty"`
	// Mode is live, replay or import.
	Mode         string   `json:"mode"`
	Capabilities []string `json:"capabilities"`
	Path         string   `json:"path,omitempty"`
	GroupID      string   `json:"group_id,omitempty"`
	SessionID    string   `json:"session_id,omitempty"`
	TaskID       string   `json:"task_id,omitempty"`
}

// Usage counts language-model use: requests sent, answers served from the
// cache, and tokens.
type Usage = model.Usage

// Checkpoint is one checkpoint of a dynamic test.
type Checkpoint struct {
	ID          string   `json:"id"`
	Description string   `json:"description,omitempty"`
	Source      Location `json:"source"`
	// ReachedAt is the turn the checkpoint was reached at; nil when it
	// was not.
	ReachedAt *int `json:"reached_at_turn"`
}

// Attempt is one execution of a test.
type Attempt struct {
	// Run numbers the run from 1; Retry counts the retries of that run
	// before this attempt (0: its first try).
	Run        int           `json:"run"`
	Retry      int           `json:"retry"`
	Status     status.Status `json:"status"`
	Reason     string        `json:"reason,omitempty"`
	StartedAt  time.Time     `json:"started_at"`
	DurationMs int64         `json:"duration_ms"`
	// Failed are the assertions that failed in this attempt, with evidence.
	Failed []Assertion `json:"failed_assertions"`
	// Usage is what the agent used in this attempt (nil: none reported).
	Usage     *cost.Spend `json:"usage,omitempty"`
	TraceFile string      `json:"trace_file"`
	// TraceID is the attempt's W3C trace id (docs/opentelemetry.md#trace-context).
	TraceID string `json:"trace_id,omitempty"`
	// Trace is this attempt's masked trace (its own file).
	Trace *trace.Trace `json:"-"`
}

// Repeated reports whether the test ran more than once, or adaptively, so
// that reports show its runs and pass rate.
func (t *Test) Repeated() bool { return len(t.Attempts) > 1 || t.Runs > 1 || t.Adaptive != nil }

// Wobbly returns the assertions that failed in some attempt but not in all
// of them: what makes a test flaky.
func (t *Test) Wobbly() []Assertion {
	var out []Assertion
	for _, a := range t.Assertions {
		if a.FailedRuns > 0 && a.FailedRuns < len(t.Attempts) {
			out = append(out, a)
		}
	}
	return out
}

// Others returns the attempts that are not the shown one and did not pass:
// the failed runs of a flaky test, the further failed runs of a failed one.
func (t *Test) Others() []Attempt {
	var out []Attempt
	for i, a := range t.Attempts {
		if i+1 != t.Shown && a.Status != status.Pass {
			out = append(out, a)
		}
	}
	return out
}

// FirstFailure returns, for an assertion id, the first attempt it failed in
// and its result there.
func (t *Test) FirstFailure(id string) (Attempt, Assertion, bool) {
	for _, a := range t.Attempts {
		for _, f := range a.Failed {
			if f.ID == id {
				return a, f, true
			}
		}
	}
	return Attempt{}, Assertion{}, false
}

// FailedIn says in how many of the test's attempts something failed, for
// humans: "failed in 2 of 3 runs". With retries an attempt is not a run — a
// run retried once is two attempts — so it counts attempts then, and the
// runs a report shows elsewhere stay true.
func (t *Test) FailedIn(n int) string {
	noun := "runs"
	if len(t.Attempts) != t.Runs {
		noun = "attempts"
	}
	if len(t.Attempts) == 1 {
		noun = strings.TrimSuffix(noun, "s")
	}
	return fmt.Sprintf("failed in %d of %d %s", n, len(t.Attempts), noun)
}

// Label names an attempt for humans: "run 2", "run 1 retry 1".
func (a Attempt) Label() string {
	if a.Retry == 0 {
		return fmt.Sprintf("run %d", a.Run)
	}
	return fmt.Sprintf("run %d retry %d", a.Run, a.Retry)
}

// Warned returns the failing warnings: reported, never failing the test.
func (t *Test) Warned() []Assertion {
	var out []Assertion
	for _, a := range t.Assertions {
		if a.Status == status.Warn {
			out = append(out, a)
		}
	}
	return out
}

// NotMade returns the checks of the shown attempt that could not be made
// (status error): a judge whose model failed or never answered in the form
// asked, a script that crashed, an after hook that failed. Of severity
// warning they leave the test's status as it was; reporters show them all
// the same, since a check not made must never read as one that passed.
func (t *Test) NotMade() []Assertion {
	var out []Assertion
	for _, a := range t.Assertions {
		if a.Status == status.Error {
			out = append(out, a)
		}
	}
	return out
}

// Failed returns the failing assertions.
func (t *Test) Failed() []Assertion {
	var out []Assertion
	for _, a := range t.Assertions {
		if a.Status == status.Fail {
			out = append(out, a)
		}
	}
	return out
}

// Turn summarizes one turn.
type Turn struct {
	Index int    `json:"index"`
	Type  string `json:"type"`
	User  string `json:"user,omitempty"`
	// Attachments are the files the user message carried, and AgentFiles
	// those the agent sent (an A2A agent's file parts).
	Attachments []trace.Attachment `json:"attachments,omitempty"`
	AgentFiles  []trace.Attachment `json:"agent_files,omitempty"`
	DurationMs  int64              `json:"duration_ms"`
	Runs        int                `json:"runs"`
	// Text is the turn's assistant text: its first TextCap bytes when
	// TextBytes says it is longer (the trace file's events hold it all).
	Text string `json:"text"`
	// TextBytes is the whole text's size when Text is cut; 0 otherwise.
	TextBytes int `json:"text_bytes,omitempty"`
	// Reasoning is the reasoning the agent made visible in the turn, its
	// messages joined by "\n" and cut as Text is (ReasoningBytes); absent
	// without reasoning.
	Reasoning      string   `json:"reasoning,omitempty"`
	ReasoningBytes int      `json:"reasoning_bytes,omitempty"`
	ToolCalls      []Call   `json:"tool_calls"`
	RunErrors      []string `json:"run_errors"`
	// Subagents are the sub-agent runs the agent started in the turn;
	// their calls are among ToolCalls, each naming its Agent.
	Subagents []Subagent `json:"subagents,omitempty"`
	// Usage is what the agent used in the turn (nil: none reported).
	Usage *cost.Spend `json:"usage,omitempty"`
	// ModelCalls are the requests the agent made to its model through
	// Ananke's model gateway in the turn, in the order they started
	// (absent without the gateway).
	ModelCalls []ModelCall `json:"model_calls,omitempty"`
	// Interrupts are what the turn's runs ended with to ask the client,
	// and Resumes the answers the turn sent (interrupts.go).
	Interrupts []Interrupt `json:"interrupts,omitempty"`
	Resumes    []Resume    `json:"resumes,omitempty"`
}

// TextCap bounds a turn's text in the report: enough for any answer a
// person reads, while a test that streams megabytes does not repeat them
// in summary.json and its result file.
const TextCap = 16 << 10

// Call is a tool call as evidence and in turn summaries. Times are
// milliseconds since the test's first turn started.
type Call struct {
	ID     string  `json:"id"`
	Name   string  `json:"name"`
	Turn   int     `json:"turn"`
	Args   string  `json:"args"`
	Result *string `json:"result,omitempty"`
	// IsError is true when the result reported a failure (its text is
	// then the error).
	IsError bool `json:"is_error,omitempty"`
	Client  bool `json:"client,omitempty"`
	// Agent is the subagent that made the call: an AG-UI sub-agent run's
	// name, an imported session's subagent id (empty: the main agent);
	// SubagentRunID the AG-UI sub-agent run (one of the turn's Subagents).
	Agent         string `json:"agent,omitempty"`
	SubagentRunID string `json:"subagent_run_id,omitempty"`
	// Served, when set, says Ananke's tool doubles answered the call
	// (Unanswered: the test gave the tool no answer, and the agent got an
	// error).
	Served *trace.Served `json:"served,omitempty"`
	// Source is "spans" for a call found only in the agent's
	// OpenTelemetry spans (trace.SourceSpans); absent for a call the
	// agent streamed.
	Source     string `json:"source,omitempty"`
	AtMs       int64  `json:"at_ms"`
	DurationMs int64  `json:"duration_ms"`
	Seq        int64  `json:"seq"`
}

// Subagent is one sub-agent run of a turn.
type Subagent struct {
	RunID string `json:"run_id"`
	Name  string `json:"name"`
	// Status is running (never ended), finished, suspended or error;
	// Error says why it failed.
	Status           string `json:"status"`
	Error            string `json:"error,omitempty"`
	ParentRunID      string `json:"parent_run_id,omitempty"`
	ParentToolCallID string `json:"parent_tool_call_id,omitempty"`
	// AtMs is its start, in ms since the test's first turn started, and
	// DurationMs its start to its end (0: it never ended).
	AtMs       int64 `json:"at_ms"`
	DurationMs int64 `json:"duration_ms"`
	Seq        int64 `json:"seq"`
}

// Assertion is one evaluated (or skipped) assertion.
type Assertion struct {
	ID       string        `json:"id"`
	Level    string        `json:"level"`
	Kind     string        `json:"kind"`
	Scope    string        `json:"scope"`
	Source   Location      `json:"source"`
	Severity string        `json:"severity"`
	Status   status.Status `json:"status"`
	Message  string        `json:"message"`
	Expected string        `json:"expected,omitempty"`
	Observed string        `json:"observed,omitempty"`
	Evidence []Evidence    `json:"evidence"`
	// EventRefs are the sequence numbers (in the attempt's trace) of the
	// events the result rests on.
	EventRefs Refs `json:"event_refs"`
	// Origins are where the events of EventRefs were read, for a trace
	// imported from a transcript ("session.jsonl:14"), in EventRefs'
	// order; absent for events received from an agent.
	Origins []string `json:"origins,omitempty"`
	// FailedRuns is how many of the test's attempts this assertion failed
	// in (absent: none): the assertion that wobbles is the one to look at.
	// Set on a test's assertions, not on an attempt's.
	FailedRuns int `json:"failed_runs,omitempty"`
	// FailureRateCI is the interval of the rate it fails at, FailedRuns of
	// the test's attempts, on the evaluated assertions of a test run more
	// than once (nil otherwise).
	FailureRateCI *Interval `json:"failure_rate_ci,omitempty"`
	// Judge is a judge assertion's answer: its model, prompt hash and
	// each criterion's verdict (nil for other kinds, and for a judge that
	// gave no verdict).
	Judge *Judge `json:"judge,omitempty"`
}

// Judge is what a judge assertion answered (docs/judges.md).
type Judge struct {
	Model      string           `json:"model"`
	PromptHash string           `json:"prompt_hash"`
	Criteria   []JudgeCriterion `json:"criteria"`
	// Demoted says why a judge whose severity gates was reported as a
	// warning: its calibration is missing, stale or below the threshold.
	Demoted string `json:"demoted,omitempty"`
}

// JudgeCriterion is the judge's verdict on one criterion.
type JudgeCriterion struct {
	Criterion string `json:"criterion"`
	Verdict   string `json:"verdict"`
	Reasoning string `json:"reasoning"`
}

// Evidence supports an assertion's result.
type Evidence struct {
	Note string `json:"note"`
	Call *Call  `json:"call,omitempty"`
	Text string `json:"text,omitempty"`
	Gap  *Gap   `json:"gap,omitempty"`
	// EventRefs are the sequence numbers of the events this item shows.
	EventRefs Refs `json:"event_refs,omitempty"`
}

// Gap is an idle interval (ms since the test started).
type Gap struct {
	FromMs int64  `json:"from_ms"`
	ToMs   int64  `json:"to_ms"`
	From   string `json:"from"`
	To     string `json:"to"`
}

// Warning is a protocol deviation that did not fail the test, or what a
// test's source noticed in the recorded run (rule "source").
type Warning struct {
	Turn    int    `json:"turn"`
	Seq     int64  `json:"seq"`
	Rule    string `json:"rule"`
	Message string `json:"message"`
}

// Where is where the warning points: "turn[1] event #7", or "turn[1]"
// for the turn as a whole (seq 0).
func (w Warning) Where() string {
	if w.Seq == 0 {
		return fmt.Sprintf("turn[%d]", w.Turn)
	}
	return fmt.Sprintf("turn[%d] event #%d", w.Turn, w.Seq)
}

// Location is a position in a config or test file.
type Location struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
}

// String is "file:line:col", or "file" without a line.
func (l Location) String() string {
	if l.Line == 0 {
		return l.File
	}
	return fmt.Sprintf("%s:%d:%d", l.File, l.Line, l.Col)
}
