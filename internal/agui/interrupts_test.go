package agui_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ananke/action/internal/agui"
	"github.com/ananke/action/internal/agui/aguitest"
	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
)

// playTurns plays turns on a fresh session against an Approvals agent,
// stopping at the first error, and returns the trace, the outcomes, the
// requests sent and the error.
func playTurns(t *testing.T, turns ...target.Turn) (*trace.Trace, []target.Outcome, []aguitest.Request, error) {
	t.Helper()
	srv := aguitest.New(t, aguitest.Approvals())
	s := sessionFor(srv, agui.SessionOptions{})
	rec := trace.NewRecorder()
	var outs []target.Outcome
	for i, in := range turns {
		in.Index = i
		rec.StartTurn(i, in.Type, in.Shown(), time.UnixMilli(0))
		out, err := s.Turn(context.Background(), in, rec)
		outs = append(outs, out)
		rec.EndTurn(time.UnixMilli(0), s.State())
		if err != nil {
			return rec.Trace(), outs, srv.Requests(), err
		}
	}
	return rec.Trace(), outs, srv.Requests(), nil
}

var (
	chargeTurn = target.Turn{Type: target.TurnUser, Text: "charge 42"}
	approve    = target.Turn{Type: target.TurnResume, Resume: []target.Answer{{What: "resume", Tool: "charge_card", Action: trace.AnswerApprove}}}
	reject     = target.Turn{Type: target.TurnResume, Resume: []target.Answer{{What: "resume", Action: trace.AnswerReject}}}
	edit       = target.Turn{Type: target.TurnResume, Resume: []target.Answer{{What: "resume", Action: trace.AnswerEdit, Edit: json.RawMessage(`{"amount":30}`)}}}
)

// TestSessionInterrupts: a run that ends with an interrupt leaves it
// pending, recorded in the trace at its RUN_FINISHED with the call it is
// about; a resume turn sends one resume entry per pending interrupt and no
// message, recorded in the trace; the agent then runs the call (approved,
// or with the edited arguments) or declines it.
func TestSessionInterrupts(t *testing.T) {
	for _, c := range []struct {
		name       string
		resume     target.Turn
		entry      string // the request's resume
		args, text string // the call the resumed run made ("": none), its text
	}{
		{"approve", approve, `[{"interruptId":"int-1","status":"resolved","payload":true}]`, `{"amount":42,"currency":"EUR"}`, "Charged 42 EUR."},
		{"edit", edit, `[{"interruptId":"int-1","status":"resolved","payload":{"amount":30,"currency":"EUR"}}]`, `{"amount":30,"currency":"EUR"}`, "Charged 30 EUR."},
		{"reject", reject, `[{"interruptId":"int-1","status":"cancelled"}]`, "", "Understood: I did not charge your card."},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr, outs, reqs, err := playTurns(t, chargeTurn, c.resume)
			if err != nil {
				t.Fatal(err)
			}
			if len(reqs) != 2 {
				t.Fatalf("%d requests; want 2", len(reqs))
			}
			got, _ := json.Marshal(reqs[1].Input.Resume)
			if string(got) != c.entry || len(reqs[1].Input.Messages) != len(reqs[0].Input.Messages)+1 || len(reqs[0].Input.Resume) != 0 {
				t.Errorf("resume %s with %d messages after %d; want %s, and no new user message", got, len(reqs[1].Input.Messages), len(reqs[0].Input.Messages), c.entry)
			}
			in := tr.Turns[0].Interrupts
			if len(in) != 1 || in[0].ID != "int-1" || in[0].Tool != "charge_card" || in[0].ToolCallID != "call-1" || in[0].Reason != "tool_approval" ||
				in[0].Message != "Charge 42 EUR to the card ending 4242?" || string(in[0].ResponseSchema) != aguitest.ChargeSchema || in[0].Seq != 5 {
				t.Errorf("turn 0 interrupts = %+v; want int-1 about charge_card call-1 at its RUN_FINISHED (#5)", in)
			}
			if len(outs[0].Pending) != 1 || outs[0].Pending[0].ID != "int-1" || outs[0].Pending[0].Tool != "charge_card" || len(outs[1].Pending) != 0 {
				t.Errorf("pending after the turns: %+v, %+v", outs[0].Pending, outs[1].Pending)
			}
			rs := tr.Turns[1].Resumes
			if len(rs) != 1 || rs[0].InterruptID != "int-1" || rs[0].Answer != c.resume.Resume[0].Action || rs[0].Tool != "charge_card" || rs[0].Run != 0 || rs[0].Seq != 6 {
				t.Errorf("turn 1 resumes = %+v", rs)
			}
			var args []string
			for _, call := range tr.Turns[1].ToolCalls {
				args = append(args, call.Args)
			}
			if c.args == "" && len(args) > 0 || c.args != "" && (len(args) != 1 || args[0] != c.args) || tr.Turns[1].Text() != c.text {
				t.Errorf("turn 1: calls %q, text %q; want %q, %q", args, tr.Turns[1].Text(), c.args, c.text)
			}
			if tr.Turns[1].UserText != c.resume.Shown() {
				t.Errorf("turn 1 shows %q", tr.Turns[1].UserText)
			}
		})
	}
}

