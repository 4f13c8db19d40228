package html

import (
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// The page's data: a small tree built from the report, encoded as JSON into
// the page. Times inside a test are milliseconds since the test started;
// empty fields are left out to keep the page small. A string cut at a cap
// has a *_bytes field beside it with its whole size.

type page struct {
	Version string        `json:"version"`
	Status  status.Status `json:"status"`
	// Run names the run as summary.json's started_at does: the labels a
	// reviewer makes of its judges' verdicts are kept and downloaded
	// under it (docs/reports.md#labelling-judge-verdicts).
	Run         string        `json:"run"`
	StartedAt   string        `json:"started_at"`
	DurationMs  int64         `json:"duration_ms"`
	Config      string        `json:"config"`
	Target      report.Target `json:"target"`
	Parallel    int           `json:"parallel"`
	Shard       *report.Shard `json:"shard,omitempty"`
	FailOnFlaky bool          `json:"fail_on_flaky,omitempty"`
	Totals      report.Totals `json:"totals"`
	// Usage is what the agent used over the run (usage.go), when some
	// test's agent reported usage.
	Usage string `json:"usage,omitempty"`
	// Hooks are the suite hooks that failed.
	Hooks []hook `json:"hooks"`
	// Runs says what adaptive runs took and saved (adaptive.go).
	Runs string `json:"runs,omitempty"`
	// Quarantined counts the quarantined tests and says they fail nothing;
	// Advice is the advice about the quarantine list (quarantine.go).
	Quarantined string   `json:"quarantined,omitempty"`
	Advice      []string `json:"advice,omitempty"`
	// History names the base branch's runs the tests were read against,
	// "20 runs of main" (history.go).
	History string `json:"history,omitempty"`
	// Budget are the lines of the config's run budget (docs/cost.md):
	// each bound, exceeded, not checked or kept.
	Budget []budgetLine `json:"budget,omitempty"`
	// Warnings are about the run as a whole: the requests to Ananke's
	// backend no test took (backend.go).
	Warnings []string `json:"warnings,omitempty"`
	// Attacks is what the run's attack runs found (attacks.go); absent
	// when none ran.
	Attacks *attacks `json:"attacks,omitempty"`
	// Variants compares the variants the suite ran against
	// (variants.go); absent without variants.
	Variants *variants `json:"variants,omitempty"`
	// Tests, then Caps (the page's size limits, for its notes), are
	// written after the fields above, a test at a time (write.go).
}

type caps struct {
	Event  int `json:"event"`
	Text   int `json:"text"`
	Events int `json:"events"`
}

type budgetLine struct {
	Status  status.Status `json:"status"` // fail (exceeded), skip (not checked), pass (kept)
	Message string        `json:"message"`
}

type hook struct {
	Name       string `json:"name"` // after_all[0]
	Source     string `json:"source"`
	Message    string `json:"message"`
	Detail     string `json:"detail,omitempty"`
	DurationMs int64  `json:"duration_ms"`
}

type test struct {
	ID   string   `json:"id"`
	Name string   `json:"name"`
	File string   `json:"file"`
	Line int      `json:"line"`
	Tags []string `json:"tags,omitempty"`
	// Variant is the variant the test ran under (variants.go).
	Variant string        `json:"variant,omitempty"`
	Status  status.Status `json:"status"`
	Flaky   bool          `json:"flaky,omitempty"`
	Warned  bool          `json:"warned,omitempty"`
	// Inconclusive: its adaptive runs reached their maximum unsettled.
	Inconclusive bool `json:"inconclusive,omitempty"`
	// Quarantine is its quarantine entry (quarantine.go).
	Quarantine *quarantine `json:"quarantine,omitempty"`
	// Trend is its recent runs on the base branch and this run, and the
	// history's verdict on its failure (history.go).
	Trend *trend `json:"trend,omitempty"`
	// NotMade counts the checks of the shown attempt that could not be
	// made.
	NotMade  int    `json:"not_made,omitempty"`
	Reason   string `json:"reason,omitempty"`
	ReasonAt string `json:"reason_at,omitempty"`
	Detail   string `json:"detail,omitempty"`
	// DurationMs is the first attempt's start to the last one's end.
	DurationMs int64 `json:"duration_ms"`
	// Source is where the trace came from, when not a live AG-UI run.
	Source *report.Source `json:"source,omitempty"`
	// Stability is the runs of a test run more than once.
	Stability *stability `json:"stability,omitempty"`
	// Usage is what the test's agent used (usage.go).
	Usage *usage `json:"usage,omitempty"`
	// TraceFile is the shown attempt's trace, which holds whatever the
	// page cut.
	TraceFile string `json:"trace_file"`
	// TraceID is the shown attempt's W3C trace id, where a tracing backend
	// finds the agent's spans of it (docs/opentelemetry.md#trace-context).
	TraceID     string              `json:"trace_id,omitempty"`
	History     []trace.Message     `json:"history,omitempty"`
	Checkpoints []report.Checkpoint `json:"checkpoints,omitempty"`
	Assertions  []assertion         `json:"assertions"`
	Warnings    []report.Warning    `json:"warnings,omitempty"`
	// Turns are written after the fields above (write.go).
	Turns []turn `json:"-"`
}

type stability struct {
	Runs        int       `json:"runs"`
	PassedRuns  int       `json:"passed_runs"`
	PassRate    float64   `json:"pass_rate"`
	MinPassRate float64   `json:"min_pass_rate"`
	Retries     int       `json:"retries"`
	Attempts    []attempt `json:"attempts"`
	// CI is the pass rate's interval, "95% CI 21–94%", and PassK pass^k
	// for k = runs, "pass^3 29.6% (95% CI 1–83%)" (confidence.go).
	CI    string `json:"ci,omitempty"`
	PassK string `json:"pass_k,omitempty"`
	// Adaptive says how a test's adaptive runs went (adaptive.go).
	Adaptive string `json:"adaptive,omitempty"`
}

type attempt struct {
	Label      string        `json:"label"` // run 1 retry 1
	Status     status.Status `json:"status"`
	Reason     string        `json:"reason,omitempty"`
	DurationMs int64         `json:"duration_ms"`
	// Shown: this attempt's turns and assertions are the test's.
	Shown     bool        `json:"shown,omitempty"`
	Usage     string      `json:"usage,omitempty"`
	Failed    []assertion `json:"failed,omitempty"`
	TraceFile string      `json:"trace_file"`
	// TraceID is the attempt's W3C trace id.
	TraceID string `json:"trace_id,omitempty"`
}

type assertion struct {
	ID         string        `json:"id"`
	Level      string        `json:"level"`
	Kind       string        `json:"kind"`
	Scope      string        `json:"scope"`
	Source     string        `json:"source"` // file:line:col
	Severity   string        `json:"severity"`
	Status     status.Status `json:"status"`
	Message    string        `json:"message"`
	Expected   string        `json:"expected,omitempty"`
	Observed   string        `json:"observed,omitempty"`
	Evidence   []evidence    `json:"evidence,omitempty"`
	Refs       report.Refs   `json:"event_refs,omitempty"`
	Origins    []string      `json:"origins,omitempty"`
	FailedRuns int           `json:"failed_runs,omitempty"`
	// FailureCI is the interval of the rate it fails at, "95% CI 6–79%",
	// on a repeated test's assertions.
	FailureCI string `json:"failure_ci,omitempty"`
	// Judge is a judge's verdict on each criterion, which a reviewer
	// labels agree or disagree in the page; absent for other kinds.
	Judge *report.Judge `json:"judge,omitempty"`
}

type evidence struct {
	Note string `json:"note"`
	// CallRef names a call of the shown trace (its turn and id), shown
	// there in full; Call is a call the page does not hold otherwise.
	CallRef   *callRef    `json:"call_ref,omitempty"`
	Call      *call       `json:"call,omitempty"`
	Text      string      `json:"text,omitempty"`
	TextBytes int         `json:"text_bytes,omitempty"`
	Gap       *report.Gap `json:"gap,omitempty"`
	Refs      report.Refs `json:"event_refs,omitempty"`
}

type callRef struct {
	Turn int    `json:"turn"`
	ID   string `json:"id"`
}

type turn struct {
	Index       int                `json:"index"`
	Type        string             `json:"type"`
	User        string             `json:"user,omitempty"`
	UserBytes   int                `json:"user_bytes,omitempty"`
	Attachments []trace.Attachment `json:"attachments,omitempty"`
	AgentFiles  []trace.Attachment `json:"agent_files,omitempty"`
	StartMs     int64              `json:"start_ms"`
	EndMs       int64              `json:"end_ms"`
	Runs        int                `json:"runs"`
	Text        string             `json:"text,omitempty"`
	TextBytes   int                `json:"text_bytes,omitempty"`
	// Reasoning is the reasoning the agent made visible, its messages
	// joined by "\n"; Activities and Subagents are its activity messages
	// and sub-agent runs (agents.go).
	Reasoning      string     `json:"reasoning,omitempty"`
	ReasoningBytes int        `json:"reasoning_bytes,omitempty"`
	Activities     []activity `json:"activities,omitempty"`
	Subagents      []subagent `json:"subagents,omitempty"`
	// FirstTextMs is when the first assistant text arrived (FirstTextSeq
	// its event); absent without text.
	FirstTextMs  *int64           `json:"first_text_ms,omitempty"`
	FirstTextSeq int64            `json:"first_text_seq,omitempty"`
	Calls        []call           `json:"calls,omitempty"`
	RunErrors    []trace.RunError `json:"run_errors,omitempty"`
	State        string           `json:"state,omitempty"`
	StateBytes   int              `json:"state_bytes,omitempty"`
	Memory       []memory         `json:"memory,omitempty"`
	Outbound     []outbound       `json:"outbound,omitempty"`
	// Usage is what the agent used in the turn (usage.go).
	Usage string `json:"usage,omitempty"`
	// ModelCalls are its requests to the model through Ananke's gateway
	// (backend.go).
	ModelCalls []modelCall `json:"model_calls,omitempty"`
	// Interrupts are what its runs ended with to ask the client, and
	// Resumes the answers it sent (interrupts.go).
	Interrupts []interrupt `json:"interrupts,omitempty"`
	Resumes    []resume    `json:"resumes,omitempty"`
	// Then the turn's raw events, read from its trace as they are
	// written (write.go): "events", "event_count" (how many events the
	// turn has) and "left_out" (the runs of them the page does not hold,
	// beyond the test's events cap).
	events *trace.Turn
}

type call struct {
	ID          string  `json:"id"`
	Name        string  `json:"name"`
	Turn        int     `json:"turn"`
	Args        string  `json:"args"`
	ArgsJSON    bool    `json:"args_json,omitempty"`
	ArgsBytes   int     `json:"args_bytes,omitempty"`
	Result      *string `json:"result,omitempty"`
	ResultJSON  bool    `json:"result_json,omitempty"`
	ResultBytes int     `json:"result_bytes,omitempty"`
	ResultError string  `json:"result_error,omitempty"`
	Client      bool    `json:"client,omitempty"`
	// Agent is the sub-agent that made the call (a name, or an imported
	// subagent's id) and SubagentRunID its run; absent for the main
	// agent's calls.
	Agent         string `json:"agent,omitempty"`
	SubagentRunID string `json:"subagent_run_id,omitempty"`
	// Served marks a call Ananke's tool doubles answered ("⇄ double
	// (match[0])"), Unanswered one the test gave no answer (backend.go).
	Served     string `json:"served,omitempty"`
	Unanswered bool   `json:"unanswered,omitempty"`
	// Source marks a call found only in the agent's spans ("◇ from
	// spans"; backend.go).
	Source string `json:"source,omitempty"`
	// StartMs is the call's start, ArgsEndMs its TOOL_CALL_END (absent:
	// none), DoneMs when it completed.
	StartMs   int64  `json:"start_ms"`
	ArgsEndMs *int64 `json:"args_end_ms,omitempty"`
	DoneMs    int64  `json:"done_ms"`
	StartSeq  int64  `json:"start_seq,omitempty"`
	EndSeq    int64  `json:"end_seq,omitempty"`
	ResultSeq int64  `json:"result_seq,omitempty"`
}

type memory struct {
	Seq     int64  `json:"seq,omitempty"`
	AtMs    int64  `json:"at_ms"`
	Op      string `json:"op"`
	Group   string `json:"group,omitempty"`
	Path    string `json:"path"`
	Content string `json:"content,omitempty"`
	Bytes   int    `json:"content_bytes,omitempty"`
	CallID  string `json:"call_id,omitempty"`
}

type outbound struct {
	Seq    int64  `json:"seq,omitempty"`
	AtMs   int64  `json:"at_ms"`
	To     string `json:"to,omitempty"`
	Text   string `json:"text"`
	Bytes  int    `json:"text_bytes,omitempty"`
	CallID string `json:"call_id,omitempty"`
}

// leftOut is a run of events the page leaves out: From to To, Count of
// them.
type leftOut struct {
	From  int64 `json:"from"`
	To    int64 `json:"to"`
	Count int   `json:"count"`
}

// An event is one raw event, as [seq, ms, raw] — raw the event's JSON
// text as received (masked), a string so that the page shows its bytes
// exactly — with a fourth element {"bytes": whole size, "origin": …} when
// raw was cut or the event was imported. Arrays rather than objects, and
// no type beside the one raw holds (the page reads it there, as readers of
// trace files do): a page holds tens of thousands of events.
type eventExtra struct {
	Bytes  int    `json:"bytes,omitempty"`
	Origin string `json:"origin,omitempty"`
}
