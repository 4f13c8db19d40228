package report

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// Meta is what the report needs besides the engine's outcome.
type Meta struct {
	Version  string
	Config   *spec.Config
	Parallel int
	// Root makes file paths relative (the repository root); "" keeps them
	// as loaded.
	Root string
	// Secrets are masked in addition to each test's own (e.g. values read
	// by target.server).
	Secrets []string
	// Shard is the part of the suite that ran (nil: all of it).
	Shard *Shard
	// FailOnFlaky makes a flaky test fail the run (--fail-on-flaky, or the
	// config's fail_on_flaky).
	FailOnFlaky bool
	// FailOnInconclusive makes an inconclusive test fail the run
	// (--fail-on-inconclusive, or the config's fail_on_inconclusive).
	FailOnInconclusive bool
	// Prices prices what the judges and simulated users used, by the
	// config's model name (the agent's usage is priced by the engine);
	// nil: their cost is unknown.
	Prices *cost.Table
}

// Build makes the report. Every string that can carry agent output, user
// input or configuration passes through one Redactor built from every
// test's secrets and the config's redact patterns, so no reporter can
// forget to mask.
func Build(out *engine.Outcome, m Meta) *Report {
	b := &builder{red: redactorFor(out, m), root: m.Root, prices: m.Prices}
	if m.Config.Model != nil {
		b.model = m.Config.Model.Name.Value
	}
	r := &Report{
		Schema: Schema, Version: m.Version, StartedAt: out.Start.UTC(), EndedAt: out.End.UTC(),
		DurationMs: out.End.Sub(out.Start).Milliseconds(), Config: b.path(m.Config.Path), Parallel: m.Parallel,
		Target: b.target(m.Config.Target),
		Shard:  m.Shard, FailOnFlaky: m.FailOnFlaky || m.Config.FailOnFlaky, Confidence: m.Config.ConfidenceLevel(),
		FailOnInconclusive: m.FailOnInconclusive || m.Config.FailOnInconclusive,
		Tests:              make([]Test, 0, len(out.Tests)), Hooks: []Hook{},
		masked: b.red.Secrets(),
	}
	for _, h := range out.Hooks {
		hk := Hook{Phase: h.Phase, Index: h.Index, Source: b.loc(h.Pos), Status: status.Pass,
			Message: b.red.String(h.Error), Detail: b.red.String(h.Detail), DurationMs: h.End.Sub(h.Start).Milliseconds()}
		if h.Error != "" {
			hk.Status = status.Error
		}
		r.Hooks = append(r.Hooks, hk)
	}
	shown := make([]int, len(out.Tests))
	for i, t := range out.Tests {
		var test Test
		test, shown[i] = b.test(t)
		test.Quarantined = b.quarantined(t.Test.Quarantine, &test)
		r.Tests = append(r.Tests, test)
	}
	for i := range r.Tests {
		r.Tests[i].Shown = shown[i] + 1
	}
	nameFiles(r.Tests, shown)
	setConfidence(r.Tests, r.Confidence)
	r.Warnings = b.orphans(out.Orphans)
	r.Totals = totals(r.Tests)
	r.Budget = checkBudget(b.budgetLimits(m.Config.Budget), r.Tests, r.Totals.Usage)
	r.Status = runStatus(r.Totals, r.FailOnFlaky, r.FailOnInconclusive, len(r.FailedHooks()) > 0, r.Budget.exceeded())
	return r
}

// runStatus is the run's verdict: any failed test — or, with fail-on-flaky,
// any flaky one, with fail-on-inconclusive any inconclusive one — or a run
// over its budget fails it; else any errored test, or a failed before_all
// or after_all hook, makes it an error. Quarantined tests play no part.
func runStatus(all Totals, failOnFlaky, failOnInconclusive, hookFailed, overBudget bool) status.Status {
	t := all.Counted()
	switch {
	case t.Failed > 0 || (failOnFlaky && t.Flaky > 0) || (failOnInconclusive && t.Inconclusive() > 0) || overBudget:
		return status.Fail
	case t.Errored > 0 || hookFailed:
		return status.Error
	}
	return status.Pass
}

// target names the agent under test as configured: its endpoint, an A2A
// agent's card URL, a stdio MCP server's command.
func (b *builder) target(t spec.Target) Target {
	out := Target{Type: t.Type, Endpoint: b.red.String(t.Endpoint.Raw), AgentID: b.red.String(t.AgentID.Raw)}
	if t.A2A != nil {
		out.AgentCardURL = b.red.String(t.A2A.AgentCardURL.Raw)
	}
	if t.MCP != nil {
		for _, c := range t.MCP.Command {
			out.Command = append(out.Command, b.red.String(c.Raw))
		}
	}
	return out
}

