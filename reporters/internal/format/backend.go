package format

import (
	"fmt"
	"strings"

	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/trace"
)

// What Ananke served behind the agent (docs/backend.md), in the words
// every report uses.

// DoubleMark marks a call Ananke's tool doubles answered.
const DoubleMark = "⇄ double"

// SpansMark marks a call found only in the agent's OpenTelemetry spans
// (docs/opentelemetry.md).
const SpansMark = "◇ from spans"

// Source says where a call the agent did not stream was found:
// SpansMark for one found in its spans; "" otherwise.
func Source(c *report.Call) string {
	if c.Source == trace.SourceSpans {
		return SpansMark
	}
	return ""
}

// Served says how the doubles answered a call: "⇄ double (match[0])",
// "⇄ double: no answer for this test"; "" for a call they did not serve.
func Served(c *report.Call) string {
	s := c.Served
	switch {
	case s == nil:
		return ""
	case s.Unanswered:
		return DoubleMark + ": no answer for this test"
	case s.Answer != "":
		return DoubleMark + " (" + s.Answer + ")"
	}
	return DoubleMark
}

// ModelCall says what one request to the model was, for a line:
// "gpt-4o-mini → 200 tool_calls · 1,200 in / 80 out · 170 ms",
// "gpt-4o-mini → 429 fault injected · 1 ms".
func ModelCall(m *report.ModelCall) string {
	var b strings.Builder
	b.WriteString(m.Model)
	if m.ResponseModel != "" {
		b.WriteString(" (" + m.ResponseModel + ")")
	}
	fmt.Fprintf(&b, " → %s", ModelOutcome(m))
	if t := ModelTokens(m); t != "" {
		b.WriteString(" · " + t)
	}
	b.WriteString(" · " + Duration(m.DurationMs))
	return b.String()
}

// ModelOutcome is what became of a request: its status and finish
// reason, the fault Ananke injected, or its error.
func ModelOutcome(m *report.ModelCall) string {
	s := fmt.Sprintf("%d", m.Status)
	switch {
	case m.Fault != "":
		return s + " fault " + m.Fault + " injected"
	case m.Error != "":
		return s + " error: " + OneLine(m.Error, 120)
	case m.Note != "":
		return s + " " + OneLine(m.Note, 120)
	case m.FinishReason != "":
		return s + " " + m.FinishReason
	}
	return s
}

// ModelTokens is a request's tokens as its response reported them
// ("1,200 in / 80 out"); "" when it reported none.
func ModelTokens(m *report.ModelCall) string {
	if m.Usage == nil {
		return ""
	}
	var parts []string
	if n, ok := m.Usage.Tokens.Get(cost.Input); ok {
		parts = append(parts, cost.FormatCount(n)+" in")
	}
	if n, ok := m.Usage.Tokens.Get(cost.Output); ok {
		parts = append(parts, cost.FormatCount(n)+" out")
	}
	return strings.Join(parts, " / ")
}

// Unanswered counts the calls of the test's shown attempt that a double
// answered with no answer for the test.
func Unanswered(t *report.Test) int {
	n := 0
	for _, turn := range t.Turns {
		for _, c := range turn.ToolCalls {
			if c.Served != nil && c.Served.Unanswered {
				n++
			}
		}
	}
	return n
}
