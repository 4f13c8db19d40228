package assertion

import (
	"slices"
	"strings"
	"testing"

	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// TestNeeds: what a kind needs of a trace follows from what it reads,
// which its section says (docs/files.md, "Memory, scheduler and
// capabilities"): a kind added to a section needs what its section does.
func TestNeeds(t *testing.T) {
	tool := []string{capability.ToolTrace}
	bySection := map[string][]string{
		"tools": tool, "result": tool, "tools_list": tool, "grounded": tool, "snapshot": tool,
		"timing":    {capability.StreamingTiming},
		"state":     {capability.State},
		"memory":    {capability.MemoryEvents},
		"scheduler": {capability.SchedulerContext},
		"budget":    {capability.Usage},
		// a trace that records interrupts records the calls they are about
		"interrupts": {capability.Interrupts},
		"reasoning":  {capability.Reasoning},
		"model":      {capability.ModelCalls},
		"spans":      {capability.Spans},
		"text":       nil, "judge": nil, "script": nil,
	}
	for _, d := range Defs() {
		w, ok := bySection[d.Section()]
		if !ok {
			t.Errorf("kind %s: no expectation for section %q; say what it needs of a trace here", d.Kind, d.Section())
			continue
		}
		if got := Needs(d.Kind); !slices.Equal(got, w) {
			t.Errorf("Needs(%s) = %v, want %v", d.Kind, got, w)
		}
	}
	if got := Needs("run_error"); got != nil {
		t.Errorf("a built-in kind needs %v, want nothing", got)
	}
	// A copy each time: writing to what Needs returned cannot change the
	// registry.
	a := Needs(KindForbid)
	a[0] = capability.State
	if b := Needs(KindForbid); !slices.Equal(b, tool) {
		t.Errorf("Needs returns the registry's own slice: after a write, %v", b)
	}
}

// Sources as the adapters declare them (docs/imports.md).
var (
	claudeSource = &trace.Source{Adapter: "claude-transcript", Mode: "import", Capabilities: []string{capability.ToolTrace, capability.Reasoning, capability.Replay}}
	nanoSource   = &trace.Source{Adapter: "nanoclaw", Mode: "import", GroupID: "family",
		Capabilities: []string{capability.ToolTrace, capability.MemoryEvents, capability.SchedulerContext, capability.Replay}}
)

func withSource(s trace.Scope, src *trace.Source) trace.Scope {
	s.Source = src
	return s
}

// needing adds capabilities a check requires besides its kind's.
func needing(c Check, caps ...string) Check {
	c.Requires = caps
	return c
}

func onError(c Check) Check {
	c.MissingError = true
	return c
}

// TestGate: a check whose trace lacks a capability it needs is skipped
// with the reason, or is an error under on_missing_capability: error; one
// whose trace has them all is evaluated.
func TestGate(t *testing.T) {
	duration := Check{ID: "test.timing.max_duration_ms", Kind: KindMaxDuration, Payload: Limit{Set: true, Ms: 5000}}
	reads := Check{Kind: KindMemoryReads, Payload: &MemoryEntry{Group: GroupOwn}}
	outbound := Check{Kind: KindOutbound, Payload: &Counted{Count: DefaultCount}}
	forbid := Check{Kind: KindForbid, Payload: Tool{Name: name("rm")}}
	hi := literal(KindContains, "hi", false)
	s := reply("hi there")
	tests := []struct {
		name     string
		check    Check
		src      *trace.Source
		want     status.Status
		msg      string
		expected string // "" when evaluated
		observed string
	}{
		{"timing on a transcript", duration, claudeSource, status.Skip,
			"skipped: needs supports_streaming_timing, which the claude-transcript trace does not provide",
			"a trace with supports_streaming_timing", "no supports_streaming_timing"},
		{"timing on a transcript, policy error", onError(duration), claudeSource, status.Error,
			"needs supports_streaming_timing, which the claude-transcript trace does not provide (on_missing_capability: error)",
			"a trace with supports_streaming_timing", "no supports_streaming_timing"},
		{"memory on ag-ui", reads, nil, status.Skip,
			"skipped: needs supports_memory_events, which the ag-ui trace does not provide",
			"a trace with supports_memory_events", "no supports_memory_events"},
		{"scheduler on ag-ui", outbound, nil, status.Skip,
			"skipped: needs supports_scheduler_context, which the ag-ui trace does not provide",
			"a trace with supports_scheduler_context", "no supports_scheduler_context"},
		{"state on nanoclaw", stateCheck("/x", "1"), nanoSource, status.Skip,
			"skipped: needs supports_state, which the nanoclaw trace does not provide",
			"a trace with supports_state", "no supports_state"},
		{"tools on ag-ui", forbid, nil, status.Pass, "`rm` was not called", "", ""},
		{"tools on a transcript", forbid, claudeSource, status.Pass, "`rm` was not called", "", ""},
		{"text anywhere", hi, claudeSource, status.Pass, "", "", ""},
		{"requires adds to the kind's needs", needing(hi, capability.MemoryEvents), claudeSource, status.Skip,
			"skipped: needs supports_memory_events, which the claude-transcript trace does not provide",
			"a trace with supports_memory_events", "no supports_memory_events"},
		{"requires met", needing(hi, capability.ToolTrace, capability.Replay), claudeSource, status.Pass, "", "", ""},
		{"requires besides a kind's own need", needing(forbid, capability.State), nanoSource, status.Skip,
			"skipped: needs supports_state, which the nanoclaw trace does not provide",
			"a trace with supports_tool_trace, supports_state", "no supports_state"},
		{"several missing, each once", onError(needing(reads, capability.State, capability.MemoryEvents)), claudeSource, status.Error,
			"needs supports_memory_events, supports_state, which the claude-transcript trace does not provide (on_missing_capability: error)",
			"a trace with supports_memory_events, supports_state", "no supports_memory_events, supports_state"},
		{"requires on ag-ui", needing(forbid, capability.SchedulerContext), nil, status.Skip,
			"skipped: needs supports_scheduler_context, which the ag-ui trace does not provide",
			"a trace with supports_tool_trace, supports_scheduler_context", "no supports_scheduler_context"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := evalOne(t, tc.check, withSource(s, tc.src))
			if r.Status != tc.want || !strings.Contains(r.Message, tc.msg) {
				t.Errorf("Evaluate = %s %q; want %s %q", r.Status, r.Message, tc.want, tc.msg)
			}
			if tc.expected != "" && (r.Expected != tc.expected || r.Observed != tc.observed) {
				t.Errorf("expected %q, observed %q; want %q, %q", r.Expected, r.Observed, tc.expected, tc.observed)
			}
			if tc.want == status.Skip || tc.want == status.Error {
				if r.Message != tc.msg {
					t.Errorf("message %q, want exactly %q", r.Message, tc.msg)
				}
				if r.EventRefs == nil || len(r.EventRefs) != 0 || len(r.Evidence) != 0 {
					t.Errorf("a gated check rests on no event: refs %v, evidence %v", r.EventRefs, r.Evidence)
				}
			}
		})
	}
}