// redactorFor is the masking Build applies: every test's secrets, the meta
// secrets and the config's redact patterns.
func redactorFor(out *engine.Outcome, m Meta) *Redactor {
	secrets := append(slices.Clone(m.Secrets), out.Secrets...)
	for _, t := range out.Tests {
		secrets = append(secrets, t.Secrets()...)
	}
	return ConfigRedactor(secrets, m.Config)
}

// ConfigRedactor masks the values and the config's redact patterns: with a
// report's MaskValues, it masks as the report did.
func ConfigRedactor(values []string, c *spec.Config) *Redactor {
	var patterns []*regexp.Regexp
	for _, re := range c.Redact {
		patterns = append(patterns, re.Compiled())
	}
	return NewRedactor(values, patterns)
}

// TotalsOf counts tests as a report's Totals count its tests: the totals
// of a part of a report, such as one variant's tests.
func TotalsOf(tests []Test) Totals { return totals(tests) }

func totals(tests []Test) Totals {
	var t Totals
	spends := make([]*cost.Spend, 0, len(tests))
	for _, x := range tests {
		t.Total++
		switch x.Status {
		case status.Pass:
			t.Passed++
		case status.Fail:
			t.Failed++
		case status.Error:
			t.Errored++
		case status.Skipped:
			t.Skipped++
		}
		if x.Flaky {
			t.Flaky++
		}
		if len(x.Warned()) > 0 {
			t.Warned++
		}
		t.NotMade += len(x.NotMade())
		t.Model.Add(x.Model)
		if len(x.Attempts) > 0 { // a test that never ran used nothing
			spends = append(spends, x.Usage)
		}
	}
	t.Adaptive = adaptiveTotals(tests)
	t.Quarantined = quarantineTotals(tests)
	t.Usage = cost.Sum(spends...)
	t.ModelCostUSD = modelCosts(tests)
	if judged := t.Total - t.Skipped; judged > 0 {
		t.PassRate = float64(int(float64(t.Passed)*1000/float64(judged)+0.5)) / 10
	}
	return t
}

type builder struct {
	red  *Redactor
	root string
	// prices and model price the judges' and simulated users' tokens.
	prices *cost.Table
	model  string
	// paths are the paths made relative so far: every assertion names its
	// file, and a suite has a handful.
	paths map[string]string
}

// path makes p relative to the root (forward slashes).
func (b *builder) path(p string) string {
	if rel, ok := b.paths[p]; ok {
		return rel
	}
	if b.paths == nil {
		b.paths = map[string]string{}
	}
	in := p
	if b.root != "" {
		if abs, err := filepath.Abs(p); err == nil {
			if rel, err := filepath.Rel(b.root, abs); err == nil {
				p = rel
			}
		}
	}
	rel := filepath.ToSlash(p)
	b.paths[in] = rel
	return rel
}

func (b *builder) loc(p diag.Pos) Location {
	return Location{File: b.path(p.File), Line: p.Line, Col: p.Col}
}

