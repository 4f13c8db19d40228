package html

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/reporters/internal/format"
)

// build makes the page's data from the report, but for its tests, which
// write adds one at a time (buildTest).
func build(r *report.Report) *page {
	p := &page{
		Version: r.Version, Status: r.Status, Run: r.StartedAt.Format(time.RFC3339Nano), StartedAt: r.StartedAt.UTC().Format(time.RFC3339), DurationMs: r.DurationMs,
		Config: r.Config, Target: r.Target, Parallel: r.Parallel, Shard: r.Shard, FailOnFlaky: r.FailOnFlaky, Totals: r.Totals,
		Hooks: []hook{},
	}
	// The page says the total in words; the spend itself is summary.json's.
	p.Totals.Usage = nil
	if format.ShowsUsage(r) {
		p.Usage = format.Total(r)
	}
	p.Runs = format.AdaptiveTotals(r)
	p.Quarantined, p.Advice = quarantineTotalsText(r), adviceTexts(r)
	p.History = historyText(r)
	p.Warnings = runWarnings(r)
	p.Attacks = attacksOf(r)
	p.Variants = variantsOf(r)
	if r.Budget != nil {
		for _, l := range r.Budget.Limits {
			p.Budget = append(p.Budget, budgetLine{Status: l.Status, Message: l.Message})
		}
	}
	for _, h := range r.FailedHooks() {
		detail, _ := cut(h.Detail, TextCap)
		p.Hooks = append(p.Hooks, hook{Name: fmt.Sprintf("%s[%d]", h.Phase, h.Index), Source: h.Source.String(),
			Message: h.Message, Detail: detail, DurationMs: h.DurationMs})
	}
	return p
}

// pageCaps are the page's size limits, for its notes.
var pageCaps = caps{Event: EventCap, Text: TextCap, Events: EventsCap}

// buildTest makes a test's data; its turns' raw events are read when the
// test is written. It returns the trace the turns are from. withUsage:
// the run shows what the agent used; base names the base branch of the
// report's history.
func buildTest(rt *report.Test, withUsage bool, base string) (test, *trace.Trace) {
	t := test{ID: rt.ID, Name: rt.Name, File: rt.File, Line: rt.Line, Tags: rt.Tags, Variant: rt.Variant, Status: rt.Status, Flaky: rt.Flaky, Inconclusive: rt.Inconclusive,
		Warned: len(rt.Warned()) > 0, NotMade: len(rt.NotMade()), Reason: rt.Reason, DurationMs: rt.DurationMs, TraceFile: rt.TraceFile, TraceID: rt.TraceID,
		Checkpoints: rt.Checkpoints, Warnings: rt.Warnings, Assertions: []assertion{}, Turns: []turn{}}
	t.Detail, _ = cut(rt.Detail, TextCap)
	t.Quarantine = quarantineOf(rt)
	t.Trend = trendOf(rt, base)
	if rt.At != nil {
		t.ReasonAt = rt.At.String()
	}
	if s := rt.Source; s.Adapter != "" && (s.Adapter != "ag-ui" || s.Mode != "live") {
		t.Source = &s
	}
	tr := rt.Trace
	if tr == nil {
		tr = &trace.Trace{}
	}
	calls := map[callRef]bool{}
	for _, tt := range tr.Turns {
		for _, c := range tt.ToolCalls {
			calls[callRef{tt.Index, c.ID}] = true
		}
	}
	if rt.Repeated() {
		t.Stability = buildStability(rt, withUsage)
	}
	if withUsage {
		t.Usage = testUsage(rt)
	}
	for _, m := range tr.History {
		m.Content, _ = cut(m.Content, TextCap)
		t.History = append(t.History, m)
	}
	for _, a := range rt.Assertions {
		t.Assertions = append(t.Assertions, buildAssertion(a, calls))
	}
	for i := range tr.Turns {
		var rturn *report.Turn
		if i < len(rt.Turns) {
			rturn = &rt.Turns[i]
		}
		t.Turns = append(t.Turns, buildTurn(tr, &tr.Turns[i], rturn))
		t.Turns[i].Usage = spendText(tr.Turns[i].Usage, withUsage)
	}
	if len(tr.Turns) == 0 { // a report without traces: its turns' summaries
		for i := range rt.Turns {
			t.Turns = append(t.Turns, summaryTurn(&rt.Turns[i]))
			t.Turns[i].Usage = spendText(rt.Turns[i].Usage, withUsage)
		}
	}
	return t, tr
}

