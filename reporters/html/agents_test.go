package html_test

import (
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

// agents is a report of one test whose agent reasoned, kept an activity
// message and delegated to a sub-agent, which started another that
// failed; the secret in its reasoning is masked.
func agents() *report.Report {
	start := time.Date(2026, 11, 22, 11, 0, 0, 0, time.UTC)
	base := start.UnixMilli()
	p := stability.Policy{Runs: 1, MinPassRate: 100}
	delegate := trace.ToolCall{ID: "d1", Name: "delegate", Args: `{"to":"researcher"}`, ArgsJSON: true,
		Result: &trace.Result{Content: "done"}, StartedMs: base + 10, TimestampMs: base + 500, StartSeq: 2}
	search := trace.ToolCall{ID: "c1", Name: "search_notes", Args: `{"topic":"teddy"}`, ArgsJSON: true, Agent: "researcher", SubagentRunID: "sa-1",
		Result: &trace.Result{Content: "1907"}, StartedMs: base + 100, TimestampMs: base + 200, StartSeq: 4}
	a := &engine.Attempt{Status: status.Pass, Start: start, End: start.Add(time.Second),
		Trace: &trace.Trace{TestStartMs: base, TestEndMs: base + 1000,
			Turns: []trace.Turn{{Index: 0, Kind: "user", UserText: "Research the teddy bear.", StartMs: base, EndMs: base + 1000,
				Texts: []string{"First described in 1907."}, Reasoning: []string{"Delegate it. The promo code is sk-secret-1."},
				ToolCalls: []trace.ToolCall{delegate, search},
				Activities: []trace.Activity{{ID: "a1", Type: "PLAN", Content: []byte(`{"steps":["search","write"],"done":1}`), Updates: 2,
					FirstSeq: 1, LastSeq: 6, FirstMs: base + 5, LastMs: base + 600}},
				Subagents: []trace.Subagent{
					{RunID: "sa-1", Name: "researcher", Description: "finds notes", ParentToolCallID: "d1", Status: trace.SubagentFinished,
						Result: []byte(`{"notes":1}`), StartedMs: base + 50, EndedMs: base + 450, StartSeq: 3, EndSeq: 7},
					{RunID: "sa-2", Name: "writer", ParentRunID: "sa-1", Status: trace.SubagentFailed, Error: "no ink",
						StartedMs: base + 300, EndedMs: base + 400, StartSeq: 5, EndSeq: 6}},
				Events: []trace.Event{
					{Seq: 1, ReceivedMs: base + 5, Type: "ACTIVITY_SNAPSHOT", Raw: []byte(`{"type":"ACTIVITY_SNAPSHOT","messageId":"a1","activityType":"PLAN","content":{}}`)},
					{Seq: 2, ReceivedMs: base + 10, Type: "TOOL_CALL_START", Raw: []byte(`{"type":"TOOL_CALL_START","toolCallId":"d1","toolCallName":"delegate"}`)},
					{Seq: 3, ReceivedMs: base + 50, Type: "SUBAGENT_STARTED", Raw: []byte(`{"type":"SUBAGENT_STARTED","subagentRunId":"sa-1","name":"researcher"}`)},
					{Seq: 4, ReceivedMs: base + 100, Type: "TOOL_CALL_START", Raw: []byte(`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"search_notes","subagentRunId":"sa-1"}`)},
					{Seq: 5, ReceivedMs: base + 300, Type: "SUBAGENT_STARTED", Raw: []byte(`{"type":"SUBAGENT_STARTED","subagentRunId":"sa-2","name":"writer"}`)},
					{Seq: 6, ReceivedMs: base + 400, Type: "SUBAGENT_ERROR", Raw: []byte(`{"type":"SUBAGENT_ERROR","subagentRunId":"sa-2","message":"no ink"}`)},
					{Seq: 7, ReceivedMs: base + 450, Type: "SUBAGENT_FINISHED", Raw: []byte(`{"type":"SUBAGENT_FINISHED","subagentRunId":"sa-1"}`)},
				}}}}}
	tests := []*engine.TestResult{{Test: &spec.Test{Path: "tests/research.ananke.yaml", ID: "tests/research", Name: vars.Name{Value: "researches"}},
		Status: status.Pass, Policy: p, Verdict: p.Judge([][]status.Status{{status.Pass}}), Attempts: []*engine.Attempt{a}, Start: a.Start, End: a.End}}
	return report.Build(&engine.Outcome{Tests: tests, Start: start, End: start.Add(time.Second)},
		report.Meta{Version: "v1.2.3", Secrets: []string{"sk-secret-1"},
			Config: &spec.Config{Path: "ananke.config.yaml", Target: spec.Target{Type: "agui", Endpoint: vars.Literal("http://localhost:8000")}}})
}

// TestAgentsData: the page holds the turn's reasoning (masked), its
// activity and its sub-agent runs, and each call names its sub-agent.
func TestAgentsData(t *testing.T) {
	page := render(t, agents())
	js := data(t, page)
	for _, want := range []string{
		`"reasoning":"Delegate it. The promo code is ***."`,
		`"activities":[{"id":"a1","type":"PLAN","content":"{\"steps\":[\"search\",\"write\"],\"done\":1}","updates":2,"first_ms":5,"last_ms":600,"first_seq":1,"last_seq":6}]`,
		`{"run_id":"sa-1","name":"researcher","description":"finds notes","status":"finished","parent_tool_call_id":"d1","result":"{\"notes\":1}","start_ms":50,"end_ms":450,"start_seq":3,"end_seq":7}`,
		`"agent":"researcher","subagent_run_id":"sa-1"`,
	} {
		if !strings.Contains(js, want) {
			t.Errorf("the page's data lacks %s", want)
		}
	}
	if strings.Contains(page, "sk-secret-1") {
		t.Error("the secret in the reasoning is not masked")
	}
}

// TestBrowserAgents: the turn shows its reasoning apart from the answer,
// the researcher's run right after the call that started it with the
// researcher's call inside, the writer's failed run inside the
// researcher's, and the activity.
func TestBrowserAgents(t *testing.T) {
	dir := t.TempDir()
	if err := reportdir.Write(dir, agents()); err != nil {
		t.Fatal(err)
	}
	p := htmltest.Open(t, filepath.Join(dir, reportdir.HTMLFile))
	p.WaitVisible("#list")
	p.SetHash("test=tests%2Fresearch")
	p.WaitVisible(`#detail[data-test="tests/research"]`)
	if got := p.Text(".msg-box.reasoning"); !strings.Contains(got, "Delegate it. The promo code is ***.") {
		t.Errorf("reasoning box = %q", got)
	}
	if got := p.Text(".msg-box.assistant"); strings.Contains(got, "Delegate") {
		t.Errorf("the answer shows the reasoning: %q", got)
	}
	var layout struct {
		Order      []string `json:"order"`
		InResearch []string `json:"inResearch"`
		Nested     string   `json:"nested"`
	}
	p.Eval(`({
		order: [...document.querySelectorAll('#turn-0 > .call, #turn-0 > .subagent')].map((e) => e.classList.contains('call') ? e.querySelector('.tool').textContent : 'run ' + e.dataset.run),
		inResearch: [...document.querySelectorAll('.subagent[data-run="sa-1"] > .call .tool')].map((e) => e.textContent),
		nested: (document.querySelector('.subagent[data-run="sa-1"] > .subagent[data-run="sa-2"]') || {}).textContent || '',
	})`, &layout)
	if strings.Join(layout.Order, ",") != "delegate,run sa-1" {
		t.Errorf("the turn shows %q; want the delegate call, then the researcher's run", layout.Order)
	}
	if strings.Join(layout.InResearch, ",") != "search_notes" {
		t.Errorf("the researcher's run holds %q", layout.InResearch)
	}
	if !strings.Contains(layout.Nested, "writer") || !strings.Contains(layout.Nested, "no ink") {
		t.Errorf("the writer's run inside the researcher's = %q", layout.Nested)
	}
	if got := p.Text(".call-head"); !strings.Contains(p.Text(`.subagent[data-run="sa-1"] .call-head`), "by researcher") || strings.Contains(got, "by ") {
		t.Errorf("call heads: main %q, researcher's %q", got, p.Text(`.subagent[data-run="sa-1"] .call-head`))
	}
	if got := p.Text(".activities"); !strings.Contains(got, "PLAN · a1 · 2 updates") || !strings.Contains(got, `"done": 1`) {
		t.Errorf("activity = %q", got)
	}
	if errs := p.Errors(); len(errs) > 0 {
		t.Errorf("the page logged errors:\n%s", strings.Join(errs, "\n"))
	}
}