// test copies one test's result; it also returns the index of the shown
// attempt in Attempts (-1 when the test never ran).
func (b *builder) test(r *engine.TestResult) (Test, int) {
	v := r.Verdict
	t := Test{
		ID: r.Test.ID, Name: r.Test.Name.Value, File: b.path(r.Test.Path), Line: max(r.Test.Pos.Line, 1), Tags: []string{},
		Status: r.Status, Reason: b.red.String(r.Reason), Detail: b.red.String(r.Detail),
		StartedAt: r.Start.UTC(), DurationMs: r.End.Sub(r.Start).Milliseconds(),
		Runs: v.Runs, PassedRuns: v.PassedRuns, PassRate: v.PassRate, Flaky: v.Flaky,
		MinPassRate: r.Policy.MinPassRate, Retries: r.Policy.Retries,
		Turns: []Turn{}, Assertions: []Assertion{}, Warnings: []Warning{}, Attempts: []Attempt{}, FailureCategories: []string{},
	}
	for _, tag := range r.Test.Tags {
		t.Tags = append(t.Tags, tag.Value)
	}
	t.Adaptive, t.Inconclusive = adaptiveRuns(r)
	if r.ReasonPos.IsValid() {
		l := b.loc(r.ReasonPos)
		t.At = &l
	}
	shown, shownAt := r.Shown(), -1
	failedIn := map[string]int{}
	var all []assertion.Result
	var spends []*cost.Spend
	for i, a := range r.Attempts {
		all = append(all, a.Results...)
		t.Model.Add(a.Usage)
		if a == shown {
			shownAt = i
		}
		at := b.attempt(a)
		spends = append(spends, at.Usage)
		for _, f := range at.Failed {
			failedIn[f.ID]++
		}
		t.Attempts = append(t.Attempts, at)
	}
	t.ModelCostUSD = b.modelCost(t.Model)
	t.FailureCategories = assertion.FailureCategories(all)
	if t.Usage = cost.Sum(spends...); t.Usage != nil {
		t.PerAttempt = perAttempt(spends)
	}
	if shown == nil {
		t.Trace = b.trace(&trace.Trace{})
		t.Source = b.source(nil)
		if r.Test.Source != nil {
			t.Source = Source{Adapter: r.Test.Source.Format, Mode: "import", Capabilities: []string{}, Path: r.Test.Source.Path}
		}
		return t, shownAt
	}
	tr := shown.Trace
	if tr == nil {
		tr = &trace.Trace{}
	}
	for i := range tr.Turns {
		t.Turns = append(t.Turns, b.turn(&tr.Turns[i], tr.TestStartMs))
	}
	for _, a := range shown.Results {
		as := b.assertion(a, tr)
		as.FailedRuns = failedIn[a.ID]
		t.Assertions = append(t.Assertions, as)
	}
	for _, c := range shown.Checkpoints {
		cp := Checkpoint{ID: c.ID, Description: b.red.String(c.Description), Source: b.loc(c.Pos)}
		if c.ReachedAt >= 0 {
			at := c.ReachedAt
			cp.ReachedAt = &at
		}
		t.Checkpoints = append(t.Checkpoints, cp)
	}
	for _, w := range shown.Warnings {
		t.Warnings = append(t.Warnings, Warning{Turn: w.Turn, Seq: w.Seq, Rule: w.Rule, Message: b.red.String(w.Message)})
	}
	t.Trace = t.Attempts[shownAt].Trace
	t.TraceID = tr.TraceID
	t.Source = b.source(tr.Source)
	if tr.UsageReported() || len(tr.Backend()) > 0 {
		t.Source.Capabilities = tr.Caps()
	}
	return t, shownAt
}

// source describes a trace's source; a trace without one is a live AG-UI
// run's.
func (b *builder) source(s *trace.Source) Source {
	if s == nil {
		return Source{Adapter: "ag-ui", Mode: "live", Capabilities: capability.AGUI}
	}
	return Source{Adapter: s.Adapter, Version: s.Version, Mode: s.Mode, Capabilities: slices.Clone(s.Capabilities),
		Path: s.Path, GroupID: b.red.String(s.GroupID), SessionID: b.red.String(s.SessionID), TaskID: b.red.String(s.TaskID)}
}

// attempt copies one attempt: its status and failed assertions, and its
// masked trace for its own file.
func (b *builder) attempt(a *engine.Attempt) Attempt {
	tr := a.Trace
	if tr == nil {
		tr = &trace.Trace{}
	}
	out := Attempt{Run: a.Run + 1, Retry: a.Retry, Status: a.Status, Reason: b.red.String(a.Reason),
		StartedAt: a.Start.UTC(), DurationMs: a.End.Sub(a.Start).Milliseconds(), Failed: []Assertion{}, Trace: b.trace(tr),
		Usage: traceUsage(tr), TraceID: tr.TraceID}
	for _, r := range a.Results {
		if r.Status == status.Fail {
			out.Failed = append(out.Failed, b.assertion(r, tr))
		}
	}
	return out
}

