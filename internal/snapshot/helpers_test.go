package snapshot

import (
	"regexp"

	"github.com/ananke/action/internal/trace"
)

// call is a tool call of a test trace.
func call(name, args string) trace.ToolCall { return trace.ToolCall{Name: name, Args: args} }

// turn is a test trace's turn: its calls and its reply.
func turn(i int, text string, calls ...trace.ToolCall) trace.Turn {
	t := trace.Turn{Index: i, ToolCalls: calls}
	if text != "" {
		t.Texts = []string{text}
	}
	return t
}

// scope is a test scope of turns.
func scope(turns ...trace.Turn) trace.Scope {
	return (&trace.Trace{Turns: turns}).TestScope()
}

func mustIgnore(s string) Ignore {
	in, err := ParseIgnore(s)
	if err != nil {
		panic(err)
	}
	return in
}

func replace(pattern, with string) Replace {
	return Replace{Pattern: regexp.MustCompile(pattern), With: with}
}

func tol(f float64) *float64 { return &f }
