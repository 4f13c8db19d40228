package snapshot

import (
	"strings"

	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/trace"
)

// Snapshot is what a scope of a trace did, as stored: its turns in order,
// each with its tool calls and, when the rules keep text, its reply.
type Snapshot struct {
	Turns []Turn
}

// Turn is one turn of a snapshot.
type Turn struct {
	// Index is the turn's index in its test, from 0.
	Index int
	Calls []Call
	// Reply is the turn's reply as the rules keep it; nil when they keep
	// no text.
	Reply *Reply
}

// Reply is a turn's reply: its structure, or its words, one line each.
type Reply struct {
	Mode  Text
	Lines []string
}

// Call is one tool call: the tool's name and its arguments (a JSON value
// with numbers as written, a string when they were not JSON, nil when
// there were none), normalised.
type Call struct {
	Name string
	Args any
}

// Take makes the snapshot of a scope: every tool call of its turns, in
// order, with its arguments parsed and normalised, and each turn's reply
// as rules.Text says.
func Take(s trace.Scope, rules Rules) Snapshot {
	n := normalizer{rules: rules}
	snap := Snapshot{Turns: make([]Turn, 0, len(s.Turns))}
	for i := range s.Turns {
		tr := &s.Turns[i]
		t := Turn{Index: tr.Index, Calls: make([]Call, 0, len(tr.ToolCalls))}
		for _, c := range tr.ToolCalls {
			name := strings.ToValidUTF8(c.Name, "\uFFFD")
			t.Calls = append(t.Calls, Call{Name: name, Args: n.args(name, parseArgs(c.Args))})
		}
		switch rules.TextMode() {
		case TextStructure:
			t.Reply = &Reply{Mode: TextStructure, Lines: structure(tr.Text())}
		case TextExact:
			t.Reply = &Reply{Mode: TextExact, Lines: n.exactLines(tr.Text())}
		}
		snap.Turns = append(snap.Turns, t)
	}
	return snap
}

// Normalize applies rules to a stored snapshot, as Take applies them to a
// new one: the ignored paths and the replacements a suite added since the
// snapshot was written apply to it too. The defaults and the usual rules
// change nothing in what they wrote already.
func Normalize(s Snapshot, rules Rules) Snapshot {
	n := normalizer{rules: rules}
	out := Snapshot{Turns: make([]Turn, len(s.Turns))}
	for i, t := range s.Turns {
		nt := Turn{Index: t.Index, Calls: make([]Call, len(t.Calls)), Reply: t.Reply}
		for j, c := range t.Calls {
			nt.Calls[j] = Call{Name: c.Name, Args: n.args(c.Name, clone(c.Args))}
		}
		if t.Reply != nil && t.Reply.Mode == TextExact {
			lines := make([]string, len(t.Reply.Lines))
			for k, l := range t.Reply.Lines {
				lines[k] = n.text(l)
			}
			nt.Reply = &Reply{Mode: TextExact, Lines: lines}
		}
		out.Turns[i] = nt
	}
	return out
}

// Calls is how many tool calls the snapshot holds, over all its turns.
func (s Snapshot) Calls() int {
	n := 0
	for _, t := range s.Turns {
		n += len(t.Calls)
	}
	return n
}

// Summary says what a snapshot holds: "2 turns, 3 calls".
func (s Snapshot) Summary() string {
	return plural.Count(len(s.Turns), "turn") + ", " + plural.Count(s.Calls(), "call")
}