func (b *builder) turn(tt *trace.Turn, base int64) Turn {
	t := Turn{Index: tt.Index, Type: tt.Kind, User: b.red.String(tt.UserText), Attachments: b.attachments(tt.Attachments), AgentFiles: b.attachments(tt.AgentFiles), DurationMs: tt.DurationMs(), Runs: len(tt.Runs),
		ToolCalls: []Call{}, RunErrors: []string{}, Usage: tt.Usage.Clone(), ModelCalls: b.modelCalls(tt.ModelCalls, base)}
	t.Text, t.TextBytes = b.capText(tt.Text())
	if len(tt.Reasoning) > 0 {
		t.Reasoning, t.ReasoningBytes = b.capText(strings.Join(tt.Reasoning, "\n"))
	}
	for i := range tt.ToolCalls {
		t.ToolCalls = append(t.ToolCalls, *b.call(&tt.ToolCalls[i], base))
	}
	for _, s := range tt.Subagents {
		sa := Subagent{RunID: s.RunID, Name: b.red.String(s.Name), Status: s.Status, Error: b.red.String(s.Error),
			ParentRunID: s.ParentRunID, ParentToolCallID: s.ParentToolCallID, AtMs: s.StartedMs - base, Seq: s.StartSeq}
		if s.EndedMs != 0 {
			sa.DurationMs = s.EndedMs - s.StartedMs
		}
		t.Subagents = append(t.Subagents, sa)
	}
	for _, e := range tt.RunErrors {
		t.RunErrors = append(t.RunErrors, b.red.String(e.Message))
	}
	b.interrupts(&t, tt)
	return t
}

// capText masks a turn's text and cuts it to TextCap bytes, returning the
// whole size when it cut. A long text is cut before it is masked, with a
// margin that covers a secret across the cut, so a reply of megabytes is
// not copied to mask what the report leaves out.
func (b *builder) capText(s string) (string, int) {
	whole, cut := len(s), false
	if margin := TextCap + 2*b.red.Longest() + 1024; len(s) > margin {
		s, cut = s[:margin], true
	}
	s = b.red.String(s)
	if !cut && len(s) <= TextCap {
		return s, 0
	}
	end := min(TextCap, len(s))
	for end > 0 && end < len(s) && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end] + "…", whole
}

// attachments copies a turn's attachments (or its agent's files), their
// names and URIs masked.
func (b *builder) attachments(as []trace.Attachment) []trace.Attachment {
	if len(as) == 0 {
		return nil
	}
	out := make([]trace.Attachment, len(as))
	for i, a := range as {
		out[i] = trace.Attachment{Name: b.red.String(a.Name), MIME: b.red.String(a.MIME), Bytes: a.Bytes, URI: b.red.String(a.URI)}
	}
	return out
}

func (b *builder) call(c *trace.ToolCall, base int64) *Call {
	out := &Call{ID: c.ID, Name: c.Name, Turn: c.Turn, Args: b.red.String(c.Args), Client: c.Client, Agent: c.Agent, SubagentRunID: c.SubagentRunID, Served: c.Served, Source: c.Source,
		AtMs: c.StartedMs - base, DurationMs: c.TimestampMs - c.StartedMs, Seq: c.StartSeq}
	if c.Result != nil {
		s := b.red.String(assertion.ResultText(c.Result))
		out.Result, out.IsError = &s, c.Result.Error != ""
	}
	return out
}

func (b *builder) assertion(a assertion.Result, tr *trace.Trace) Assertion {
	base := tr.TestStartMs
	sev := string(a.Severity)
	if sev == "" {
		sev = string(assertion.Critical)
	}
	out := Assertion{ID: a.ID, Level: string(a.Level), Kind: string(a.Kind), Scope: a.Scope, Source: b.loc(a.Source), Severity: sev,
		Status: a.Status, Message: b.red.String(a.Message), Expected: b.red.String(a.Expected),
		Observed: b.red.String(a.Observed), Evidence: []Evidence{}, EventRefs: Refs(a.EventRefs)}
	if out.EventRefs == nil {
		out.EventRefs = Refs{}
	}
	for _, e := range a.Evidence {
		// The references are shared: nothing changes them once made, and a
		// text check's may name a million events.
		ev := Evidence{Note: b.red.String(e.Note), Text: b.red.String(e.Text), EventRefs: Refs(e.EventRefs)}
		if e.Call != nil {
			ev.Call = b.call(e.Call, base)
		}
		if e.Gap != nil {
			ev.Gap = &Gap{FromMs: e.Gap.FromMs - base, ToMs: e.Gap.ToMs - base, From: e.Gap.From, To: e.Gap.To}
		}
		out.Evidence = append(out.Evidence, ev)
	}
	out.Origins = origins(tr, a.EventRefs)
	if j := a.Judge; j != nil {
		out.Judge = &Judge{Model: j.Model, PromptHash: j.PromptHash, Criteria: []JudgeCriterion{}, Demoted: b.red.String(j.Demoted)}
		for _, c := range j.Criteria {
			out.Judge.Criteria = append(out.Judge.Criteria, JudgeCriterion{Criterion: b.red.String(c.Criterion), Verdict: c.Verdict, Reasoning: b.red.String(c.Reasoning)})
		}
	}
	return out
}

