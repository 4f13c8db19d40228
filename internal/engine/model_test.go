package engine_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ananke/action/internal/agui/aguitest"
	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/model"
	"github.com/ananke/action/internal/status"
)

// fakeModel plays judge and simulated user: judges answer verdict, the
// simulated user says lines[k] at its turn k (counted from its earlier
// messages), then declares its goal achieved.
type fakeModel struct {
	mu      sync.Mutex
	verdict string // "true", "false", "inconclusive"
	lines   []string
	calls   map[string]int
	delay   time.Duration
	// approve is the simulated user's decision when asked to approve.
	approve bool
}

func (f *fakeModel) Complete(ctx context.Context, req model.Request) (model.Reply, error) {
	f.mu.Lock()
	if f.calls == nil {
		f.calls = map[string]int{}
	}
	f.calls[req.SchemaName]++
	f.mu.Unlock()
	if f.delay > 0 {
		select {
		case <-time.After(f.delay):
		case <-ctx.Done():
			return model.Reply{}, ctx.Err()
		}
	}
	usage := model.Usage{Requests: 1, PromptTokens: 50, CompletionTokens: 10}
	if req.SchemaName == "approval" {
		return model.Reply{Content: fmt.Sprintf(`{"approve": %v, "reason": "as asked"}`, f.approve), Usage: usage}, nil
	}
	if req.SchemaName == "verdicts" {
		return model.Reply{Content: fmt.Sprintf(`{"verdicts": {"c1": {"verdict": %q, "reasoning": "because"}}}`, f.verdict), Usage: usage}, nil
	}
	k := 0
	for _, m := range req.Messages {
		if m.Role == "assistant" {
			k++
		}
	}
	if k >= len(f.lines) {
		return model.Reply{Content: `{"message": "", "goal_achieved": true}`, Usage: usage}, nil
	}
	return model.Reply{Content: fmt.Sprintf(`{"message": %q, "goal_achieved": false}`, f.lines[k]), Usage: usage}, nil
}

const modelSection = "model: {endpoint: \"http://127.0.0.1:1/v1\", name: m}\n"

func TestJudges(t *testing.T) {
	for _, tc := range []struct {
		name, assert, verdict string
		status                status.Status
		judgeStatus           status.Status
		judged                int
	}{
		{"a critical judge fails a passing test", "{judge: {criteria: [polite], severity: critical}}", "false", status.Fail, status.Fail, 1},
		{"a warning judge does not", "{judge: {criteria: [polite]}}", "false", status.Pass, status.Warn, 1},
		{"a judge's true passes", "{judge: {criteria: [polite], severity: critical}}", "true", status.Pass, status.Pass, 1},
		{"a deterministic failure stays a failure", "{text: {must_match: nope}, judge: {criteria: [polite], severity: critical}}", "true", status.Fail, status.Skip, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := aguitest.New(t, textAgent)
			s := suite(t, srv.Endpoint(), modelSection, map[string]string{"j": "turns: [{user: hi}]\nassert: " + tc.assert + "\n"})
			m := &fakeModel{verdict: tc.verdict}
			r := one(t, run(t, s, func(o *engine.Options) { o.Model = m }))
			if r.Status != tc.status {
				t.Fatalf("status %s (%s), want %s", r.Status, r.Reason, tc.status)
			}
			var judged assertion.Result
			for _, res := range r.Shown().Results {
				if res.ID == "test.judge" {
					judged = res
				}
			}
			if tc.judged > 0 && judged.Status != tc.judgeStatus {
				t.Errorf("judge %s %q, want %s", judged.Status, judged.Message, tc.judgeStatus)
			}
			if m.calls["verdicts"] != tc.judged {
				t.Errorf("the judge was asked %d times, want %d", m.calls["verdicts"], tc.judged)
			}
			if tc.judged > 0 && r.Shown().Usage.Requests != 1 {
				t.Errorf("usage %+v", r.Shown().Usage)
			}
		})
	}
}

// TestJudgeError: a critical judge without a verdict errors the test.
func TestJudgeError(t *testing.T) {
	srv := aguitest.New(t, textAgent)
	s := suite(t, srv.Endpoint(), modelSection, map[string]string{"j": "turns: [{user: hi, assert: {judge: {criteria: [polite], severity: critical}}}]\n"})
	r := one(t, run(t, s, func(o *engine.Options) { o.Model = &fakeModel{verdict: "maybe"} }))
	if r.Status != status.Error || !strings.Contains(r.Reason, "turn[0].judge: the judge gave no verdict") {
		t.Errorf("status %s, reason %q", r.Status, r.Reason)
	}
}

