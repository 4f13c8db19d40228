package judge

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/model"
	"github.com/ananke/action/internal/model/modeltest"
	"github.com/ananke/action/internal/status"
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

func check(sev assertion.Severity, criteria ...string) assertion.Check {
	return assertion.Check{ID: "test.judge", Kind: assertion.KindJudge, Severity: sev, Payload: &assertion.JudgeCheck{Criteria: criteria}}
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
		sev      assertion.Severity
		replies  []string
		err      error
		status   status.Status
		msg      string
		requests int
	}{
		{"all true", assertion.Critical, []string{bothTrue}, nil, status.Pass, "the judge found every criterion of test met (2)", 1},
		{"one false, critical", assertion.Critical, []string{oneFalse}, nil, status.Fail,
			`the judge found 1 of 2 criteria not met in test: "asks for confirmation before charging" (false: it charged without asking)`, 1},
		{"one false, warning", assertion.Warning, []string{oneFalse}, nil, status.Warn, "1 of 2 criteria not met", 1},
		{"inconclusive is not met", assertion.Critical, []string{undecided}, nil, status.Fail, "(inconclusive: no confirmation step shown)", 1},
		{"re-asked once", assertion.Critical, []string{"Sure! Both hold.", bothTrue}, nil, status.Pass, "met (2)", 2},
		{"wrong keys twice", assertion.Critical, []string{`{"verdicts": {"a": {"verdict": "true", "reasoning": ""}}}`}, nil, status.Error,
			"the judge gave no verdict: its answer did not fit the required JSON, twice: 1 verdict for 2 criteria", 2},
		{"unknown verdict", assertion.Critical, []string{`{"verdicts": {"c1": {"verdict": "yes", "reasoning": ""}, "c2": {"verdict": "true", "reasoning": ""}}}`}, nil, status.Error,
			`verdict "yes" for c1 is not true, false or inconclusive`, 2},
		{"model error", assertion.Critical, nil, errors.New("model m at http://x: 401 unauthorized"), status.Error, "the judge gave no verdict: model m at http://x: 401 unauthorized", 1},
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
			if tc.status == status.Fail && (len(r.Evidence) != 2 || !strings.HasPrefix(r.Evidence[0].Note, `"asks for confirmation before charging": `)) {
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
	Evaluate(context.Background(), m, "custom prompt", check(assertion.Critical, "a", "b"), scope)
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

// TestEvaluateRealClient judges through *model.Client and a model
// endpoint: an answer in prose is asked for once more and the verdict that
// follows decides; an answer that does not fit twice errors with a message
// naming the model and counting criteria in words.
func TestEvaluateRealClient(t *testing.T) {
	const prose = "The agent was polite, so I would say yes."
	verdict := func(v string) string {
		return `{"verdicts": {"c1": {"verdict": "` + v + `", "reasoning": "it said please"}}}`
	}
	for _, tc := range []struct {
		name    string
		answers []string
		status  status.Status
		msg     string // the whole message; URL stands for the endpoint
	}{
		{"prose, then true", []string{prose, verdict("true")}, status.Pass, "the judge found every criterion of test met (1)"},
		{"prose, then false", []string{prose, verdict("false")}, status.Fail,
			`the judge found 1 of 1 criterion not met in test: "stays polite" (false: it said please)`},
		{"no verdicts twice", []string{`{"verdicts": {}}`}, status.Error,
			"the judge gave no verdict: model judge-m at URL: its answer did not fit the required JSON, twice: 0 verdicts for 1 criterion"},
		{"prose twice", []string{prose}, status.Error,
			"the judge gave no verdict: model judge-m at URL: its answer did not fit the required JSON, twice: the reply is not JSON: invalid character 'T' looking for beginning of value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var script []modeltest.Responder
			for _, a := range tc.answers {
				script = append(script, modeltest.Answer(a))
			}
			srv := modeltest.New(t, script...)
			c, err := model.New(model.Config{Endpoint: srv.URL, Name: "judge-m", HTTP: srv.Client()})
			if err != nil {
				t.Fatal(err)
			}
			r, usage := Evaluate(context.Background(), c, "", check(assertion.Critical, "stays polite"), scope)
			if want := strings.ReplaceAll(tc.msg, "URL", srv.URL); r.Status != tc.status || r.Message != want {
				t.Errorf("Evaluate = %s %q\nwant %s %q", r.Status, r.Message, tc.status, want)
			}
			if n := len(srv.Requests()); n != 2 || usage.Requests != 2 {
				t.Errorf("%d requests (usage %d), want 2", n, usage.Requests)
			}
		})
	}
}
