package main

import (
	"strings"
	"testing"
)

// TestUsage: every run ends with its usage, counted from what it was sent
// and what it wrote, the same on every run of the same conversation.
func TestUsage(t *testing.T) {
	srv := newTestServer(t)
	in := RunAgentInput{ThreadID: "t1", RunID: "r1", Messages: userText("Hello")}
	events := postRun(t, srv, in)
	last := events[len(events)-1]
	if last.Type != "RUN_FINISHED" || len(last.Usage) != 1 {
		t.Fatalf("last event = %+v, want RUN_FINISHED with one usage", last)
	}
	var text strings.Builder
	for _, e := range events {
		if e.Type == "TEXT_MESSAGE_CONTENT" || e.Type == "TOOL_CALL_ARGS" {
			text.WriteString(e.Delta)
		}
	}
	want := TokenUsage{Provider: "example", Model: Model, InputTokens: 120 + tokens(len("Hello")), OutputTokens: tokens(text.Len())}
	want.TotalTokens = want.InputTokens + want.OutputTokens
	if got := last.Usage[0]; got != want || got.OutputTokens == 0 {
		t.Errorf("usage = %+v, want %+v (output > 0)", got, want)
	}
	again := postRun(t, srv, in)
	if got := again[len(again)-1].Usage; len(got) != 1 || got[0] != want {
		t.Errorf("a second run of the same conversation used %+v, want %+v", got, want)
	}
}
