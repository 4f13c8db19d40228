package target

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ananke/action/internal/trace"
)

const chargeSchema = `{"type":"object","properties":{"amount":{"type":"number","exclusiveMinimum":0,"maximum":1000},
 "currency":{"type":"string","enum":["EUR","USD"]}},"required":["amount","currency"],"additionalProperties":false}`

// charge and mail are two pending interrupts: a card charge awaiting
// approval (with the schema of its arguments) and a mail.
var (
	charge = trace.Interrupt{ID: "i-charge", Reason: "tool_approval", ToolCallID: "c1", Tool: "charge_card", ResponseSchema: json.RawMessage(chargeSchema)}
	mail   = trace.Interrupt{ID: "i-mail", Reason: "confirm", ToolCallID: "c2", Tool: "send_mail"}
)

func args(id string) (string, bool) {
	switch id {
	case "c1":
		return `{"amount":42,"currency":"EUR"}`, true
	case "c2":
		return `{"to":"ada@example.com"}`, true
	}
	return "", false
}

func never() time.Time { panic("the clock is read only for an interrupt that expires") }

// TestResolve: which resume each pending interrupt gets, in pending
// order.
func TestResolve(t *testing.T) {
	for _, c := range []struct {
		name    string
		pending []trace.Interrupt
		answers []Answer
		want    []string // interrupt|answer|status|payload
	}{
		{"approve all, the default payload", []trace.Interrupt{charge, mail}, []Answer{{What: "resume", Action: trace.AnswerApprove}},
			[]string{"i-charge|approve|resolved|true", "i-mail|approve|resolved|true"}},
		{"reject all: no payload", []trace.Interrupt{charge}, []Answer{{What: "resume", Action: trace.AnswerReject}},
			[]string{"i-charge|reject|cancelled|"}},
		{"by tool, by reason, by id", []trace.Interrupt{charge, mail}, []Answer{
			{What: "resume[0]", Reason: "confirm", Action: trace.AnswerReject, Payload: json.RawMessage(`"not now"`)},
			{What: "resume[1]", ID: "i-charge", Tool: "charge_card", Action: trace.AnswerApprove, Payload: json.RawMessage(`{"ok":1}`)}},
			[]string{`i-charge|approve|resolved|{"ok":1}`, `i-mail|reject|cancelled|"not now"`}},
		{"an edit: the call's arguments with the changes", []trace.Interrupt{charge}, []Answer{{What: "resume", Tool: "charge_card", Action: trace.AnswerEdit, Edit: json.RawMessage(`{"amount":30}`)}},
			[]string{`i-charge|edit|resolved|{"amount":30,"currency":"EUR"}`}},
		{"an edit of a call the session does not know: the edit alone", []trace.Interrupt{{ID: "i-x", Reason: "r", ToolCallID: "c9", ResponseSchema: json.RawMessage(`{"type":"object"}`)}},
			[]Answer{{What: "resume", Action: trace.AnswerEdit, Edit: json.RawMessage(`{"amount":30}`)}},
			[]string{`i-x|edit|resolved|{"amount":30}`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rs, err := Resolve(c.pending, c.answers, args, never)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range rs {
				got = append(got, strings.Join([]string{r.InterruptID, r.Answer, r.Status, string(r.Payload)}, "|"))
				if r.Reason == "" || r.ToolCallID == "" {
					t.Errorf("%s: the resume does not name the interrupt's reason and call: %+v", r.InterruptID, r)
				}
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("resumes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

func TestResolveErrors(t *testing.T) {
	expired := trace.Interrupt{ID: "i-old", Reason: "r", ExpiresAt: "2026-01-01T00:00:00Z"}
	now := func() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) }
	for _, c := range []struct {
		name    string
		pending []trace.Interrupt
		answers []Answer
		want    string
	}{
		{"nothing pending", nil, []Answer{{What: "resume", Action: trace.AnswerApprove}},
			"nothing to resume: the agent's last run did not end with an interrupt"},
		{"an answer that matches none", []trace.Interrupt{charge}, []Answer{{What: "resume", Tool: "refund", Action: trace.AnswerApprove}},
			"resume (tool refund) matches no pending interrupt; pending: i-charge (tool_approval, charge_card call c1)"},
		{"an interrupt left unanswered", []trace.Interrupt{charge, mail}, []Answer{{What: "resume", Tool: "charge_card", Action: trace.AnswerApprove}},
			"interrupt i-mail (confirm, send_mail call c2) is not answered: a resume must answer every pending interrupt (pending: i-charge (tool_approval, charge_card call c1), i-mail (confirm, send_mail call c2))"},
		{"answered twice", []trace.Interrupt{charge}, []Answer{{What: "resume[0]", Action: trace.AnswerApprove}, {What: "resume[1]", Reason: "tool_approval", Action: trace.AnswerReject}},
			"resume[0] and resume[1] both answer interrupt i-charge (tool_approval, charge_card call c1): answer each pending interrupt once"},
		{"an edit without a responseSchema", []trace.Interrupt{mail}, []Answer{{What: "resume", Action: trace.AnswerEdit, Edit: json.RawMessage(`{"to":"x"}`)}},
			"resume.edit: interrupt i-mail (confirm, send_mail call c2) gives no responseSchema, so it takes no edited arguments (approve or reject it, with a payload if it needs one)"},
		{"an edit outside the responseSchema", []trace.Interrupt{charge}, []Answer{{What: "resume[0]", Action: trace.AnswerEdit, Edit: json.RawMessage(`{"amount":5000,"tip":1}`)}},
			`resume[0].edit: the edited arguments {"amount":5000,"currency":"EUR","tip":1} do not validate against the responseSchema of interrupt i-charge (tool_approval, charge_card call c1): at the top: additional properties 'tip' not allowed; at /amount: maximum: got 5,000, want 1,000`},
		{"an expired interrupt approved", []trace.Interrupt{expired}, []Answer{{What: "resume", Action: trace.AnswerApprove}},
			"resume: interrupt i-old (r) expired at 2026-01-01T00:00:00Z; an expired interrupt can only be rejected"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Resolve(c.pending, c.answers, args, now)
			if err == nil || err.Error() != c.want {
				t.Errorf("%v\nwant %s", err, c.want)
			}
		})
	}
	// An expired interrupt may be rejected.
	if _, err := Resolve([]trace.Interrupt{expired}, []Answer{{What: "resume", Action: trace.AnswerReject}}, args, now); err != nil {
		t.Errorf("rejecting an expired interrupt: %v", err)
	}
}

func TestPendingError(t *testing.T) {
	for n, want := range map[int]string{
		1: "an interrupt is pending: i-charge (tool_approval, charge_card call c1); answer it with a resume turn (resume: approve, reject or edit) before sending the agent anything else",
		2: "2 interrupts are pending: i-charge (tool_approval, charge_card call c1), i-mail (confirm, send_mail call c2); answer them with a resume turn (resume: approve, reject or edit) before sending the agent anything else",
	} {
		if got := PendingError([]trace.Interrupt{charge, mail}[:n]).Error(); got != want {
			t.Errorf("%d: %s\nwant %s", n, got, want)
		}
	}
}

func TestShownResume(t *testing.T) {
	in := Turn{Type: TurnResume, Resume: []Answer{{Action: trace.AnswerApprove}, {Tool: "charge_card", Action: trace.AnswerEdit, Edit: json.RawMessage(`{"amount":30}`)}}}
	if got, want := in.Shown(), `resume: approve; edit tool charge_card {"amount":30}`; got != want {
		t.Errorf("%s; want %s", got, want)
	}
}