// TestGateSplits: Gate keeps the checks the trace can answer, in order,
// and returns the others' results, each naming its check and scope.
func TestGateSplits(t *testing.T) {
	checks := []Check{
		{ID: "a", Kind: KindForbid, Payload: Tool{Name: name("rm")}},
		{ID: "b", Kind: KindMaxIdle, Payload: Limit{Set: true, Ms: 10}, Severity: Warning, Level: LevelTarget, Pos: diag.Pos{File: "c.yaml", Line: 3, Col: 4}},
		{ID: "c", Kind: KindJudge},
		onError(Check{ID: "d", Kind: KindState, Payload: &StateCheck{Pointer: "/x"}}),
		{ID: "e", Kind: KindScript},
	}
	s := withSource(reply("hi"), claudeSource)
	run, gated := Gate(checks, s)
	var ids []string
	for _, c := range run {
		ids = append(ids, c.ID)
	}
	if got := strings.Join(ids, " "); got != "a c e" {
		t.Errorf("run %s, want a c e", got)
	}
	if len(gated) != 2 {
		t.Fatalf("gated %+v, want 2", gated)
	}
	b, d := gated[0], gated[1]
	if b.ID != "b" || b.Status != status.Skip || b.Severity != Warning || b.Level != LevelTarget || b.Scope != "turn[0]" || b.Source.Line != 3 || b.Kind != KindMaxIdle {
		t.Errorf("gated b = %+v", b)
	}
	if d.ID != "d" || d.Status != status.Error || d.Severity != Critical {
		t.Errorf("gated d = %+v", d)
	}
	if e, ok := Errored(gated); !ok || e.ID != "d" {
		t.Errorf("Errored = %+v, %v; want d, a critical error", e, ok)
	}
	// A warning that cannot be checked is not an error of the test.
	if _, ok := Errored([]Result{b, {Status: status.Error, Severity: Warning}}); ok {
		t.Error("a warning's error counts as the test's")
	}
	if run, gated := Gate(checks, withSource(reply("hi"), &trace.Source{Capabilities: capability.All})); len(run) != len(checks) || len(gated) != 0 {
		t.Errorf("a trace with every capability gates %d checks", len(gated))
	}
}

// TestDescribeDoesNotGate: a plan describes every check, whatever the
// trace will provide.
func TestDescribeDoesNotGate(t *testing.T) {
	for _, tc := range []struct {
		check Check
		want  string
	}{
		{Check{Kind: KindMemoryReads, Payload: &MemoryEntry{Group: GroupOwn, ContentMatch: vars.MustRegex("bullet")}},
			"a read of the trace's own group's memory with content matching `bullet`"},
		{Check{Kind: KindMemoryForbid, Payload: &MemoryEntry{Group: GroupOther}}, "no read or write of another group's memory"},
		{Check{Kind: KindMemoryForbid, Payload: &MemoryEntry{Group: "work", Op: "write"}}, "no write to group work's memory"},
		{Check{Kind: KindTaskRuns, Payload: &Counted{Count: Count{Min: 1, Max: 1, Exact: true}, Status: "success"}},
			"exactly 1 success run of the scheduled task"},
		{Check{Kind: KindOutbound, Payload: &Counted{Count: Count{Min: 0, Max: 2}, Match: vars.MustRegex("digest")}},
			"at most 2 outbound messages matching `digest`"},
		{needing(Check{Kind: KindMaxIdle, Payload: Limit{Set: true, Ms: 500}}, capability.ContainerMetadata), "no idle gap over 500 ms"},
	} {
		if got := Describe(tc.check); got != tc.want {
			t.Errorf("Describe(%s) = %q, want %q", tc.check.Kind, got, tc.want)
		}
	}
}
