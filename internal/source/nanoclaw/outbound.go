package nanoclaw

import (
	"encoding/json"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/ananke/action/internal/trace"
)

// SendMessageTool is NanoClaw's MCP tool that sends a message to the chat
// while the agent runs (container/agent-runner/src/ipc-mcp-stdio.ts).
const SendMessageTool = "mcp__nanoclaw__send_message"

// internalTags is what NanoClaw strips from the agent's output before it
// sends it (src/router.ts, stripInternalTags).
var internalTags = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?s)<internal>.*?</internal>`) })

// StripInternal is the text NanoClaw sends for an agent output: without its
// <internal> blocks, trimmed.
func StripInternal(text string) string {
	return strings.TrimSpace(internalTags().ReplaceAllString(text, ""))
}

// outbound adds the messages the run sent to the chat: each send_message
// call, and each turn's result — its last assistant text, which NanoClaw
// forwards unless nothing is left once <internal> blocks are stripped.
func (r *reader) outbound(t *trace.Trace) {
	to := r.chatJID()
	for i := range t.Turns {
		turn := &t.Turns[i]
		for j := range turn.ToolCalls {
			c := &turn.ToolCalls[j]
			if c.Name != SendMessageTool {
				continue
			}
			var a struct {
				Text string `json:"text"`
			}
			if c.ArgsJSON {
				_ = json.Unmarshal([]byte(c.Args), &a)
			}
			turn.Outbound = append(turn.Outbound, trace.Outbound{
				Seq: c.StartSeq, TimestampMs: c.StartedMs, To: to, Text: a.Text, CallID: c.ID,
			})
		}
		if seq, ms, text := lastText(turn); text != "" {
			if text = StripInternal(text); text != "" {
				turn.Outbound = append(turn.Outbound, trace.Outbound{Seq: seq, TimestampMs: ms, To: to, Text: text})
			}
		}
		sort.SliceStable(turn.Outbound, func(a, b int) bool { return turn.Outbound[a].Seq < turn.Outbound[b].Seq })
	}
}

// assistantLine is what lastText reads of a transcript line.
type assistantLine struct {
	Type        string `json:"type"`
	IsSidechain bool   `json:"isSidechain"`
	Message     struct {
		ID      string          `json:"id"`
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

// lastText is the turn's result as NanoClaw forwards it: the text of the
// agent's final message, when that message has text and no tool call came
// after it (a run killed while a tool ran has no result). It returns the seq
// and time of the line where the text started, and the text (Claude Code
// writes a message one content block a line, under the message's id).
func lastText(turn *trace.Turn) (seq, ms int64, text string) {
	type msg struct {
		id      string
		seq, ms int64
		texts   []string
	}
	var last *msg
	_ = turn.ReadEvents(func(e *trace.Event) error {
		var l assistantLine
		if json.Unmarshal(e.Raw, &l) != nil || l.Type != "assistant" || l.IsSidechain {
			return nil
		}
		var blocks []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		if json.Unmarshal(l.Message.Content, &blocks) != nil {
			return nil
		}
		for _, b := range blocks {
			if b.Type == "tool_use" {
				last = nil // the agent went on: that text was not its result
				continue
			}
			if b.Type != "text" || b.Text == "" {
				continue
			}
			if last == nil || last.id != l.Message.ID || l.Message.ID == "" {
				at := e.Timestamp
				if at == 0 {
					at = e.ReceivedMs
				}
				last = &msg{id: l.Message.ID, seq: e.Seq, ms: at}
			}
			last.texts = append(last.texts, b.Text)
		}
		return nil
	})
	if last == nil {
		return 0, 0, ""
	}
	return last.seq, last.ms, strings.Join(last.texts, "")
}
