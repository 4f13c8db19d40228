package normalized

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// Meta is what a trace does not say about itself: the test, the run and
// the attempt it belongs to.
type Meta struct {
	TestID, TestName, TestFile string
	// RunID is the test run's identity (see RunID).
	RunID string
	// Run and Retry name the attempt (0 and 0: the test never ran);
	// Status is its Ananke status (pass, fail, error, skipped).
	Run, Retry int
	Status     status.Status
	// DurationMs is the attempt's duration, used when the trace has no
	// times.
	DurationMs int64
	// Version is the Ananke version, the adapter version of an AG-UI run;
	// AgentID the agent the run targeted.
	Version, AgentID string
	// TraceFile is the trace file, relative to the report directory.
	TraceFile string
}

// Build maps one attempt's trace to a normalized trace. The trace is only
// read; its raw events are read for their receive times, origins and,
// when the trace was read back from a file, the assistant's texts.
func Build(t *trace.Trace, m Meta) Trace {
	if t == nil {
		t = &trace.Trace{}
	}
	raw := scan(t)
	b := &builder{ctx: runtimeContext(t.Source, m.AgentID), raw: raw, calls: map[string]*item{}}
	out := Trace{
		SchemaVersion: SchemaVersion,
		TraceID:       traceID(m),
		TestCaseID:    m.TestID,
		TestCaseName:  m.TestName,
		TestCaseFile:  m.TestFile,
		TestRunID:     m.RunID,
		Attempt:       Attempt{Run: m.Run, Retry: m.Retry, Status: m.Status},
		Adapter:       adapter(t.Source, m.Version),
		Capabilities:  capabilities(t.Caps()),
		Scenario:      scenario(t.Source),
		InputMessages: inputMessages(t),
		Status:        outcome(m.Status, raw.ran || ranAny(t)),
		Artifacts:     Artifacts{TraceFile: m.TraceFile},
	}
	var items []*item
	for i := range t.Turns {
		items = append(items, b.turn(&t.Turns[i])...)
	}
	if n := len(t.Turns); n > 0 {
		last := &t.Turns[n-1]
		out.FinalOutput = joinTexts(raw.texts[n-1])
		items = append(items, &item{ev: Event{Type: TypeFinalOutput, Actor: ActorAgent, Data: FinalOutputData{Text: out.FinalOutput}}, ms: cmp.Or(last.EndMs, t.TestEndMs)})
	}
	out.Events = b.number(items)
	out.Metrics = Metrics{TimingMsTotal: t.TestEndMs - t.TestStartMs, RetryCount: m.Retry}
	if t.TestStartMs == 0 || out.Metrics.TimingMsTotal < 0 {
		out.Metrics.TimingMsTotal = max(m.DurationMs, 0)
	}
	models := 0
	for i := range t.Turns {
		out.Metrics.ToolCallCount += len(t.Turns[i].ToolCalls)
		models += len(t.Turns[i].ModelCalls)
	}
	if t.Gateway || models > 0 {
		out.Metrics.ModelCallCount = &models
	}
	out.Metrics.TokenUsage = tokenUsage(t)
	return out
}

// tokenUsage is what the trace's turns reported using, when every turn
// that ran a model reported it and its input, output and total are known:
// a partial or unknown count is left out, never given as a number.
func tokenUsage(t *trace.Trace) *TokenUsage {
	parts := make([]*cost.Spend, len(t.Turns))
	for i := range t.Turns {
		parts[i] = t.Turns[i].Usage
	}
	s := cost.Sum(parts...)
	if s == nil || s.Partial() {
		return nil
	}
	tok := s.Tokens()
	in, okIn := tok.Get(cost.Input)
	out, okOut := tok.Get(cost.Output)
	total, okTotal := tok.TotalTokens()
	if !okIn || !okOut || !okTotal {
		return nil
	}
	return &TokenUsage{InputTokens: in, OutputTokens: out, TotalTokens: total}
}

