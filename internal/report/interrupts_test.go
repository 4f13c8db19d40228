package report_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/internal/trace"
)

// TestInterrupts: a turn's interrupts and resumes reach its summary in
// the report, and their messages, schemas and payloads are masked there
// and in the report's trace.
func TestInterrupts(t *testing.T) {
	out := reporttest.Outcome()
	tr := out.Tests[0].Attempts[0].Trace
	tr.Turns[0].Interrupts = []trace.Interrupt{{ID: "i-1", Reason: "tool_approval", Message: "Charge the card " + reporttest.Secret + "?",
		ToolCallID: "call-0", Tool: "search", ResponseSchema: json.RawMessage(`{"const":"` + reporttest.Secret + `"}`), Seq: 6}}
	tr.Turns[1].Resumes = []trace.Resume{{InterruptID: "i-1", Answer: trace.AnswerEdit, Status: trace.StatusResolved,
		Payload: json.RawMessage(`{"token":"` + reporttest.Secret + `"}`), Reason: "tool_approval", ToolCallID: "call-0", Tool: "search", Seq: 7}}
	rep := report.Build(out, report.Meta{Version: "v1.2.3", Config: reporttest.Config()})
	ft := rep.Tests[0]
	in, res := ft.Turns[0].Interrupts, ft.Turns[1].Resumes
	if len(in) != 1 || in[0].ID != "i-1" || in[0].Tool != "search" || in[0].Seq != 6 || in[0].Message != "Charge the card "+report.Mask+"?" {
		t.Errorf("interrupts %+v", in)
	}
	if len(res) != 1 || res[0].Answer != "edit" || res[0].Status != "resolved" || string(res[0].Payload) != `{"token":"`+report.Mask+`"}` || res[0].Seq != 7 {
		t.Errorf("resumes %+v", res)
	}
	all, _ := json.Marshal(ft)
	b, _ := json.Marshal(ft.Trace)
	if s := string(all) + string(b); strings.Contains(s, reporttest.Secret) || !strings.Contains(string(b), `"interrupts":[`) || !strings.Contains(string(b), `"resumes":[`) {
		t.Errorf("the secret survives, or the trace lost its interrupts:\n%s", b)
	}
}
