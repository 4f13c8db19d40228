package nanoclaw

import (
	"encoding/json"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/ananke/action/internal/trace"
)

// NanoClaw 2 records what its agent sent: each message is a row of the
// session's outbound.db (messages_out), written by a tool (send_message,
// send_file, ask_user_question, ...) or, for each <message to="name">
// block of the agent's final text, by the agent runner. Bare text is the
// agent's scratchpad and is not sent (container/agent-runner/src/poll-loop.ts).

// sentRef finds the message a NanoClaw tool's result names: "Message sent
// to family (id: 7)" (its seq), "File sent to family (id: msg-..., ...)".
var sentRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\(id: ([^,)\s]+)`) })

// messageBlock is a <message to="name">…</message> block of the agent's
// text, as the agent runner dispatches it.
var messageBlock = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<message\s+to="([^"]+)"\s*>([\s\S]*?)</message>`) })

// outboundV2 adds the session's messages out to the turns of t that wrote
// them: a row a tool call's result names goes to that call; a row with the
// text of a <message> block to the line with the block; any other row (the
// runner's error replies) to the turn running when it was written. Rows
// written before t's first turn are another transcript's.
func (r *reader) outboundV2(t *trace.Trace) error {
	rows, err := r.v2.out.messagesOut()
	if err != nil {
		return wrapStore(r.display(r.v2.dir+"/outbound.db"), err)
	}
	type callRef struct {
		turn int
		call *trace.ToolCall
	}
	calls := map[string]callRef{}
	type blockRef struct {
		turn    int
		seq, ms int64
		body    string
		used    bool
	}
	var blocks []*blockRef
	for i := range t.Turns {
		turn := &t.Turns[i]
		for j := range turn.ToolCalls {
			c := &turn.ToolCalls[j]
			if !strings.HasPrefix(c.Name, "mcp__nanoclaw__") || c.Result == nil || c.Result.Error != "" {
				continue
			}
			for _, m := range sentRef().FindAllStringSubmatch(c.Result.Content, -1) {
				calls[m[1]] = callRef{i, c}
			}
		}
		_ = turn.ReadEvents(func(e *trace.Event) error {
			for _, text := range assistantTexts(e.Raw) {
				for _, m := range messageBlock().FindAllStringSubmatch(text, -1) {
					blocks = append(blocks, &blockRef{turn: i, seq: e.Seq, ms: eventMs(e), body: strings.TrimSpace(m[2])})
				}
			}
			return nil
		})
	}
	for _, row := range rows {
		text, ok := sentText(row)
		if !ok {
			continue
		}
		o := trace.Outbound{To: address(row), Text: text}
		turn := -1
		if ref, ok := calls[strconv.FormatInt(row.Seq, 10)]; ok && row.Seq > 0 {
			turn, o.Seq, o.TimestampMs, o.CallID = ref.turn, ref.call.StartSeq, ref.call.StartedMs, ref.call.ID
		} else if ref, ok := calls[row.ID]; ok {
			turn, o.Seq, o.TimestampMs, o.CallID = ref.turn, ref.call.StartSeq, ref.call.StartedMs, ref.call.ID
		} else if i := slices.IndexFunc(blocks, func(b *blockRef) bool { return !b.used && b.body == text }); i >= 0 {
			b := blocks[i]
			b.used = true
			turn, o.Seq, o.TimestampMs = b.turn, b.seq, b.ms
		} else if at, ok := parseTime(row.Timestamp); ok {
			turn = turnAt(t, at.UnixMilli())
			if turn >= 0 {
				last := int64(0)
				t.Turns[turn].EachEvent(func(seq int64, _ string) { last = seq })
				o.Seq, o.TimestampMs = last, at.UnixMilli()
			}
		}
		if turn < 0 {
			continue
		}
		t.Turns[turn].Outbound = append(t.Turns[turn].Outbound, o)
	}
	for i := range t.Turns {
		out := t.Turns[i].Outbound
		sort.SliceStable(out, func(a, b int) bool { return out[a].Seq < out[b].Seq })
	}
	return nil
}

// sentText is the text of a messages_out row that is a message (a chat
// message, a file, a question or card), and false for the rest: system
// actions (scheduling, ...), edits and reactions.
func sentText(row outRow) (string, bool) {
	if row.Kind != "chat" && row.Kind != "chat-sdk" {
		return "", false
	}
	var c struct {
		Text         string   `json:"text"`
		Operation    string   `json:"operation"`
		Question     string   `json:"question"`
		FallbackText string   `json:"fallbackText"`
		Files        []string `json:"files"`
	}
	if json.Unmarshal([]byte(row.Content), &c) != nil {
		return row.Content, true
	}
	if c.Operation != "" {
		return "", false
	}
	for _, s := range []string{c.Text, c.Question, c.FallbackText, strings.Join(c.Files, ", ")} {
		if s != "" {
			return s, true
		}
	}
	return "", true
}

// address is where a row went: the chat's platform id, or "agent:<id>"
// for a message to another agent group.
func address(row outRow) string {
	if row.ChannelType == "agent" {
		return "agent:" + row.PlatformID
	}
	if row.PlatformID == "" {
		return row.ChannelType
	}
	return row.PlatformID
}

// turnAt is the last turn of t that started at or before ms (by the
// second: NanoClaw 2 writes its times to the second), or -1.
func turnAt(t *trace.Trace, ms int64) int {
	turn := -1
	for i := range t.Turns {
		if t.Turns[i].StartMs/1000*1000 <= ms {
			turn = i
		}
	}
	return turn
}

// assistantTexts are the texts of an assistant transcript line (not a
// subagent's).
func assistantTexts(raw json.RawMessage) []string {
	var l assistantLine
	if json.Unmarshal(raw, &l) != nil || l.Type != "assistant" || l.IsSidechain {
		return nil
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(l.Message.Content, &blocks) != nil {
		return nil
	}
	var out []string
	for _, b := range blocks {
		if b.Type == "text" && b.Text != "" {
			out = append(out, b.Text)
		}
	}
	return out
}

// eventMs is when an event happened: its producer's time, else when it
// was read.
func eventMs(e *trace.Event) int64 {
	if e.Timestamp != 0 {
		return e.Timestamp
	}
	return e.ReceivedMs
}
