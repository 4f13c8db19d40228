package agui_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ananke/action/internal/agui"
)

// stream builds an LF-framed body from event JSON objects.
func stream(events ...string) string {
	var b strings.Builder
	for _, e := range events {
		fmt.Fprintf(&b, "data: %s\n\n", e)
	}
	return b.String()
}

const (
	started  = `{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}`
	finished = `{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}`
)

// TestRules: each rule, with the problem it must raise (or none).
func TestRules(t *testing.T) {
	tests := []struct {
		name   string
		events []string
		strict bool
		want   string // "" = no problem at all; else a substring of one problem, prefixed "error:" or "warning:"
	}{
		{"clean", []string{started, finished}, false, ""},
		{"first event", []string{`{"type":"TEXT_MESSAGE_START","messageId":"m"}`}, false, "error: First event must be 'RUN_STARTED'"},
		{"run error first is fine", []string{`{"type":"RUN_ERROR","message":"no"}`}, false, ""},
		{"after run error", []string{started, `{"type":"RUN_ERROR","message":"x"}`, `{"type":"STEP_STARTED","stepName":"s"}`}, false, "error: The run has already errored"},
		{"late run error is legal", []string{started, finished, `{"type":"RUN_ERROR","message":"late"}`}, false, ""},
		{"nested run", []string{started, started, finished}, false, "error: Cannot send 'RUN_STARTED' while a run is still active"},
		{"text started twice", []string{started, `{"type":"TEXT_MESSAGE_START","messageId":"m"}`, `{"type":"TEXT_MESSAGE_START","messageId":"m"}`}, false, "error: A text message with ID 'm' is already in progress"},
		{"text end unknown", []string{started, `{"type":"TEXT_MESSAGE_END","messageId":"m"}`, finished}, false, "error: No active text message found with ID 'm'"},
		{"tool started twice", []string{started, `{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"x"}`, `{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"x"}`}, false, "error: A tool call with ID 'c' is already in progress"},
		{"tool end unknown", []string{started, `{"type":"TOOL_CALL_END","toolCallId":"c"}`, finished}, false, "error: No active tool call found with ID 'c'"},
		{"tool open at finish", []string{started, `{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"x"}`, finished}, false, "error: while tool calls are still active: 'c'"},
		{"step twice", []string{started, `{"type":"STEP_STARTED","stepName":"s"}`, `{"type":"STEP_STARTED","stepName":"s"}`}, false, `error: Step "s" is already active`},
		{"step never started", []string{started, `{"type":"STEP_FINISHED","stepName":"s"}`, finished}, false, `error: Cannot send 'STEP_FINISHED' for step "s" that was not started`},
		{"reasoning span", []string{started, `{"type":"REASONING_END","messageId":"x"}`, finished}, false, "error: No active reasoning span found with ID 'x'"},
		{"subagent", []string{started, `{"type":"SUBAGENT_FINISHED","subagentRunId":"s"}`, finished}, false, "error: No active subagent found with ID 's'"},
		{"subagent open", []string{started, `{"type":"SUBAGENT_STARTED","subagentRunId":"s","name":"n"}`, finished}, false, "error: while subagents are still active: 's'"},
		{"interleaved text and calls", []string{started, `{"type":"TEXT_MESSAGE_START","messageId":"m"}`, `{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"x"}`,
			`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"a"}`, `{"type":"TOOL_CALL_END","toolCallId":"c"}`, `{"type":"TEXT_MESSAGE_END","messageId":"m"}`, finished}, false, ""},
		{"two runs in one stream", []string{`{"type":"RUN_STARTED","threadId":"t1","runId":"r0"}`, `{"type":"RUN_FINISHED","threadId":"t1","runId":"r0"}`, started, finished}, false, ""},
		{"run id not echoed", []string{`{"type":"RUN_STARTED","threadId":"t1","runId":"x"}`, `{"type":"RUN_FINISHED","threadId":"t1","runId":"x"}`}, false, "warning: no RUN_STARTED in the response echoes the input's runId 'r1'"},
		{"run id not echoed, strict", []string{`{"type":"RUN_STARTED","threadId":"t1","runId":"x"}`, `{"type":"RUN_FINISHED","threadId":"t1","runId":"x"}`}, true, "error: no RUN_STARTED"},
		{"run ids disagree", []string{started, `{"type":"RUN_FINISHED","threadId":"t1","runId":"other"}`}, false, "warning: RUN_STARTED and RUN_FINISHED must agree on their runId"},
		{"chunk without id", []string{started, `{"type":"TEXT_MESSAGE_CHUNK","delta":"x"}`, finished}, false, "error: First TEXT_MESSAGE_CHUNK must have a messageId"},
		{"chunk closed by custom", []string{started, `{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","delta":"a"}`, `{"type":"CUSTOM","name":"n","value":null}`, `{"type":"TEXT_MESSAGE_CHUNK","delta":"b"}`, finished}, false, "error: First TEXT_MESSAGE_CHUNK must have a messageId"},
		{"chunk role conflict", []string{started, `{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","role":"assistant","delta":"a"}`, `{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","role":"user","delta":"b"}`, finished}, false,
			"error: Cannot continue text message 'm': chunk role 'user' does not match the open stream's role 'assistant'."},
		{"tool chunk without name", []string{started, `{"type":"TOOL_CALL_CHUNK","toolCallId":"c","delta":"{}"}`, finished}, false, "error: First TOOL_CALL_CHUNK must have a toolCallName"},
		{"missing required field", []string{started, `{"type":"TOOL_CALL_ARGS","toolCallId":"c"}`, finished}, false, `error: TOOL_CALL_ARGS is missing required field "delta"`},
		{"metadata null", []string{started, `{"type":"STEP_STARTED","stepName":"s","metadata":null}`}, false, "error: STEP_STARTED.metadata is null"},
		{"string timestamp", []string{`{"type":"RUN_STARTED","threadId":"t1","runId":"r1","timestamp":"now"}`, finished}, false, "error: RUN_STARTED.timestamp must be an integer"},
		{"unknown role stripped", []string{started, `{"type":"TEXT_MESSAGE_START","messageId":"m","role":"robot"}`, `{"type":"TEXT_MESSAGE_END","messageId":"m"}`, finished}, false, `warning: TEXT_MESSAGE_START.role "robot" is not one of`},
		{"interrupt without interrupts", []string{started, `{"type":"RUN_FINISHED","threadId":"t1","runId":"r1","outcome":{"type":"interrupt","interrupts":[]}}`}, false, "error: outcome of type interrupt carries no interrupts"},
		{"unknown outcome", []string{started, `{"type":"RUN_FINISHED","threadId":"t1","runId":"r1","outcome":{"type":"paused"}}`}, false, `warning: RUN_FINISHED.outcome type "paused" is unknown`},
		{"outcome not an object", []string{started, `{"type":"RUN_FINISHED","threadId":"t1","runId":"r1","outcome":"done"}`}, false, "error: RUN_FINISHED.outcome must be an object"},
		{"empty response", nil, false, "error: it carried no events at all"},
		{"only unknown events", []string{`{"type":"0"}`, `{"type":"MYSTERY"}`}, false, "error: it carried no RUN_STARTED, RUN_FINISHED or RUN_ERROR"},
		{"empty data", []string{started, ``, finished}, false, "warning: an SSE event without data was ignored"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := &agui.Client{Strict: tc.strict}
			res, err := c.ReadStream(context.Background(), strings.NewReader(stream(tc.events...)), agui.RunAgentInput{ThreadID: "t1", RunID: "r1"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range res.Problems {
				got = append(got, p.Severity.String()+": "+p.Message)
			}
			if tc.want == "" {
				if len(got) > 0 {
					t.Errorf("problems = %q; want none", got)
				}
				return
			}
			sev, sub, _ := strings.Cut(tc.want, ": ")
			for _, p := range res.Problems {
				if p.Severity.String() == sev && strings.Contains(p.Message, sub) {
					return
				}
			}
			t.Errorf("problems = %q; want one containing %q", got, tc.want)
		})
	}
}
