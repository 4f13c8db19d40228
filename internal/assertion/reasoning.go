package assertion

import (
	"fmt"
	"strings"

	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// The reasoning section's kinds: regexes over the reasoning the agent made
// visible, which its assistant text never includes — so a test can require
// that it reasoned about something, or forbid a secret leaking into it.

// reasoningEvents are the event types that carry reasoning text (the
// retired THINKING_* among them, as received).
var reasoningEvents = map[string]bool{
	"REASONING_MESSAGE_START": true, "REASONING_MESSAGE_CONTENT": true, "REASONING_MESSAGE_END": true, "REASONING_MESSAGE_CHUNK": true,
	"THINKING_TEXT_MESSAGE_START": true, "THINKING_TEXT_MESSAGE_CONTENT": true, "THINKING_TEXT_MESSAGE_END": true,
}

// reasoningRefs returns the sequence numbers of the scope's reasoning
// events.
func reasoningRefs(s trace.Scope) []int64 { return eventRefs(s, reasoningEvents) }

// reasoningText is the scope's reasoning: every reasoning message of every
// turn, joined by "\n".
func reasoningText(s trace.Scope) string {
	var parts []string
	for i := range s.Turns {
		parts = append(parts, s.Turns[i].Reasoning...)
	}
	return strings.Join(parts, "\n")
}

func observedReasoning(text string) string {
	if text == "" {
		return "no reasoning"
	}
	return quote(text)
}

func reasoningMustMatch(r *Result, re *vars.Regex, s trace.Scope) {
	text := reasoningText(s)
	r.Expected = fmt.Sprintf("reasoning matching `%s`", re)
	r.Observed = observedReasoning(text)
	refs := reasoningRefs(s)
	if loc := find(re, text); loc != nil {
		r.Evidence = []Evidence{{Note: "match", Text: around(text, loc), EventRefs: refs}}
		r.set(status.Pass, "reasoning matches `%s`", re)
		return
	}
	r.Evidence = []Evidence{{Note: "reasoning", Text: shorten(text, 400), EventRefs: refs}}
	r.set(status.Fail, "reasoning in %s does not match `%s`: %s", s.Name, re, observedReasoning(text))
}

func reasoningMustNotMatch(r *Result, re *vars.Regex, s trace.Scope) {
	text := reasoningText(s)
	r.Expected = fmt.Sprintf("reasoning not matching `%s`", re)
	loc := find(re, text)
	if loc == nil {
		r.Observed = "no match"
		r.set(status.Pass, "reasoning does not match `%s`", re)
		return
	}
	ex := around(text, loc)
	r.Observed = fmt.Sprintf("match %s", quote(text[loc[0]:loc[1]]))
	r.Evidence = []Evidence{{Note: "forbidden match", Text: ex, EventRefs: reasoningRefs(s)}}
	r.set(status.Fail, "reasoning in %s matches forbidden `%s`: %s", s.Name, re, quote(ex))
}
