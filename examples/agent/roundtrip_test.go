package main

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestClientToolRoundTrip plays both runs of a purchase: run 1 leaves a
// confirm_purchase call pending for the client, run 2 carries the client's
// answer and either charges the card or cancels.
func TestClientToolRoundTrip(t *testing.T) {
	srv := newTestServer(t)
	user := msg("u1", "user", "I want to buy the trail shoe")
	first := postRun(t, srv, RunAgentInput{ThreadID: "thread-1", RunID: "run-1", Messages: []Message{user}, Tools: []Tool{confirmTool}})

	calls, _ := capture(first)
	checkCalls(t, calls, []wantCall{{"validate_cart", `{}`, validateRes}, {"confirm_purchase", `{"amount":89.5}`, ""}})
	pending := calls[1]
	last := first[len(first)-1]
	if last.Outcome == nil || !reflect.DeepEqual(last.Outcome.PendingToolCallIDs, []string{pending.id}) {
		t.Errorf("RUN_FINISHED outcome = %+v, want pendingToolCallIds [%s]", last.Outcome, pending.id)
	}

	// The history a client sends back: the assistant message that made the
	// call (id = parentMessageId) and one tool message answering it.
	assistant := Message{ID: pending.parent, Role: "assistant", ToolCalls: []ToolCall{{
		ID: pending.id, Type: "function", Function: FunctionCall{Name: pending.name, Arguments: pending.args},
	}}}
	tests := []struct {
		name      string
		answer    Message
		wantCalls []wantCall
		wantText  string
	}{
		{
			name:      "confirmed",
			answer:    Message{ID: "tool-1", Role: "tool", ToolCallID: pending.id, Content: jsonString("yes")},
			wantCalls: []wantCall{{"charge_card", `{"amount":89.5}`, `{"status":"approved","charge_id":"ch_1"}`}},
			wantText:  "Order placed: charge ch_1 approved.",
		},
		{
			name:      "confirmed in other words",
			answer:    Message{ID: "tool-1", Role: "tool", ToolCallID: pending.id, Content: jsonString(`{"answer":"YES, go ahead"}`)},
			wantCalls: []wantCall{{"charge_card", `{"amount":89.5}`, `{"status":"approved","charge_id":"ch_1"}`}},
			wantText:  "Order placed: charge ch_1 approved.",
		},
		{
			name:     "declined",
			answer:   Message{ID: "tool-1", Role: "tool", ToolCallID: pending.id, Content: jsonString("no")},
			wantText: "Purchase cancelled.",
		},
		{
			name:     "tool failed",
			answer:   Message{ID: "tool-1", Role: "tool", ToolCallID: pending.id, Content: jsonString("yes"), Error: "dialog closed"},
			wantText: "Purchase cancelled.",
		},
		{
			name:     "unknown call",
			answer:   Message{ID: "tool-1", Role: "tool", ToolCallID: "nope", Content: jsonString("yes")},
			wantText: `I did not expect a result for tool call "nope".`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := RunAgentInput{ThreadID: "thread-1", RunID: "run-2", Tools: []Tool{confirmTool},
				Messages: []Message{user, assistant, tc.answer}}
			events := postRun(t, srv, in)
			calls, texts := capture(events)
			checkCalls(t, calls, tc.wantCalls)
			if !reflect.DeepEqual(texts, []string{tc.wantText}) {
				t.Errorf("texts = %q, want [%q]", texts, tc.wantText)
			}
			if out := events[len(events)-1].Outcome; out != nil {
				t.Errorf("RUN_FINISHED outcome = %+v, want none (nothing pending)", out)
			}
		})
	}
}

// TestMemory checks answers that depend on earlier messages of the history.
func TestMemory(t *testing.T) {
	srv := newTestServer(t)
	tests := []struct {
		name    string
		history []Message
		want    string
	}{
		{
			name: "recalls name",
			history: []Message{
				msg("u1", "user", "Hi, my name is Grace."),
				msg("a1", "assistant", "Nice to meet you, Grace."),
				msg("u2", "user", "What is my name?"),
			},
			want: "Your name is Grace.",
		},
		{
			name: "latest name wins",
			history: []Message{
				msg("u1", "user", "my name is Ada"),
				msg("u2", "user", "Actually MY NAME IS Grace Hopper!"),
				msg("u3", "user", "what is my name"),
			},
			want: "Your name is Grace Hopper.",
		},
		{
			name: "never told",
			history: []Message{
				msg("u1", "user", "hello"),
				msg("a1", "assistant", "My name is Agent."),
				msg("u2", "user", "What is my name?"),
			},
			want: "You have not told me your name.",
		},
		{
			name: "quotes first message",
			history: []Message{
				msg("u1", "user", "Hello there"),
				msg("a1", "assistant", defaultText),
				msg("u2", "user", "What did I say first?"),
			},
			want: `Your first message was: "Hello there"`,
		},
		{
			name: "first message phrase",
			history: []Message{
				msg("s1", "system", "be brief"),
				msg("u1", "user", "weather?"),
				msg("u2", "user", "Repeat my first message"),
			},
			want: `Your first message was: "weather?"`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			events := postRun(t, srv, RunAgentInput{ThreadID: "t", RunID: "r", Messages: tc.history})
			_, texts := capture(events)
			if !reflect.DeepEqual(texts, []string{tc.want}) {
				t.Errorf("texts = %q, want [%q]", texts, tc.want)
			}
		})
	}
}

func jsonString(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}
