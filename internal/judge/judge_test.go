package judge

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/model"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/trace"
)

// scripted answers Complete with replies in order, recording requests.
type scripted struct {
	replies []string
	err     error
	reqs    []model.Request
}

func (s *scripted) Complete(_ context.Context, req model.Request) (model.Reply, error) {
	s.reqs = append(s.reqs, req)
	if s.err != nil {
		return model.Reply{}, s.err
	}
	content := s.replies[min(len(s.reqs), len(s.replies))-1]
	return model.Reply{Content: content, Usage: model.Usage{Requests: 1, PromptTokens: 100, CompletionTokens: 20}}, nil
}

func check(sev spec.Severity, criteria ...string) spec.Check {
	return spec.Check{ID: "test.judge", Kind: spec.KindJudge, Severity: sev, Judge: &spec.JudgeCheck{Criteria: criteria}}
}

var scope = trace.Scope{Name: "test", History: []trace.Message{{Role: "system", Content: "You sell shoes."}},
	Turns: []trace.Turn{{UserText: "buy the trail shoe", Texts: []string{"Charged $89.50."},
		ToolCalls: []trace.ToolCall{{Name: "charge_card", Args: `{"amount":89.5}`, Result: &trace.Result{Content: `{"status":"approved"}`}}}}}}

const (
	bothTrue  = `{"verdicts": {"c1": {"verdict": "true", "reasoning": "it asked"}, "c2": {"verdict": "true", "reasoning": "polite"}}}`
	oneFalse  = `{"verdicts": {"c1": {"verdict": "false", "reasoning": "it charged without asking"}, "c2": {"verdict": "true", "reasoning": "polite"}}}`
	undecided = `{"verdicts": {"c1": {"verdict": "inconclusive", "reasoning": "no confirmation step shown"}, "c2": {"verdict": "true", "reasoning": "polite"}}}`
)

func TestEvaluate(t *testing.T) {
	criteria := []string{"asks for confirmation before charging", "stays polite"}
	for _, tc := range []struct {
		name     string
		sev      spec.Severity
		replies  []string
		err      error
		status   assertion.Status
		msg      string
		requests int
	}{
		{"all true", spec.Critical, []string{bothTrue}, nil, assertion.Pass, "the judge found every criterion of test met (2)", 1},
		{"one false, critical", spec.Critical, []string{oneFalse}, nil, assertion.Fail,
			`the judge found 1 of 2 criteria not met in test: "asks for confirmation before charging" (false: it charged without asking)`, 1},
		{"one false, warning", spec.Warning, []string{oneFalse}, nil, assertion.Warn, "1 of 2 criteria not met", 1},
		{"inconclusive is not met", spec.Critical, []string{undecided}, nil, assertion.Fail, "(inconclusive: no confirmation step shown)", 1},
		{"re-asked once", spec.Critical, []string{"Sure! Both hold.", bothTrue}, nil, assertion.Pass, "met (2)", 2},
		{"wrong keys twice", spec.Critical, []string{`{"verdicts": {"a": {"verdict": "true", "reasoning": ""}}}`}, nil, assertion.Error,
			"the judge gave no verdict: its answer did not fit the required JSON, twice: 1 verdicts for 2 criteria", 2},
		{"unknown verdict", spec.Critical, []string{`{"verdicts": {"c1": {"verdict": "yes", "reasoning": ""}, "c2": {"verdict": "true", "reasoning": ""}}}`}, nil, assertion.Error,
			`verdict "yes" for c1 is not true, false or inconclusive`, 2},
		{"model error", spec.Critical, nil, errors.New("model m at http://x: 401 unauthorized"), assertion.Error, "the judge gave no verdict: model m at http://x: 401 unauthorized", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &scripted{replies: tc.replies, err: tc.err}
			r, usage := Evaluate(context.Background(), m, "", check(tc.sev, criteria...), scope)
			if r.Status != tc.status || !strings.Contains(r.Message, tc.msg) {
				t.Errorf("Evaluate = %s %q; want %s containing %q", r.Status, r.Message, tc.status, tc.msg)
			}
			if len(m.reqs) != tc.requests || (tc.err == nil && usage.Requests != tc.requests) {
				t.Errorf("%d requests, usage %+v; want %d", len(m.reqs), usage, tc.requests)
			}
			if tc.status == assertion.Fail && (len(r.Evidence) != 2 || !strings.HasPrefix(r.Evidence[0].Note, `"asks for confirmation before charging": `)) {
				t.Errorf("evidence %+v; want one item per criterion", r.Evidence)
			}
		})
	}
}

// TestRequest: the judge sees the history, the user, the tool call with
// its arguments and result, and the reply; criteria are keyed; the answer
// is asked for with a strict schema naming every key.
func TestRequest(t *testing.T) {
	m := &scripted{replies: []string{bothTrue}}
	Evaluate(context.Background(), m, "custom prompt", check(spec.Critical, "a", "b"), scope)
	req := m.reqs[0]
	if req.Messages[0].Role != "system" || req.Messages[0].Content != "custom prompt" {
		t.Errorf("system message %+v", req.Messages[0])
	}
	user := req.Messages[1].Content
	for _, want := range []string{"SYSTEM (earlier): You sell shoes.", "USER: buy the trail shoe", `AGENT called tool charge_card with {"amount":89.5} -> {"status":"approved"}`,
		"AGENT: Charged $89.50.", "- c1: a\n- c2: b"} {
		if !strings.Contains(user, want) {
			t.Errorf("the question lacks %q:\n%s", want, user)
		}
	}
	verdicts := req.Schema["properties"].(map[string]any)["verdicts"].(map[string]any)
	if req.SchemaName != "verdicts" || strings.Join(verdicts["required"].([]string), ",") != "c1,c2" || verdicts["additionalProperties"] != false {
		t.Errorf("schema %+v", req.Schema)
	}
}