// origins returns where the events refs names were read, for an imported
// trace (its events are in memory); nil for a run of an agent.
func origins(tr *trace.Trace, refs []int64) []string {
	if tr.Source == nil || tr.Source.Mode != "import" || len(refs) == 0 {
		return nil
	}
	want := make(map[int64]bool, len(refs))
	for _, r := range refs {
		want[r] = true
	}
	var out []string
	for i := range tr.Turns {
		for _, e := range tr.Turns[i].Events {
			if e.Origin != "" && want[e.Seq] {
				out = append(out, e.Origin)
			}
		}
	}
	return out
}

// trace returns a masked copy of a trace.
func (b *builder) trace(t *trace.Trace) *trace.Trace {
	c := &trace.Trace{TestStartMs: t.TestStartMs, TestEndMs: t.TestEndMs, Turns: make([]trace.Turn, len(t.Turns)), Doubles: t.Doubles, Gateway: t.Gateway}
	c.OTelReceiver, c.Spans = t.OTelReceiver, b.spans(t.Spans)
	if !b.red.Empty() {
		// Raw events are masked as they are read for the trace file: they
		// may be on disk, and there may be a million of them.
		c.Mask = b.red.JSON
	}
	c.TraceID, c.SpanID = t.TraceID, t.SpanID
	for _, m := range t.History {
		c.History = append(c.History, trace.Message{Role: m.Role, Content: b.red.String(m.Content)})
	}
	for i, tt := range t.Turns {
		tt.UserText = b.red.String(tt.UserText)
		tt.Attachments, tt.AgentFiles = b.attachments(tt.Attachments), b.attachments(tt.AgentFiles)
		tt.Texts = b.red.Strings(tt.Texts)
		tt.Reasoning = b.red.Strings(tt.Reasoning)
		tt.State = b.red.JSON(tt.State)
		tt.ToolCalls = slices.Clone(tt.ToolCalls)
		for j := range tt.ToolCalls {
			tc := &tt.ToolCalls[j]
			tc.Args = b.red.String(tc.Args)
			if tc.Result != nil {
				res := *tc.Result
				res.Content, res.Error = b.red.String(res.Content), b.red.String(res.Error)
				tc.Result = &res
			}
		}
		tt.RunErrors = slices.Clone(tt.RunErrors)
		for j := range tt.RunErrors {
			tt.RunErrors[j].Message = b.red.String(tt.RunErrors[j].Message)
		}
		tt.Runs = slices.Clone(tt.Runs)
		for j := range tt.Runs {
			tt.Runs[j].Request = b.red.JSON(tt.Runs[j].Request)
		}
		tt.Memory = slices.Clone(tt.Memory)
		for j := range tt.Memory {
			tt.Memory[j].Content = b.red.String(tt.Memory[j].Content)
		}
		tt.Outbound = slices.Clone(tt.Outbound)
		for j := range tt.Outbound {
			tt.Outbound[j].Text = b.red.String(tt.Outbound[j].Text)
		}
		tt.Activities = slices.Clone(tt.Activities)
		for j := range tt.Activities {
			tt.Activities[j].Content = b.red.JSON(tt.Activities[j].Content)
		}
		tt.Subagents = slices.Clone(tt.Subagents)
		for j := range tt.Subagents {
			s := &tt.Subagents[j]
			s.Name, s.Description, s.Error, s.Result = b.red.String(s.Name), b.red.String(s.Description), b.red.String(s.Error), b.red.JSON(s.Result)
		}
		tt.ModelCalls = b.maskModelCalls(tt.ModelCalls)
		b.maskInterrupts(&tt)
		c.Turns[i] = tt
	}
	if s := t.Source; s != nil {
		src := *s
		if sch := s.Scheduler; sch != nil {
			sc := *sch
			sc.Prompt = b.red.String(sc.Prompt)
			sc.Runs = slices.Clone(sc.Runs)
			for j := range sc.Runs {
				sc.Runs[j].Result, sc.Runs[j].Error = b.red.String(sc.Runs[j].Result), b.red.String(sc.Runs[j].Error)
			}
			src.Scheduler = &sc
		}
		c.Source = &src
	}
	return c
}
