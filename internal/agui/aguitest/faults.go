package aguitest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ananke/action/internal/agui"
)

// Faults names every misbehaviour the fault server can act out. A request
// whose last user message is "fault: <name>" gets that fault; any other
// gets a correct run answering "ok".
var Faults = []string{
	"http-401", "http-404", "http-500", "html", "empty",
	"invalid-json", "not-object", "missing-type", "malformed-field", "unknown-event", "out-of-order",
	"stop-mid-event", "no-finish", "reset", "stall", "drip", "huge-event", "many-events",
	"run-error", "after-finish", "parallel-args", "invalid-args",
	"interrupt-empty", "interrupt-duplicate", "interrupt-no-id", "interrupt-amnesia",
}

// HugeEventSize is the size of the huge-event fault's one event.
const HugeEventSize = 50 << 20

// ManyEvents is how many events the many-events fault sends in one run.
const ManyEvents = 100_000

// NewFaults starts a server acting out the fault each request names.
func NewFaults(t testing.TB) *Server {
	return New(t, func(r *Request) Response { return Fault(lastUser(r.Input), r.Input) })
}

func lastUser(in agui.RunAgentInput) string {
	for i := len(in.Messages) - 1; i >= 0; i-- {
		if m := in.Messages[i]; m.Role == agui.RoleUser {
			s, _ := m.TextContent()
			return strings.TrimSpace(strings.TrimPrefix(s, "fault:"))
		}
	}
	return ""
}

// frames renders events (JSON text) as an LF-framed SSE body.
func frames(events ...string) string {
	var b strings.Builder
	for _, e := range events {
		b.WriteString("data: " + e + "\n\n")
	}
	return b.String()
}

