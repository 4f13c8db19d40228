package report

import (
	"fmt"
	"time"

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
	Totals     Totals    `json:"totals"`
	Tests      []Test    `json:"tests"`

	masked []string
}

// MaskValues returns the secret values the report was masked with, for an
// output that must mask text Ananke does not write itself (GitHub's
// ::add-mask:: lines). No reporter needs it: the report is masked already.
func (r *Report) MaskValues() []string { return r.masked }

// Target describes the agent under test (secrets masked).
type Target struct {
	Type     string `json:"type"`
	Endpoint string `json:"endpoint"`
	AgentID  string `json:"agent_id"`
}

// Totals counts tests by status.
type Totals struct {
	Total   int `json:"total"`
	Passed  int `json:"passed"`
	Failed  int `json:"failed"`
	Errored int `json:"errored"`
	Skipped int `json:"skipped"`
	// PassRate is passed / (total - skipped), in percent.
	PassRate float64 `json:"pass_rate"`
}

// Test statuses.
const (
	StatusPass    = "pass"
	StatusFail    = "fail"
	StatusError   = "error"
	StatusSkipped = "skipped"
)

// Test is one test's result.
type Test struct {
	ID     string   `json:"id"`
	Name   string   `json:"name"`
	File   string   `json:"file"`
	Tags   []string `json:"tags"`
	Status string   `json:"status"`
	// Reason says why a test errored or was skipped; At is where its cause
	// is written, when known.
	Reason     string      `json:"reason,omitempty"`
	At         *Location   `json:"reason_at,omitempty"`
	Detail     string      `json:"detail,omitempty"`
	StartedAt  time.Time   `json:"started_at"`
	DurationMs int64       `json:"duration_ms"`
	Turns      []Turn      `json:"turns"`
	Assertions []Assertion `json:"assertions"`
	Warnings   []Warning   `json:"warnings"`
	// Trace is the masked trace, written to its own file rather than into
	// summary.json.
	Trace *trace.Trace `json:"-"`
}

// Failed returns the failing assertions.
func (t *Test) Failed() []Assertion {
	var out []Assertion
	for _, a := range t.Assertions {
		if a.Status == "fail" {
			out = append(out, a)
		}
	}
	return out
}

// Turn summarizes one turn.
type Turn struct {
	Index      int      `json:"index"`
	Type       string   `json:"type"`
	User       string   `json:"user,omitempty"`
	DurationMs int64    `json:"duration_ms"`
	Runs       int      `json:"runs"`
	Text       string   `json:"text"`
	ToolCalls  []Call   `json:"tool_calls"`
	RunErrors  []string `json:"run_errors"`
}

// Call is a tool call as evidence and in turn summaries. Times are
// milliseconds since the test's first turn started.
type Call struct {
	ID         string  `json:"id"`
	Name       string  `json:"name"`
	Turn       int     `json:"turn"`
	Args       string  `json:"args"`
	Result     *string `json:"result,omitempty"`
	Client     bool    `json:"client,omitempty"`
	AtMs       int64   `json:"at_ms"`
	DurationMs int64   `json:"duration_ms"`
	Seq        int64   `json:"seq"`
}

// Assertion is one evaluated (or skipped) assertion.
type Assertion struct {
	ID       string     `json:"id"`
	Level    string     `json:"level"`
	Kind     string     `json:"kind"`
	Scope    string     `json:"scope"`
	Source   Location   `json:"source"`
	Status   string     `json:"status"`
	Message  string     `json:"message"`
	Expected string     `json:"expected,omitempty"`
	Observed string     `json:"observed,omitempty"`
	Evidence []Evidence `json:"evidence"`
}

// Evidence supports an assertion's result.
type Evidence struct {
	Note string `json:"note"`
	Call *Call  `json:"call,omitempty"`
	Text string `json:"text,omitempty"`
	Gap  *Gap   `json:"gap,omitempty"`
}

// Gap is an idle interval (ms since the test started).
type Gap struct {
	FromMs int64  `json:"from_ms"`
	ToMs   int64  `json:"to_ms"`
	From   string `json:"from"`
	To     string `json:"to"`
}

// Warning is a protocol deviation that did not fail the test.
type Warning struct {
	Turn    int    `json:"turn"`
	Seq     int64  `json:"seq"`
	Rule    string `json:"rule"`
	Message string `json:"message"`
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
