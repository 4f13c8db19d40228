package nanoclaw

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/ananke/action/internal/trace"
)

// assistant is a transcript line of an assistant message with one block.
func assistant(id string, block string, sidechain bool) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`{"isSidechain":%v,"type":"assistant","message":{"id":%q,"role":"assistant","content":[%s]}}`,
		sidechain, id, block))
}

func text(s string) string { return fmt.Sprintf(`{"type":"text","text":%q}`, s) }

const toolUse = `{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"date"}}`

func TestLastText(t *testing.T) {
	prompt := json.RawMessage(`{"type":"user","message":{"role":"user","content":"hi"}}`)
	result := json.RawMessage(`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"ok"}]}}`)
	for _, tc := range []struct {
		name  string
		lines []json.RawMessage
		seq   int64
		text  string
	}{
		{"one text", []json.RawMessage{prompt, assistant("m1", text("Hello"), false)}, 2, "Hello"},
		{"the last message", []json.RawMessage{prompt, assistant("m1", text("Checking."), false), assistant("m1", toolUse, false),
			result, assistant("m2", text("Done."), false)}, 5, "Done."},
		{"a message over several lines", []json.RawMessage{prompt, assistant("m1", text("Part one. "), false),
			assistant("m1", text("Part two."), false)}, 2, "Part one. Part two."},
		{"a tool call after the text", []json.RawMessage{prompt, assistant("m1", text("Retrying."), false), assistant("m1", toolUse, false)}, 0, ""},
		{"a tool call in a later message", []json.RawMessage{prompt, assistant("m1", text("Retrying."), false), assistant("m2", toolUse, false), result}, 0, ""},
		{"no text", []json.RawMessage{prompt, assistant("m1", toolUse, false), result}, 0, ""},
		{"empty text", []json.RawMessage{prompt, assistant("m1", text("Hi"), false), assistant("m2", text(""), false)}, 2, "Hi"},
		{"a subagent's text", []json.RawMessage{prompt, assistant("m1", text("Main."), false), assistant("m9", text("Sub."), true)}, 2, "Main."},
		{"messages without ids", []json.RawMessage{prompt, assistant("", text("A"), false), assistant("", text("B"), false)}, 3, "B"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			turn := &trace.Turn{}
			for i, l := range tc.lines {
				turn.Events = append(turn.Events, trace.Event{Seq: int64(i + 1), ReceivedMs: int64(100 * (i + 1)), Raw: l})
			}
			seq, ms, got := lastText(turn)
			if seq != tc.seq || got != tc.text || ms != 100*tc.seq {
				t.Errorf("lastText = %d, %d, %q; want %d, %d, %q", seq, ms, got, tc.seq, 100*tc.seq, tc.text)
			}
		})
	}
}

func TestOutbound(t *testing.T) {
	r := &reader{Options: Options{Group: "family"}, group: &group{JID: "family@g.us"}}
	call := func(id, args string) trace.ToolCall {
		return trace.ToolCall{ID: id, Name: SendMessageTool, Args: args, ArgsJSON: json.Valid([]byte(args)), StartSeq: 2, StartedMs: 200}
	}
	for _, tc := range []struct {
		name  string
		calls []trace.ToolCall
		final string
		want  string // seq to call text, one message a line
	}{
		{"result", nil, "Hi", "3 family@g.us  Hi"},
		{"internal only", nil, "<internal>done</internal>", ""},
		{"internal stripped", nil, "<internal>x</internal>\n\nHi", "3 family@g.us  Hi"},
		{"send_message and an internal result", []trace.ToolCall{call("toolu_1", `{"text":"Morning!"}`)}, "<internal>sent</internal>",
			"2 family@g.us toolu_1 Morning!"},
		{"send_message and a result", []trace.ToolCall{call("toolu_1", `{"text":"Morning!","sender":"Digest"}`)}, "Sent.",
			"2 family@g.us toolu_1 Morning!\n3 family@g.us  Sent."},
		{"send_message with bad args", []trace.ToolCall{call("toolu_1", `{"text":`)}, "", "2 family@g.us toolu_1 "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			turn := trace.Turn{ToolCalls: tc.calls, Events: []trace.Event{
				{Seq: 1, Raw: json.RawMessage(`{"type":"user","message":{"content":"hi"}}`)},
				{Seq: 2, Raw: assistant("m1", toolUse, false)},
				{Seq: 3, ReceivedMs: 300, Raw: assistant("m2", text(tc.final), false)},
			}}
			tr := &trace.Trace{Turns: []trace.Turn{turn}}
			r.outbound(tr)
			var lines []string
			for _, o := range tr.Turns[0].Outbound {
				lines = append(lines, fmt.Sprintf("%d %s %s %s", o.Seq, o.To, o.CallID, o.Text))
			}
			if got := strings.Join(lines, "\n"); got != tc.want {
				t.Errorf("outbound:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}