// Fault returns the response acting out the named fault for in.
func Fault(name string, in agui.RunAgentInput) Response {
	started := fmt.Sprintf(`{"type":"RUN_STARTED","threadId":%q,"runId":%q}`, in.ThreadID, in.RunID)
	finished := fmt.Sprintf(`{"type":"RUN_FINISHED","threadId":%q,"runId":%q}`, in.ThreadID, in.RunID)
	text := func(s string) []string {
		return []string{`{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}`,
			fmt.Sprintf(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":%q}`, s), `{"type":"TEXT_MESSAGE_END","messageId":"m1"}`}
	}
	run := func(events ...string) string {
		return frames(append(append([]string{started}, events...), finished)...)
	}
	switch name {
	case "http-401":
		return Response{Status: 401, ContentType: "application/json", Raw: `{"error":"bad token"}`}
	case "http-404":
		return Response{Status: 404, ContentType: "text/plain", Raw: "no agent at this path"}
	case "http-500":
		return Response{Status: 500, ContentType: "text/plain", Raw: "Traceback (most recent call last): boom"}
	case "html":
		return Response{ContentType: "text/html; charset=utf-8", Raw: "<html><body>Please sign in</body></html>"}
	case "empty":
		return Response{}
	case "invalid-json":
		return Response{Raw: run(`{"type":"TEXT_MESSAGE_START","messageId":`)}
	case "not-object":
		return Response{Raw: run(`["TEXT_MESSAGE_START"]`)}
	case "missing-type":
		return Response{Raw: run(`{"messageId":"m1","delta":"no type"}`)}
	case "malformed-field":
		return Response{Raw: run(`{"type":"TEXT_MESSAGE_START","messageId":"m1"}`, `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":42}`, `{"type":"TEXT_MESSAGE_END","messageId":"m1"}`)}
	case "unknown-event":
		return Response{Raw: run(append([]string{`{"type":"VENDOR_TELEMETRY","tokens":12}`}, text("ok")...)...)}
	case "out-of-order":
		return Response{Raw: run(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"early"}`, `{"type":"TEXT_MESSAGE_START","messageId":"m1"}`, `{"type":"TEXT_MESSAGE_END","messageId":"m1"}`)}
	case "stop-mid-event":
		return Response{Raw: frames(started) + `data: {"type":"TEXT_MESSAGE_START","mess`}
	case "no-finish":
		return Response{Raw: frames(append([]string{started}, text("cut off")...)...)}
	case "reset":
		return Response{Raw: frames(started), Reset: true}
	case "stall":
		return Response{Hang: true}
	case "drip":
		return Response{Raw: run(text("slowly")...), Drip: time.Second}
	case "huge-event":
		return Response{Raw: frames(started, fmt.Sprintf(`{"type":"CUSTOM","name":"blob","value":%q}`, strings.Repeat("x", HugeEventSize)), finished)}
	case "many-events":
		var b strings.Builder
		b.WriteString(frames(started, `{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}`))
		for range ManyEvents - 4 {
			b.WriteString("data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"x\"}\n\n")
		}
		b.WriteString(frames(`{"type":"TEXT_MESSAGE_END","messageId":"m1"}`, finished))
		return Response{Raw: b.String()}
	case "run-error":
		return Response{Raw: frames(append(append([]string{started}, text("trying")...), `{"type":"RUN_ERROR","message":"model overloaded","code":"overloaded"}`)...)}
	case "after-finish":
		return Response{Raw: frames(append([]string{started, finished}, text("after the end")...)...)}
	case "parallel-args":
		return Response{Raw: run(
			`{"type":"TOOL_CALL_START","toolCallId":"a","toolCallName":"get_price","parentMessageId":"p"}`,
			`{"type":"TOOL_CALL_START","toolCallId":"b","toolCallName":"get_price","parentMessageId":"p"}`,
			`{"type":"TOOL_CALL_ARGS","toolCallId":"b","delta":"{\"sku\":"}`,
			`{"type":"TOOL_CALL_ARGS","toolCallId":"a","delta":"{\"sku\":"}`,
			`{"type":"TOOL_CALL_ARGS","toolCallId":"a","delta":"\"A-1\"}"}`,
			`{"type":"TOOL_CALL_ARGS","toolCallId":"b","delta":"\"B-2\"}"}`,
			`{"type":"TOOL_CALL_END","toolCallId":"b"}`, `{"type":"TOOL_CALL_END","toolCallId":"a"}`,
			`{"type":"TOOL_CALL_RESULT","messageId":"ra","toolCallId":"a","content":"{\"price\":1}"}`,
			`{"type":"TOOL_CALL_RESULT","messageId":"rb","toolCallId":"b","content":"{\"price\":2}"}`)}
	case "interrupt-empty":
		return Response{Raw: frames(started, interrupted(in, ``))}
	case "interrupt-duplicate":
		return Response{Raw: frames(started, interrupted(in, `{"id":"i-1","reason":"tool_approval"},{"id":"i-1","reason":"confirm"}`))}
	case "interrupt-no-id":
		return Response{Raw: frames(started, interrupted(in, `{"reason":"tool_approval","message":"Charge 42 EUR?"}`))}
	case "interrupt-amnesia":
		// A valid interrupt, then an agent that lost it: the resume names
		// an interrupt it does not know.
		if len(in.Resume) == 0 {
			return Response{Raw: frames(started, interrupted(in, `{"id":"i-1","reason":"tool_approval","message":"Charge 42 EUR?"}`))}
		}
		return Response{Raw: frames(started, fmt.Sprintf(`{"type":"RUN_ERROR","message":"no pending interrupt '%s' on this thread","code":"unknown_interrupt"}`, in.Resume[0].InterruptID))}
	case "invalid-args":
		return Response{Raw: run(`{"type":"TOOL_CALL_START","toolCallId":"a","toolCallName":"search"}`,
			`{"type":"TOOL_CALL_ARGS","toolCallId":"a","delta":"{\"q\": \"shoes"}`, `{"type":"TOOL_CALL_END","toolCallId":"a"}`,
			`{"type":"TOOL_CALL_RESULT","messageId":"ra","toolCallId":"a","content":"[]"}`)}
	}
	return Response{Raw: run(text("ok")...)}
}

// interrupted is a RUN_FINISHED of in ending with an interrupt outcome
// holding interrupts (JSON objects, comma-separated).
func interrupted(in agui.RunAgentInput, interrupts string) string {
	return fmt.Sprintf(`{"type":"RUN_FINISHED","threadId":%q,"runId":%q,"outcome":{"type":"interrupt","interrupts":[%s]}}`, in.ThreadID, in.RunID, interrupts)
}
