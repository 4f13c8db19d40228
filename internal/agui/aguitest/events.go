package aguitest

import "github.com/ananke/action/internal/agui"

// E is one event, written as its JSON object.
type E map[string]any

// Run wraps events in RUN_STARTED / RUN_FINISHED echoing the input's ids.
func Run(in agui.RunAgentInput, events ...E) []any {
	out := []any{E{"type": agui.RunStarted, "threadId": in.ThreadID, "runId": in.RunID}}
	for _, e := range events {
		out = append(out, e)
	}
	return append(out, E{"type": agui.RunFinished, "threadId": in.ThreadID, "runId": in.RunID})
}

// Text is an assistant message streamed in the given deltas.
func Text(id string, deltas ...string) []E {
	out := []E{{"type": agui.TextMessageStart, "messageId": id, "role": "assistant"}}
	for _, d := range deltas {
		out = append(out, E{"type": agui.TextMessageContent, "messageId": id, "delta": d})
	}
	return append(out, E{"type": agui.TextMessageEnd, "messageId": id})
}

// Call is a tool call with its arguments in one delta; a non-empty result
// adds a TOOL_CALL_RESULT (a backend tool), an empty one leaves the call
// pending (a client tool).
func Call(id, name, args, result string) []E {
	out := []E{
		{"type": agui.ToolCallStart, "toolCallId": id, "toolCallName": name, "parentMessageId": "msg-" + id},
		{"type": agui.ToolCallArgs, "toolCallId": id, "delta": args},
		{"type": agui.ToolCallEnd, "toolCallId": id},
	}
	if result != "" {
		out = append(out, E{"type": agui.ToolCallResult, "messageId": "result-" + id, "toolCallId": id, "content": result, "role": "tool"})
	}
	return out
}

// Seq concatenates event groups.
func Seq(groups ...[]E) []E {
	var out []E
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}