func buildStability(rt *report.Test, withUsage bool) *stability {
	s := &stability{Runs: rt.Runs, PassedRuns: rt.PassedRuns, PassRate: rt.PassRate, MinPassRate: rt.MinPassRate, Retries: rt.Retries,
		Attempts: make([]attempt, 0, len(rt.Attempts))}
	s.CI, s.PassK, s.Adaptive = intervalText(rt.PassRateCI), passKText(rt), adaptiveText(rt)
	for i, a := range rt.Attempts {
		at := attempt{Label: a.Label(), Status: a.Status, Reason: a.Reason, DurationMs: a.DurationMs, Shown: i+1 == rt.Shown, TraceFile: a.TraceFile,
			Usage: spendText(a.Usage, withUsage), TraceID: a.TraceID}
		for _, f := range a.Failed {
			at.Failed = append(at.Failed, buildAssertion(f, nil))
		}
		s.Attempts = append(s.Attempts, at)
	}
	return s
}

// buildAssertion copies an assertion; the calls of its evidence that the
// shown trace holds (calls) become references to them. A judge's verdicts
// are its Judge, not its evidence.
func buildAssertion(a report.Assertion, calls map[callRef]bool) assertion {
	out := assertion{ID: a.ID, Level: a.Level, Kind: a.Kind, Scope: a.Scope, Source: a.Source.String(), Severity: a.Severity,
		Status: a.Status, Message: a.Message, Expected: a.Expected, Observed: a.Observed, Refs: a.EventRefs, Origins: a.Origins,
		FailedRuns: a.FailedRuns, FailureCI: intervalText(a.FailureRateCI), Judge: a.Judge}
	evs := a.Evidence
	if a.Judge != nil { // its evidence is its verdicts again, which Judge holds
		evs = nil
	}
	for _, e := range evs {
		ev := evidence{Note: e.Note, Gap: e.Gap, Refs: e.EventRefs}
		ev.Text, ev.TextBytes = cut(e.Text, TextCap)
		if c := e.Call; c != nil {
			if ref := (callRef{c.Turn, c.ID}); calls[ref] {
				ev.CallRef = &ref
			} else {
				ev.Call = reportCall(c)
			}
		}
		out.Evidence = append(out.Evidence, ev)
	}
	return out
}

// reportCall is a call as the report summarizes it (evidence of another
// attempt, or a report read without traces).
func reportCall(c *report.Call) *call {
	out := &call{ID: c.ID, Name: c.Name, Turn: c.Turn, ArgsJSON: json.Valid([]byte(c.Args)), Client: c.Client, Agent: c.Agent, SubagentRunID: c.SubagentRunID,
		StartMs: c.AtMs, DoneMs: c.AtMs + c.DurationMs, StartSeq: c.Seq}
	served(out, c)
	out.Args, out.ArgsBytes = cut(c.Args, TextCap)
	if c.Result != nil {
		res, n := cut(*c.Result, TextCap)
		out.Result, out.ResultBytes, out.ResultJSON = &res, n, json.Valid([]byte(*c.Result))
	}
	return out
}