// TestSessionInterruptErrors: a turn that sends a message while an
// interrupt is pending, and a resume that finds nothing to answer or
// answers what is not pending, are errors naming the pending interrupts,
// and send nothing.
func TestSessionInterruptErrors(t *testing.T) {
	for _, c := range []struct {
		name  string
		turns []target.Turn
		want  string
		sent  int
	}{
		{"a message while pending", []target.Turn{chargeTurn, {Type: target.TurnUser, Text: "hello?"}},
			"an interrupt is pending: int-1 (tool_approval, charge_card call call-1); answer it with a resume turn", 1},
		{"a connect while pending", []target.Turn{chargeTurn, {Type: target.TurnConnect}}, "an interrupt is pending: int-1", 1},
		{"nothing to resume", []target.Turn{{Type: target.TurnUser, Text: "hello"}, approve},
			"nothing to resume: the agent's last run did not end with an interrupt", 1},
		{"a resume of another tool", []target.Turn{chargeTurn, {Type: target.TurnResume, Resume: []target.Answer{{What: "resume[0]", Tool: "refund", Action: trace.AnswerApprove}}}},
			"resume[0] (tool refund) matches no pending interrupt; pending: int-1 (tool_approval, charge_card call call-1)", 1},
		{"an edit outside the responseSchema", []target.Turn{chargeTurn, {Type: target.TurnResume, Resume: []target.Answer{{What: "resume", Action: trace.AnswerEdit, Edit: json.RawMessage(`{"amount":5000}`)}}}},
			`resume.edit: the edited arguments {"amount":5000,"currency":"EUR"} do not validate against the responseSchema of interrupt int-1 (tool_approval, charge_card call call-1): at /amount: maximum: got 5,000, want 1,000`, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr, outs, reqs, err := playTurns(t, c.turns...)
			if err == nil || !strings.Contains(err.Error(), c.want) || len(reqs) != c.sent {
				t.Fatalf("%v after %d requests; want %q after %d", err, len(reqs), c.want, c.sent)
			}
			if last := tr.Turns[len(tr.Turns)-1]; len(last.Runs) != 0 {
				t.Errorf("the failed turn recorded %d runs", len(last.Runs))
			}
			if n := len(outs[len(outs)-1].Pending); n != len(outs[0].Pending) {
				t.Errorf("the failed turn reports %d pending; want those still pending", n)
			}
		})
	}
}

// TestSessionAnswerNotTaken: an agent that ends the run answering an
// interrupt with the same interrupt again did not take the answer: a
// warning at that event, the interrupt still pending.
func TestSessionAnswerNotTaken(t *testing.T) {
	srv := aguitest.New(t, func(r *aguitest.Request) aguitest.Response {
		in := r.Input
		return aguitest.Response{Events: []any{aguitest.E{"type": agui.RunStarted, "threadId": in.ThreadID, "runId": in.RunID},
			aguitest.E{"type": agui.RunFinished, "threadId": in.ThreadID, "runId": in.RunID,
				"outcome": aguitest.E{"type": "interrupt", "interrupts": []aguitest.E{{"id": "i-1", "reason": "confirm"}}}}}}
	})
	s := sessionFor(srv, agui.SessionOptions{})
	rec := trace.NewRecorder()
	var outs []target.Outcome
	for i, in := range []target.Turn{{Type: target.TurnUser, Text: "send it"}, reject} {
		rec.StartTurn(i, in.Type, in.Shown(), time.UnixMilli(0))
		out, err := s.Turn(context.Background(), in, rec)
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, out)
		rec.EndTurn(time.UnixMilli(0), s.State())
	}
	if len(outs[0].Warnings) != 0 {
		t.Errorf("turn 0 warnings %+v", outs[0].Warnings)
	}
	w := outs[1].Warnings
	if len(w) != 1 || w[0].Seq != 4 || w[0].Message != "the run that answered interrupt i-1 (reject) ended with it again: the agent did not take the answer" ||
		len(outs[1].Pending) != 1 {
		t.Errorf("turn 1 warnings %+v, pending %+v", w, outs[1].Pending)
	}
}
