package simulator

import (
	"context"
	"strings"
	"testing"

	"github.com/ananke/action/internal/model"
)

type scripted struct {
	replies []string
	reqs    []model.Request
}

func (s *scripted) Complete(_ context.Context, req model.Request) (model.Reply, error) {
	s.reqs = append(s.reqs, req)
	return model.Reply{Content: s.replies[min(len(s.reqs), len(s.replies))-1], Usage: model.Usage{Requests: 1}}, nil
}

var persona = Persona{Persona: "new employee", Goal: "submit a $3500 travel expense", Instructions: "be brief"}

func TestNext(t *testing.T) {
	for _, tc := range []struct {
		name    string
		replies []string
		want    Move
		err     string
	}{
		{"a message", []string{`{"message": "I need to file an expense", "goal_achieved": false}`}, Move{Message: "I need to file an expense"}, ""},
		{"goal achieved", []string{`{"message": "", "goal_achieved": true}`}, Move{GoalAchieved: true}, ""},
		{"re-asked once", []string{"I need to file an expense", `{"message": "Travel", "goal_achieved": false}`}, Move{Message: "Travel"}, ""},
		{"empty twice", []string{`{"message": " ", "goal_achieved": false}`}, Move{}, "an empty message, with the goal not achieved"},
		{"missing field", []string{`{"message": "x"}`}, Move{}, `it needs both "message" and "goal_achieved"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &scripted{replies: tc.replies}
			got, usage, err := Next(context.Background(), m, "", persona, nil, 1, 5)
			switch {
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Errorf("err = %v; want %q", err, tc.err)
			case tc.err == "" && (err != nil || got != tc.want):
				t.Errorf("Next = %+v, %v; want %+v", got, err, tc.want)
			}
			if usage.Requests != len(m.reqs) {
				t.Errorf("usage %+v for %d requests", usage, len(m.reqs))
			}
		})
	}
}

// TestRoleSwap: the simulated user's earlier messages are the assistant's,
// the agent's replies (with its tool calls) the user's; the brief names the
// persona, the goal and the turn.
func TestRoleSwap(t *testing.T) {
	m := &scripted{replies: []string{`{"message": "Yes", "goal_achieved": false}`}}
	past := []Exchange{{User: "I want to file an expense", Reply: "Which type?"},
		{User: "Travel, $3500", Tools: []string{`create_expense {"amount":3500} -> {"id":"E1"}`}, Reply: "Created E1. Submit?"}}
	if _, _, err := Next(context.Background(), m, "", persona, past, 3, 5); err != nil {
		t.Fatal(err)
	}
	msgs := m.reqs[0].Messages
	var roles []string
	for _, msg := range msgs {
		roles = append(roles, msg.Role)
	}
	if got := strings.Join(roles, ","); got != "system,user,assistant,user,assistant,user" {
		t.Errorf("roles %s", got)
	}
	for _, want := range []string{"You are: new employee", "Your goal: submit a $3500 travel expense", "Instructions: be brief", "This is turn 3 of at most 5."} {
		if !strings.Contains(msgs[0].Content, want) {
			t.Errorf("brief lacks %q:\n%s", want, msgs[0].Content)
		}
	}
	if msgs[2].Content != "I want to file an expense" || !strings.Contains(msgs[5].Content, `[the assistant used tools: create_expense {"amount":3500} -> {"id":"E1"}]`) {
		t.Errorf("messages %+v", msgs)
	}
	if m.reqs[0].SchemaName != "next_user_message" || m.reqs[0].Schema == nil {
		t.Errorf("schema %q %v", m.reqs[0].SchemaName, m.reqs[0].Schema)
	}
}

// TestDecide: the simulated user is asked to approve what the interrupt
// says, after the conversation so far; its decision is read, a malformed
// one asked for once more.
func TestDecide(t *testing.T) {
	for _, tc := range []struct {
		name    string
		replies []string
		want    Decision
		err     string
	}{
		{"approve", []string{`{"approve": true, "reason": "that is my expense"}`}, Decision{Approve: true, Reason: "that is my expense"}, ""},
		{"reject, re-asked once", []string{"no", `{"approve": false, "reason": "wrong amount"}`}, Decision{Reason: "wrong amount"}, ""},
		{"no decision", []string{`{"reason": "x"}`}, Decision{}, `it needs "approve"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &scripted{replies: tc.replies}
			past := []Exchange{{User: "Submit my $3500 expense", Tools: []string{`submit {"amount":3500} -> (no result)`}}}
			got, usage, err := Decide(context.Background(), m, "", persona, past, 2, 5, Request{Message: "Submit $3500?", Tool: "submit", Args: `{"amount":3500}`})
			switch {
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Errorf("err = %v; want %q", err, tc.err)
			case tc.err == "" && (err != nil || got != tc.want):
				t.Errorf("Decide = %+v, %v; want %+v", got, err, tc.want)
			}
			if usage.Requests != len(m.reqs) {
				t.Errorf("usage %+v for %d requests", usage, len(m.reqs))
			}
			msgs := m.reqs[0].Messages
			last := msgs[len(msgs)-1].Content
			if !strings.Contains(msgs[0].Content, "Your goal: submit a $3500 travel expense") || !strings.Contains(msgs[0].Content, "approve an action") ||
				!strings.Contains(last, "Submit $3500?") || !strings.Contains(last, `(it would call submit {"amount":3500})`) || m.reqs[0].SchemaName != "approval" {
				t.Errorf("request: system %q, last %q", msgs[0].Content, last)
			}
		})
	}
}