// summaryTurn is a turn of a report read without its trace.
func summaryTurn(rt *report.Turn) turn {
	t := turn{Index: rt.Index, Type: rt.Type, User: rt.User, Attachments: rt.Attachments, AgentFiles: rt.AgentFiles, EndMs: rt.DurationMs, Runs: rt.Runs,
		Text: rt.Text, TextBytes: rt.TextBytes, Reasoning: rt.Reasoning, ReasoningBytes: rt.ReasoningBytes, Subagents: reportSubagents(rt.Subagents)}
	for i := range rt.ToolCalls {
		t.Calls = append(t.Calls, *reportCall(&rt.ToolCalls[i]))
	}
	t.ModelCalls = modelCalls(rt)
	for _, e := range rt.RunErrors {
		t.RunErrors = append(t.RunErrors, trace.RunError{Message: e})
	}
	summaryInterrupts(&t, rt)
	return t
}

// buildTurn copies one turn of the shown trace; rt is its summary in the
// report, which has its text when the trace does not (a trace read back
// from its file).
func buildTurn(tr *trace.Trace, tt *trace.Turn, rt *report.Turn) turn {
	base := tr.TestStartMs
	t := turn{Index: tt.Index, Type: tt.Kind, Attachments: tt.Attachments, AgentFiles: tt.AgentFiles, StartMs: tt.StartMs - base, EndMs: tt.EndMs - base,
		Runs: len(tt.Runs), RunErrors: tt.RunErrors, FirstTextSeq: tt.FirstTextSeq, events: tt}
	t.User, t.UserBytes = cut(tt.UserText, TextCap)
	switch {
	case len(tt.Texts) > 0:
		t.Text, t.TextBytes = cut(tt.Text(), TextCap)
	case rt != nil:
		t.Text, t.TextBytes = rt.Text, rt.TextBytes
	}
	if tt.FirstTextMs != 0 {
		ms := tt.FirstTextMs - base
		t.FirstTextMs = &ms
	}
	if len(tt.State) > 0 {
		t.State, t.StateBytes = cut(string(tt.State), TextCap)
	}
	addAgents(&t, tt, rt, base)
	for i := range tt.ToolCalls {
		t.Calls = append(t.Calls, traceCall(&tt.ToolCalls[i], base))
		if rt != nil && i < len(rt.ToolCalls) {
			served(&t.Calls[i], &rt.ToolCalls[i])
		}
	}
	t.ModelCalls = modelCalls(rt)
	for _, m := range tt.Memory {
		mm := memory{Seq: m.Seq, AtMs: since(m.TimestampMs, base), Op: m.Op, Group: m.Group, Path: m.Path, CallID: m.CallID}
		mm.Content, mm.Bytes = cut(m.Content, TextCap)
		t.Memory = append(t.Memory, mm)
	}
	for _, o := range tt.Outbound {
		ob := outbound{Seq: o.Seq, AtMs: since(o.TimestampMs, base), To: o.To, CallID: o.CallID}
		ob.Text, ob.Bytes = cut(o.Text, TextCap)
		t.Outbound = append(t.Outbound, ob)
	}
	traceInterrupts(&t, tt, base)
	return t
}

// since is a time relative to the test's start; 0 stays 0 (unknown).
func since(ms, base int64) int64 {
	if ms == 0 {
		return 0
	}
	return ms - base
}

func traceCall(c *trace.ToolCall, base int64) call {
	out := call{ID: c.ID, Name: c.Name, Turn: c.Turn, ArgsJSON: c.ArgsJSON, Client: c.Client, Agent: c.Agent, SubagentRunID: c.SubagentRunID,
		StartMs: c.StartedMs - base, DoneMs: c.TimestampMs - base, StartSeq: c.StartSeq, EndSeq: c.EndSeq, ResultSeq: c.ResultSeq}
	out.Args, out.ArgsBytes = cut(c.Args, TextCap)
	if c.EndedMs != 0 {
		end := c.EndedMs - base
		out.ArgsEndMs = &end
	}
	if r := c.Result; r != nil {
		res, n := cut(r.Content, TextCap)
		out.Result, out.ResultBytes, out.ResultJSON, out.ResultError = &res, n, r.JSON, r.Error
	}
	return out
}
