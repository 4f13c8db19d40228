package bless

import (
	"fmt"
	"strings"

	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/snapshot"
	"github.com/ananke/action/internal/trace"
)

// tr builds a trace of turns, numbering its calls' events in order.
func tr(turns ...trace.Turn) *trace.Trace {
	t := &trace.Trace{}
	seq := int64(0)
	for i := range turns {
		turns[i].Index = i
		if turns[i].Kind == "" {
			turns[i].Kind = "user"
		}
		for k := range turns[i].ToolCalls {
			seq++
			turns[i].ToolCalls[k].StartSeq = seq
			turns[i].ToolCalls[k].Turn = i
		}
	}
	t.Turns = turns
	return t
}

// turn is a user turn: what the user said, the agent's reply, its calls.
func turn(user, reply string, calls ...trace.ToolCall) trace.Turn {
	t := trace.Turn{UserText: user, ToolCalls: calls}
	if reply != "" {
		t.Texts = []string{reply}
	}
	return t
}

// call is a backend call with its JSON arguments and its result.
func call(name, args, result string) trace.ToolCall {
	c := trace.ToolCall{ID: "c-" + name, Name: name, Args: args, ArgsJSON: strings.HasPrefix(args, "{")}
	if result != "" {
		c.Result = &trace.Result{Content: result, JSON: strings.HasPrefix(result, "{")}
	}
	return c
}

// client is a call of a client tool Ananke answered.
func client(name, args, result string) trace.ToolCall {
	c := call(name, args, result)
	c.Client = true
	return c
}

// fromTranscript marks a trace as read from a transcript with caps.
func fromTranscript(t *trace.Trace, caps ...string) *trace.Trace {
	t.Source = &trace.Source{Adapter: "claude-transcript", Mode: "import", Capabilities: caps}
	return t
}

var toolTrace = capability.ToolTrace

// listChecks writes checks one a line, each snapshot's entry under it,
// then the notes, as the goldens hold them.
func listChecks(checks []Check, notes []string) string {
	var b strings.Builder
	for _, c := range checks {
		fmt.Fprintf(&b, "%-8s %s: %s\n         inferred: %s\n", c.Kind, c.Where(), c.Show(), c.Why)
		if c.Snap != nil {
			f := snapshot.File{Entries: map[snapshot.Key]snapshot.Snapshot{{Test: "t", Assertion: SnapshotAssertion}: *c.Snap}}
			_, entry, _ := strings.Cut(string(f.Marshal()), "snapshots:\n")
			b.WriteString(entry)
		}
	}
	for _, n := range notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	return b.String()
}

// inferred are the checks Infer makes of c.
func inferred(c *Conversation) []Check {
	checks, _ := Infer(c)
	return checks
}
