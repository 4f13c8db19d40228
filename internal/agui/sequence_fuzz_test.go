package agui_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/ananke/action/internal/agui"
)

// seqTypes are the event shapes FuzzEventSequence composes; raw bytes
// rarely reach the verifier's and the chunk expander's deeper states.
var seqTypes = []func(id string) string{
	func(string) string { return `{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}` },
	func(string) string { return `{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}` },
	func(string) string { return `{"type":"RUN_ERROR","message":"x"}` },
	func(id string) string { return `{"type":"TEXT_MESSAGE_START","messageId":"` + id + `"}` },
	func(id string) string { return `{"type":"TEXT_MESSAGE_CONTENT","messageId":"` + id + `","delta":"d"}` },
	func(id string) string { return `{"type":"TEXT_MESSAGE_END","messageId":"` + id + `"}` },
	func(id string) string { return `{"type":"TEXT_MESSAGE_CHUNK","messageId":"` + id + `","delta":"c"}` },
	func(string) string { return `{"type":"TEXT_MESSAGE_CHUNK","delta":"c"}` },
	func(id string) string {
		return `{"type":"TOOL_CALL_START","toolCallId":"` + id + `","toolCallName":"f","parentMessageId":"p"}`
	},
	func(id string) string { return `{"type":"TOOL_CALL_ARGS","toolCallId":"` + id + `","delta":"{}"}` },
	func(id string) string { return `{"type":"TOOL_CALL_END","toolCallId":"` + id + `"}` },
	func(id string) string {
		return `{"type":"TOOL_CALL_RESULT","messageId":"r` + id + `","toolCallId":"` + id + `","content":"ok"}`
	},
	func(id string) string {
		return `{"type":"TOOL_CALL_CHUNK","toolCallId":"` + id + `","toolCallName":"f","delta":"{"}`
	},
	func(string) string { return `{"type":"TOOL_CALL_CHUNK","delta":"}"}` },
	func(id string) string {
		return `{"type":"REASONING_MESSAGE_CHUNK","messageId":"` + id + `","delta":"r"}`
	},
	func(id string) string { return `{"type":"REASONING_START","messageId":"` + id + `"}` },
	func(id string) string { return `{"type":"REASONING_END","messageId":"` + id + `"}` },
	func(id string) string { return `{"type":"STEP_STARTED","stepName":"` + id + `"}` },
	func(id string) string { return `{"type":"STEP_FINISHED","stepName":"` + id + `"}` },
	func(string) string { return `{"type":"STATE_DELTA","delta":[{"op":"add","path":"/a","value":1}]}` },
	func(string) string { return `{"type":"CUSTOM","name":"n","value":null}` },
	func(string) string { return `{"type":"THINKING_TEXT_MESSAGE_CONTENT","delta":"t"}` },
	func(id string) string { return `{"type":"SUBAGENT_STARTED","subagentRunId":"` + id + `","name":"s"}` },
	func(id string) string { return `{"type":"SUBAGENT_FINISHED","subagentRunId":"` + id + `"}` },
}

// FuzzEventSequence composes streams from known event shapes (two bytes per
// event: shape and id) and checks the client's invariants: no panic, the
// same problems on every replay, and no success without a terminal event.
func FuzzEventSequence(f *testing.F) {
	f.Add([]byte{0, 0, 3, 0, 4, 0, 5, 0, 1, 0})
	f.Add([]byte{0, 0, 6, 1, 7, 0, 12, 2, 13, 0, 20, 0, 1, 0})
	f.Add([]byte{0, 0, 8, 0, 8, 1, 9, 1, 9, 0, 10, 0, 10, 1, 11, 1, 2, 0, 0, 0})
	f.Fuzz(func(t *testing.T, ops []byte) {
		var events []string
		terminal := false
		for i := 0; i+1 < len(ops) && len(events) < 200; i += 2 {
			k := int(ops[i]) % len(seqTypes)
			terminal = terminal || k == 1 || k == 2
			events = append(events, seqTypes[k](fmt.Sprintf("i%d", ops[i+1]%3)))
		}
		replay := func() *agui.Result {
			res, err := (&agui.Client{}).ReadStream(context.Background(), strings.NewReader(stream(events...)), agui.RunAgentInput{ThreadID: "t1", RunID: "r1"}, nil)
			if err != nil {
				t.Fatalf("transport error on an in-memory stream: %v", err)
			}
			return res
		}
		a, b := replay(), replay()
		if !reflect.DeepEqual(a.Problems, b.Problems) || len(a.Messages) != len(b.Messages) {
			t.Fatal("two replays of one stream disagree")
		}
		if !terminal && !a.Failed() {
			t.Fatalf("a stream without RUN_FINISHED or RUN_ERROR passed: %v", events)
		}
	})
}