// expenseAgent creates the expense when the message names an amount, and
// otherwise asks for the type.
func expenseAgent(r *aguitest.Request) aguitest.Response {
	last := ""
	for _, m := range r.Input.Messages {
		if m.Role == "user" {
			last, _ = m.TextContent()
		}
	}
	switch {
	case strings.Contains(last, "$"):
		return aguitest.Response{Events: aguitest.Run(r.Input, aguitest.Seq(
			aguitest.Call("c-"+r.Input.RunID, "create_expense", `{"amount":3500}`, `{"id":"E1"}`), aguitest.Text("t-"+r.Input.RunID, "Created E1. Submit it?"))...)}
	case strings.Contains(last, "yes"):
		return aguitest.Response{Events: aguitest.Run(r.Input, aguitest.Text("t-"+r.Input.RunID, "Submitted.")...)}
	}
	return aguitest.Response{Events: aguitest.Run(r.Input, aguitest.Text("t-"+r.Input.RunID, "Which type of expense?")...)}
}

const dynamicTest = `simulator: {persona: "new employee", goal: "submit a $3500 travel expense"}
max_turns: 4
checkpoints:
  - id: ask_type
    assert: {text: {contains: ["type"]}}
  - id: call_create
    after: [ask_type]
    assert: {tools: {require: [{name: create_expense}]}}
  - id: confirm
    after: call_create
    assert: {text: {contains: ["submitted"]}}
`

func TestDynamic(t *testing.T) {
	for _, tc := range []struct {
		name    string
		lines   []string
		test    string
		status  status.Status
		reached []int
		msg     string
	}{
		{"three checkpoints in three turns", []string{"I need to file an expense", "Travel, $3500", "yes"}, dynamicTest, status.Pass, []int{0, 1, 2},
			"every checkpoint reached: ask_type (turn[0]), call_create (turn[1]), confirm (turn[2])"},
		{"the tool is never called", []string{"I need to file an expense", "Travel please", "ok"}, dynamicTest, status.Fail, []int{0, -1, -1},
			"missing checkpoints: call_create (after ask_type), confirm (after call_create); the simulated user declared its goal achieved before turn[3]"},
		{"max turns", []string{"hello", "hello", "hello", "hello", "hello"}, dynamicTest, status.Fail, []int{0, -1, -1},
			"; max turns (4) exceeded"},
		{"after a scripted turn", []string{"(scripted)", "Travel, $3500", "yes"}, "turns: [{user: \"I need to file an expense\"}]\n" + dynamicTest, status.Pass, []int{0, 1, 2}, "every checkpoint reached"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := aguitest.New(t, expenseAgent)
			s := suite(t, srv.Endpoint(), modelSection, map[string]string{"d": tc.test})
			r := one(t, run(t, s, func(o *engine.Options) { o.Model = &fakeModel{lines: tc.lines} }))
			a := r.Shown()
			var msg string
			for _, res := range a.Results {
				if res.ID == "test.checkpoints" {
					msg = res.Message
				}
			}
			if r.Status != tc.status || !strings.Contains(msg, tc.msg) {
				t.Fatalf("status %s (%s), checkpoints %q; want %s, %q", r.Status, r.Reason, msg, tc.status, tc.msg)
			}
			var reached []int
			for _, c := range a.Checkpoints {
				reached = append(reached, c.ReachedAt)
			}
			if fmt.Sprint(reached) != fmt.Sprint(tc.reached) {
				t.Errorf("reached at %v, want %v", reached, tc.reached)
			}
			for _, turn := range a.Trace.Turns {
				if scripted := turn.Index < strings.Count(tc.test, "user:"); turn.Kind != map[bool]string{true: "user", false: "simulated"}[scripted] ||
					(!scripted && turn.UserText != tc.lines[turn.Index]) {
					t.Errorf("turn %d: %s %q", turn.Index, turn.Kind, turn.UserText)
				}
			}
			if a.Usage.Requests == 0 {
				t.Error("the simulator's usage is not counted")
			}
		})
	}
}

func TestDynamicTimeout(t *testing.T) {
	srv := aguitest.New(t, expenseAgent)
	s := suite(t, srv.Endpoint(), modelSection, map[string]string{"d": strings.Replace(dynamicTest, "max_turns: 4", "max_turns: 4\ntimeout_ms: 100", 1)})
	// The model answers no simulated turn within the 100 ms (nor within a
	// minute): the timeout always comes first, however busy the machine.
	r := one(t, run(t, s, func(o *engine.Options) { o.Model = &fakeModel{lines: []string{"a", "b"}, delay: time.Minute} }))
	if r.Status != status.Fail {
		t.Fatalf("status %s %q", r.Status, r.Reason)
	}
	for _, res := range r.Shown().Results {
		if res.ID == "test.checkpoints" && !strings.Contains(res.Message, "timeout after 100ms") {
			t.Errorf("checkpoints %q", res.Message)
		}
	}
}
