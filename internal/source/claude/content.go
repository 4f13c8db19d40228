package claude

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/ananke/action/internal/trace"
)

// entry is what a user or assistant line is read for.
type entry struct {
	IsSidechain       bool            `json:"isSidechain"`
	IsMeta            bool            `json:"isMeta"`
	IsCompactSummary  bool            `json:"isCompactSummary"`
	IsAPIErrorMessage bool            `json:"isApiErrorMessage"`
	Error             json.RawMessage `json:"error"`
	Message           json.RawMessage `json:"message"`
	// Origin says who wrote a user line ({"kind": "task-notification"}
	// for a background task's notice); ToolUseResult is what a tool call
	// returned, with the agentId of a subagent it ran. Both are read
	// leniently: another shape is ignored.
	Origin        json.RawMessage `json:"origin"`
	ToolUseResult json.RawMessage `json:"toolUseResult"`
}

// originKind is a user line's origin kind, "" when it has none.
func (e *entry) originKind() string {
	var o struct {
		Kind string `json:"kind"`
	}
	_ = json.Unmarshal(e.Origin, &o)
	return o.Kind
}

// spawned is the subagent a tool result line says its call ran, "" when
// none.
func (e *entry) spawned() string {
	var r struct {
		AgentID string `json:"agentId"`
	}
	_ = json.Unmarshal(e.ToolUseResult, &r)
	return r.AgentID
}

// message is an API message: a user's (content may be a string) or an
// assistant's.
type message struct {
	ID      string          `json:"id"`
	Model   json.RawMessage `json:"model"`
	Content json.RawMessage `json:"content"`
	Usage   json.RawMessage `json:"usage"`
}

// synthetic reports whether Claude Code wrote the message itself rather
// than the model (e.g. "No response requested." after /exit).
func (m *message) synthetic() bool { return string(m.Model) == `"<synthetic>"` }

// block is a content block of a known type; the others are skipped.
type block struct {
	Type string
	Text string // text; a thinking block's thinking
	// tool_use
	ID    string
	Name  string
	Input json.RawMessage
	// tool_result
	ToolUseID string
	Content   json.RawMessage
	IsError   bool
}

type textBlock struct {
	Text string `json:"text"`
}

type thinkingBlock struct {
	Thinking string `json:"thinking"`
}

type toolUseBlock struct {
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

type toolResultBlock struct {
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

var errContent = errors.New("content is neither a string nor a list")

// blocks reads a message's content: a string is one text block; blocks of
// other types than text, thinking, image, tool_use and tool_result are
// skipped.
func blocks(content json.RawMessage) ([]block, error) {
	if isNull(content) {
		return nil, nil
	}
	var s string
	if json.Unmarshal(content, &s) == nil {
		return []block{{Type: "text", Text: s}}, nil
	}
	var raws []json.RawMessage
	if json.Unmarshal(content, &raws) != nil {
		return nil, errContent
	}
	out := make([]block, 0, len(raws))
	for _, raw := range raws {
		b := block{Type: blockType(raw)}
		var err error
		switch b.Type {
		case "text":
			var t textBlock
			err = json.Unmarshal(raw, &t)
			b.Text = t.Text
		case "thinking":
			var t thinkingBlock
			err = json.Unmarshal(raw, &t)
			b.Text = t.Thinking
		case "tool_use":
			var t toolUseBlock
			err = json.Unmarshal(raw, &t)
			b.ID, b.Name, b.Input = t.ID, t.Name, t.Input
		case "tool_result":
			var t toolResultBlock
			err = json.Unmarshal(raw, &t)
			b.ToolUseID, b.Content, b.IsError = t.ToolUseID, t.Content, t.IsError
		case "image":
		default:
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("%s block: %w", b.Type, err)
		}
		out = append(out, b)
	}
	return out, nil
}

// blockType is a block's type ("" when it has none or is not an object).
func blockType(raw json.RawMessage) string {
	var b struct {
		Type json.RawMessage `json:"type"`
	}
	var s string
	if json.Unmarshal(raw, &b) == nil && json.Unmarshal(b.Type, &s) == nil {
		return s
	}
	return ""
}

// texts joins the text of the blocks' text blocks with sep; ok is false
// when there are none.
func texts(bs []block, sep string) (text string, ok bool) {
	var parts []string
	for i := range bs {
		if bs[i].Type == "text" {
			parts = append(parts, bs[i].Text)
		}
	}
	return strings.Join(parts, sep), parts != nil
}

// resultOf is a tool_result block's result.
func resultOf(b *block) *trace.Result {
	content := resultContent(b.Content)
	r := &trace.Result{Content: content, JSON: json.Valid([]byte(content))}
	if b.IsError {
		r.Error = content
		if r.Error == "" {
			r.Error = "tool error"
		}
	}
	return r
}

// resultContent is a tool result's content as text: a string as is, the
// texts of a list of text blocks joined by "\n", else the compact JSON text.
func resultContent(raw json.RawMessage) string {
	if isNull(raw) {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []json.RawMessage
	if json.Unmarshal(raw, &parts) == nil {
		if text, ok := allText(parts); ok {
			return text
		}
	}
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return string(raw)
	}
	return buf.String()
}

// allText joins the texts of parts by "\n" when every part is a text block.
func allText(parts []json.RawMessage) (string, bool) {
	texts := make([]string, 0, len(parts))
	for _, p := range parts {
		var t struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		if json.Unmarshal(p, &t) != nil || t.Type != "text" {
			return "", false
		}
		texts = append(texts, t.Text)
	}
	return strings.Join(texts, "\n"), true
}

// compactArgs is a tool_use input as compact JSON ("{}" when it has none).
func compactArgs(input json.RawMessage) string {
	if len(input) == 0 {
		return "{}"
	}
	var buf bytes.Buffer
	if json.Compact(&buf, input) != nil {
		return string(input)
	}
	return buf.String()
}
