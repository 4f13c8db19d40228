package judge

import (
	"fmt"
	"strings"

	"github.com/ananke/action/internal/trace"
)

// DefaultPrompt is the judge's system prompt; a config replaces it with
// model.prompts.judge (docs/models.md).
const DefaultPrompt = `You judge whether an AI agent's conversation meets given criteria.

You get a transcript: the user's messages, the agent's replies, and the tools the agent
called with their arguments and results. Judge each criterion on its own, only from what
the transcript shows:
- "true" when the transcript shows the criterion is met;
- "false" when it shows the criterion is not met;
- "inconclusive" when it shows neither (say what is missing).
Do not assume anything the transcript does not show. Give one or two sentences of
reasoning per criterion, quoting the transcript where you can.

Answer with JSON only: {"verdicts": {"c1": {"verdict": "true" | "false" | "inconclusive",
"reasoning": "..."}, ...}}, one entry per criterion key, no other keys.`

// question is the user message: the transcript of the scope, then the
// criteria with their keys.
func question(criteria []string, s trace.Scope) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Transcript (%s):\n\n%s\nCriteria:\n", scopeName(s), Transcript(s))
	for i, c := range criteria {
		fmt.Fprintf(&b, "- %s: %s\n", key(i), c)
	}
	return b.String()
}

func scopeName(s trace.Scope) string {
	if s.Name == "test" {
		return "the whole conversation"
	}
	return s.Name + " of the conversation"
}

// Transcript renders a scope for a model: the history (for the whole
// test), then per turn the user's message, each tool call with its
// arguments and result, and the agent's reply.
func Transcript(s trace.Scope) string {
	var b strings.Builder
	if s.Name == "test" {
		for _, m := range s.History {
			fmt.Fprintf(&b, "%s (earlier): %s\n", strings.ToUpper(m.Role), m.Content)
		}
	}
	for i := range s.Turns {
		t := &s.Turns[i]
		if t.UserText != "" {
			fmt.Fprintf(&b, "USER: %s\n", t.UserText)
		}
		for _, a := range t.Attachments {
			fmt.Fprintf(&b, "USER attached %s (%s, %d bytes)\n", a.Name, a.MIME, a.Bytes)
		}
		for _, c := range t.ToolCalls {
			res := "(no result)"
			if c.Result != nil {
				res = c.Result.Content
			}
			fmt.Fprintf(&b, "AGENT called tool %s with %s -> %s\n", c.Name, c.Args, res)
		}
		if text := t.Text(); text != "" {
			fmt.Fprintf(&b, "AGENT: %s\n", text)
		}
	}
	return b.String()
}
