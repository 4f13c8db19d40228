package html_test

import (
	"encoding/json"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/stability"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
	"github.com/ananke/action/reporters/html/htmltest"
	"github.com/ananke/action/reporters/reportdir"
)

// approval is a report of one test that answered an interrupt: turn 0's
// run ends asking to approve charge_card, turn 1 approves it and the
// call runs.
func approval() *report.Report {
	start := time.Date(2026, 11, 22, 11, 0, 0, 0, time.UTC)
	base := start.UnixMilli()
	p := stability.Policy{Runs: 1, MinPassRate: 100}
	proposed := trace.ToolCall{ID: "c1", Name: "charge_card", Turn: 0, Args: `{"amount":42}`, ArgsJSON: true, StartedMs: base + 100, EndedMs: base + 120, TimestampMs: base + 120, StartSeq: 2, EndSeq: 3}
	ran := proposed
	ran.Turn, ran.StartedMs, ran.EndedMs, ran.TimestampMs, ran.StartSeq, ran.EndSeq, ran.ResultSeq = 1, base+1100, base+1110, base+1200, 6, 7, 8
	ran.Result = &trace.Result{Content: `{"receipt":"CH-1"}`, JSON: true}
	a := &engine.Attempt{Status: status.Pass, Start: start, End: start.Add(2 * time.Second),
		Trace: &trace.Trace{TestStartMs: base, TestEndMs: base + 2000, Turns: []trace.Turn{
			{Index: 0, Kind: "user", UserText: "Charge my card 42 EUR", StartMs: base, EndMs: base + 900, ToolCalls: []trace.ToolCall{proposed},
				Runs:       []trace.Run{{RunID: "r1", StartMs: base, EndMs: base + 800, FirstSeq: 1, Frames: 4}},
				Interrupts: []trace.Interrupt{{ID: "i-1", Reason: "tool_approval", Message: "Charge 42 EUR to the card ending 4242?", ToolCallID: "c1", Tool: "charge_card", Seq: 4}},
				Events:     []trace.Event{{Seq: 4, ReceivedMs: base + 800, Type: "RUN_FINISHED", Raw: []byte(`{"type":"RUN_FINISHED","outcome":{"type":"interrupt","interrupts":[{"id":"i-1","reason":"tool_approval"}]}}`)}}},
			{Index: 1, Kind: "resume", UserText: "resume: approve tool charge_card", StartMs: base + 1000, EndMs: base + 2000, ToolCalls: []trace.ToolCall{ran}, Texts: []string{"Charged 42 EUR."},
				Runs:    []trace.Run{{RunID: "r2", StartMs: base + 1000, EndMs: base + 1900, FirstSeq: 5, Frames: 5}},
				Resumes: []trace.Resume{{InterruptID: "i-1", Answer: "approve", Status: "resolved", Payload: json.RawMessage("true"), Reason: "tool_approval", ToolCallID: "c1", Tool: "charge_card", Seq: 5}},
				Events:  []trace.Event{{Seq: 5, ReceivedMs: base + 1010, Type: "RUN_STARTED", Raw: []byte(`{"type":"RUN_STARTED"}`)}}},
		}}}
	tests := []*engine.TestResult{{Test: &spec.Test{Path: "tests/pay.ananke.yaml", ID: "tests/pay", Name: vars.Name{Value: "asks before it charges"}}, Status: status.Pass, Policy: p,
		Verdict: p.Judge([][]status.Status{{status.Pass}}), Attempts: []*engine.Attempt{a}, Start: a.Start, End: a.End}}
	return report.Build(&engine.Outcome{Tests: tests, Start: start, End: start.Add(2 * time.Second)},
		report.Meta{Version: "v1.2.3", Config: &spec.Config{Path: "ananke.config.yaml", Target: spec.Target{Type: "agui", Endpoint: vars.Literal("http://localhost:8000")}}})
}

// TestInterruptsData: the page's turns hold the interrupt, timed at the
// end of the run it ended, and the resume, at the start of the run that
// carried it.
func TestInterruptsData(t *testing.T) {
	page := render(t, approval())
	d := data(t, page)
	for _, want := range []string{
		`"interrupts":[{"id":"i-1","reason":"tool_approval","message":"Charge 42 EUR to the card ending 4242?","tool_call_id":"c1","tool":"charge_card","seq":4,"at_ms":800}]`,
		`"resumes":[{"interrupt_id":"i-1","answer":"approve","status":"resolved","payload":"true","reason":"tool_approval","tool_call_id":"c1","tool":"charge_card","seq":5,"at_ms":1000}]`,
	} {
		if !strings.Contains(d, want) {
			t.Errorf("the page's data lacks %s", want)
		}
	}
}

// TestBrowserInterrupts: the turn view shows the interrupt (its reason,
// id, call and message, linked to its event) and the resume that answered
// it, and both on the turn's timeline.
func TestBrowserInterrupts(t *testing.T) {
	dir := t.TempDir()
	if err := reportdir.Write(dir, approval()); err != nil {
		t.Fatal(err)
	}
	p := htmltest.Open(t, filepath.Join(dir, reportdir.HTMLFile))
	p.WaitVisible("#list")
	p.SetHash("test=" + url.QueryEscape("tests/pay"))
	p.WaitVisible(`#detail[data-test="tests/pay"]`)
	for sel, want := range map[string][]string{
		"#turn-0 .hitl.interrupt": {"Interrupt", "tool_approval", "i-1 · charge_card call c1", "Charge 42 EUR to the card ending 4242?", "#4"},
		"#turn-1 .hitl.resume":    {"Resume", "approve → resolved", "interrupt i-1 · charge_card call c1 · tool_approval", "Payload", "true"},
		"#turn-1 .msg-box.user":   {"Resume", "resume: approve tool charge_card"},
		"#turn-0 .timeline":       {"interrupt: charge_card", "tool_approval"},
		"#turn-1 .timeline":       {"resume: approve charge_card", "resolved"},
	} {
		if got := p.Text(sel); !containsAll(got, want) {
			t.Errorf("%s shows %q; want %q", sel, got, want)
		}
	}
	if n := p.Count(".timeline .bar.interrupt"); n != 1 {
		t.Errorf("%d interrupt marks on the timelines, want 1", n)
	}
	if n := p.Count(".timeline .bar.resume"); n != 1 {
		t.Errorf("%d resume marks on the timelines, want 1", n)
	}
	if errs := p.Errors(); len(errs) > 0 {
		t.Errorf("the page logged errors:\n%s", strings.Join(errs, "\n"))
	}
}

// containsAll reports whether s holds every one of subs, in any case
// (labels are shown upper case).
func containsAll(s string, subs []string) bool {
	for _, sub := range subs {
		if !strings.Contains(strings.ToLower(s), strings.ToLower(sub)) {
			return false
		}
	}
	return true
}
