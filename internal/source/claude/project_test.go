package claude

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ananke/action/internal/trace"
)

// The project fixture is a Claude Code project folder as Claude Code 2.1
// leaves it: session A (a /model command, a prompt that starts an Explore
// subagent kept in A/subagents/, a custom /review command the agent
// answered, a background command and its task notification) and session
// B (a line cut short, a failed tool call).
const (
	project  = "testdata/projects/-home-dev-shop"
	sessionA = "0b7e6c1a-5d2f-4c8e-9a31-7f4e2b9d6c05"
	sessionB = "5f2d9e44-8b1c-4a7d-b3e6-2c9f0a8e1d37"
	agentA   = "a7c21f9"
)

func readProject(t *testing.T, rel string, o Options) *trace.Trace {
	t.Helper()
	tr, err := ReadWith(filepath.Join(project, rel), "shop/"+rel, o)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// callsOf lists a trace's calls as "turn name agent result-error".
func callsOf(tr *trace.Trace) []string {
	var out []string
	for _, tu := range tr.Turns {
		for _, c := range tu.ToolCalls {
			f := []string{itoa(c.Turn), c.Name}
			if c.Agent != "" {
				f = append(f, c.Agent)
			}
			if c.Result == nil {
				f = append(f, "pending")
			} else if c.Result.Error != "" {
				f = append(f, "error")
			}
			out = append(out, strings.Join(f, " "))
		}
	}
	return out
}

func TestReadWithSubagents(t *testing.T) {
	tr := readProject(t, sessionA+".jsonl", Options{})
	var users []string
	var seqs []int64
	for _, tu := range tr.Turns {
		users, seqs = append(users, tu.UserText), append(seqs, tu.UserSeq)
	}
	for _, c := range []struct {
		name      string
		got, want any
	}{
		// /model and its output are no turn; the answered /review is one;
		// the task notification is not a prompt.
		{"turns", users, []string{"Where is the discount applied at checkout? It rounds wrong for 3 items.",
			"/review src/checkout/discount.ts", "Fix it and run the tests in the background."}},
		{"user events", seqs, []int64{5, 16, 21}},
		{"calls", callsOf(tr), []string{"0 Task", "0 Grep " + agentA, "0 Read " + agentA + " error", "1 Read", "2 Edit", "2 Bash"}},
		{"texts of turn 0", tr.Turns[0].Texts, []string{"I'll have an agent find where the discount is computed.",
			"`applyDiscount` in src/checkout/discount.ts rounds each item's discount before summing, so 3 items lose up to 3 cents. Round the total once instead."}},
		{"texts of turn 2", tr.Turns[2].Texts, []string{"The fix is in; the checkout tests are running.",
			"The checkout tests pass: 3 items now get the full discount."}},
		{"subagent lines interleaved", []string{tr.Turns[0].Events[7].Origin, tr.Turns[0].Events[12].Origin, tr.Turns[0].Events[13].Origin},
			[]string{"shop/" + sessionA + "/subagents/agent-" + agentA + ".jsonl:1", "shop/" + sessionA + "/subagents/agent-" + agentA + ".jsonl:6",
				"shop/" + sessionA + ".jsonl:8"}},
		{"notices", tr.Notices, []trace.Notice(nil)},
		{"source", []string{tr.Source.SessionID, tr.Source.AgentID}, []string{sessionA, ""}},
	} {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s:\n got %#v\nwant %#v", c.name, c.got, c.want)
		}
	}
	seq := int64(0)
	for _, tu := range tr.Turns {
		for _, e := range tu.Events {
			if seq++; e.Seq != seq {
				t.Fatalf("event %s: seq %d, want %d", e.Origin, e.Seq, seq)
			}
		}
	}
	if seq != 22+6 {
		t.Errorf("%d events, want the session's 22 lines and the subagent's 6", seq)
	}
}

// TestSubagentAlone: a subagent's transcript read alone is the
// conversation it had with the main agent, and a notice says what it is.
func TestSubagentAlone(t *testing.T) {
	rel := sessionA + "/subagents/agent-" + agentA + ".jsonl"
	tr := readProject(t, rel, Options{})
	if len(tr.Turns) != 1 || tr.Turns[0].UserText != "Find where the checkout applies discounts for multiple items and report the file and function." {
		t.Fatalf("turns %#v", tr.Turns)
	}
	if got := callsOf(tr); !reflect.DeepEqual(got, []string{"0 Grep " + agentA, "0 Read " + agentA + " error"}) {
		t.Errorf("calls %q", got)
	}
	if tr.Source.AgentID != agentA || tr.Turns[0].Text() != "The discount is applied in `applyDiscount` in src/checkout/discount.ts: it rounds each item's discount before summing." {
		t.Errorf("agent %q text %q", tr.Source.AgentID, tr.Turns[0].Text())
	}
	want := "shop/" + rel + " is the transcript of subagent " + agentA + " (Explore: Find the checkout discount) of session " + sessionA +
		", read alone: its first prompt is the task the main agent gave it, not a user's; name shop/" + sessionA + ".jsonl to read the session with its subagents"
	if len(tr.Notices) != 1 || tr.Notices[0].Message != want {
		t.Errorf("notices %#v\nwant %q", tr.Notices, want)
	}
}

// TestMalformedLine: a line that cannot be read is left out with a notice
// naming it, and the rest of the session is read; strict, it is an error.
func TestMalformedLine(t *testing.T) {
	tr := readProject(t, sessionB+".jsonl", Options{})
	want := []trace.Notice{{Turn: 0, Message: "shop/" + sessionB + ".jsonl:4: not a JSON object: unexpected end of JSON input; the line is left out"}}
	if !reflect.DeepEqual(tr.Notices, want) {
		t.Errorf("notices %#v\nwant %#v", tr.Notices, want)
	}
	if got := callsOf(tr); !reflect.DeepEqual(got, []string{"0 Bash error", "0 Write"}) || len(tr.Turns[0].Events) != 7 {
		t.Errorf("calls %q, %d events", got, len(tr.Turns[0].Events))
	}
	_, err := ReadWith(filepath.Join(project, sessionB+".jsonl"), "b.jsonl", Options{Strict: true})
	if err == nil || err.Error() != "b.jsonl:4: not a JSON object: unexpected end of JSON input" {
		t.Errorf("strict: error %v", err)
	}
}

func itoa(i int) string { return string(rune('0' + i)) }