// RunID derives a test run's identity from its report: when it started
// (UTC, to the second) and a short hash of its start, config and shard,
// so that the same report always gives the same id and two runs started
// in the same second get different ones.
func RunID(started time.Time, config string, shard string) string {
	sum := hash(started.UTC().Format(time.RFC3339Nano) + "\x00" + config + "\x00" + shard)
	return fmt.Sprintf("run-%s-%s", started.UTC().Format("20060102T150405Z"), sum)
}

// hash is a short hex digest of s.
func hash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:4])
}

// traceID is the run id, the test id and the attempt: unique in a run.
func traceID(m Meta) string {
	return fmt.Sprintf("%s:%s:%d.%d", m.RunID, m.TestID, m.Run, m.Retry)
}

// outcome maps an attempt's Ananke status to the normalized trace's: an
// error is partial when something ran before it, else blocked, as a skip is.
func outcome(s status.Status, ran bool) string {
	switch s {
	case status.Pass:
		return StatusSuccess
	case status.Fail:
		return StatusFailed
	case status.Error:
		if ran {
			return StatusPartial
		}
	}
	return StatusBlocked
}

// ranAny reports whether the trace holds anything the agent did.
func ranAny(t *trace.Trace) bool {
	for i := range t.Turns {
		tt := &t.Turns[i]
		if len(tt.ToolCalls)+len(tt.Texts)+len(tt.Memory)+len(tt.Outbound)+len(tt.RunErrors)+len(tt.ModelCalls) > 0 {
			return true
		}
	}
	return false
}

func adapter(s *trace.Source, version string) Adapter {
	if s == nil {
		return Adapter{Name: "ag-ui", Version: version, Mode: "live"}
	}
	return Adapter{Name: s.Adapter, Version: s.Version, Mode: s.Mode}
}

func capabilities(have []string) map[string]bool {
	caps := make(map[string]bool, len(capability.All))
	for _, c := range capability.All {
		caps[c] = slices.Contains(have, c)
	}
	return caps
}

func scenario(s *trace.Source) Scenario {
	sc := Scenario{Trigger: "user_message"}
	if s == nil {
		return sc
	}
	sc.GroupID, sc.SessionID, sc.TaskID = s.GroupID, s.SessionID, s.TaskID
	if s.Scheduler != nil {
		sch := *s.Scheduler
		if sch.Runs == nil {
			sch.Runs = []trace.TaskRun{}
		}
		sc.Trigger, sc.SchedulerContext = "scheduler", &sch
		if sch.Trigger == "user_message" { // a task run started by hand
			sc.Trigger = sch.Trigger
		}
		if sc.TaskID == "" {
			sc.TaskID = s.Scheduler.TaskID
		}
	}
	return sc
}

// inputMessages are the history, then each turn's user message.
func inputMessages(t *trace.Trace) []Message {
	msgs := make([]Message, 0, len(t.History)+len(t.Turns))
	for _, h := range t.History {
		msgs = append(msgs, Message{Role: h.Role, Content: h.Content, Attachments: h.Attachments})
	}
	for _, tt := range t.Turns {
		if hasUser(&tt) {
			msgs = append(msgs, Message{Role: "user", Content: tt.UserText, Attachments: tt.Attachments})
		}
	}
	return msgs
}

// hasUser reports whether a turn began with a user message (a connect
// turn has none).
func hasUser(t *trace.Turn) bool { return t.UserText != "" || len(t.Attachments) > 0 }

// args is a call's arguments: parsed JSON, or the text as it came.
func args(c *trace.ToolCall) any {
	if c.ArgsJSON && json.Valid([]byte(c.Args)) {
		return json.RawMessage(c.Args)
	}
	return c.Args
}

// ts is a trace time (Unix ms) as RFC 3339 in UTC.
func ts(ms int64) string { return time.UnixMilli(ms).UTC().Format(time.RFC3339Nano) }
