package openai

import (
	"encoding/json"
	"strconv"

	"github.com/ananke/action/internal/oaiwire"
	"github.com/ananke/action/internal/target"
)

// Chat Completions: each request sends the conversation whole, as
// messages; the answer is a chat completion, or a stream of its chunks
// ending with [DONE].

// chatMessage is one message of the conversation as sent.
type chatMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCalls  []chatToolCall  `json:"tool_calls,omitempty"`
	ToolCallID string          `json:"tool_call_id,omitempty"`
}

type chatToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function chatFunction `json:"function"`
}

type chatFunction struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// chatTool is a function tool as Chat Completions declares one.
type chatTool struct {
	Type     string `json:"type"`
	Function struct {
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		Parameters  json.RawMessage `json:"parameters"`
	} `json:"function"`
}

// chat is the conversation of a Chat Completions session.
type chat struct {
	o        *Options
	messages []chatMessage
}

func newChat(o *Options) *chat {
	c := &chat{o: o}
	if o.Instructions != "" {
		c.messages = append(c.messages, chatMessage{Role: "system", Content: jsonString(o.Instructions)})
	}
	for _, m := range o.History {
		content := jsonString(m.Text)
		if m.Parts != nil && m.Role == "user" {
			content = chatParts(m.Parts)
		} else if m.Parts != nil {
			content = jsonString(partsText(m.Parts, m.Text))
		}
		c.messages = append(c.messages, chatMessage{Role: m.Role, Content: content})
	}
	return c
}

func (c *chat) path() string { return "chat/completions" }

func (c *chat) user(text string, parts []target.Part) {
	content := jsonString(text)
	if parts != nil {
		content = chatParts(parts)
	}
	c.messages = append(c.messages, chatMessage{Role: "user", Content: content})
}

func (c *chat) request() map[string]any {
	req := map[string]any{"model": c.o.Model, "messages": c.messages}
	if c.o.Stream {
		req["stream"] = true
		req["stream_options"] = map[string]any{"include_usage": true}
	}
	if len(c.o.Tools) > 0 {
		tools := make([]chatTool, len(c.o.Tools))
		for i, t := range c.o.Tools {
			tools[i].Type = "function"
			tools[i].Function.Name, tools[i].Function.Description, tools[i].Function.Parameters = t.Name, t.Description, t.Parameters
		}
		req["tools"] = tools
	}
	return req
}

// answered adds the assistant's answer to the conversation.
func (c *chat) answered(r *reply) {
	m := chatMessage{Role: "assistant", Content: jsonString(r.text.String())}
	for _, call := range r.calls {
		m.ToolCalls = append(m.ToolCalls, chatToolCall{ID: call.id, Type: "function", Function: chatFunction{Name: call.name, Arguments: call.arguments()}})
	}
	if len(m.ToolCalls) > 0 && r.text.Len() == 0 {
		m.Content = json.RawMessage("null")
	}
	c.messages = append(c.messages, m)
}

// result adds the answer to call id.
func (c *chat) result(id, content string) {
	c.messages = append(c.messages, chatMessage{Role: "tool", ToolCallID: id, Content: jsonString(content)})
}

// chatChunk is what is read of a chat completion, or of one chunk of a
// streamed one.
type chatChunk struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Model   string `json:"model"`
	Choices []struct {
		Index        int        `json:"index"`
		Delta        *chatDelta `json:"delta"`
		Message      *chatDelta `json:"message"`
		FinishReason *string    `json:"finish_reason"`
	} `json:"choices"`
	Usage *oaiwire.Usage  `json:"usage"`
	Error json.RawMessage `json:"error"`
}

// chatDelta is a message, or the part of one a chunk carries.
type chatDelta struct {
	Content   json.RawMessage `json:"content"`
	Refusal   *string         `json:"refusal"`
	ToolCalls []struct {
		Index    *int   `json:"index"`
		ID       string `json:"id"`
		Function struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

// chatReader reads Chat Completions answers.
type chatReader struct{}

func (chatReader) unended() string { return "[DONE]" }

func (chatReader) event(r *reply, data []byte) {
	var ch chatChunk
	_ = json.Unmarshal(data, &ch) // valid JSON; a shape it is not reads as nothing
	typ := ch.Object
	if hasError(ch.Error) {
		typ = "error"
	} else if typ == "" {
		typ = "chat.completion.chunk"
	}
	seq := r.event(typ, data)
	readChat(r, &ch, seq, true)
}

func (chatReader) body(r *reply, data []byte) {
	var ch chatChunk
	_ = json.Unmarshal(data, &ch)
	typ := ch.Object
	if typ == "" {
		typ = "chat.completion"
	}
	seq := r.event(typ, data)
	readChat(r, &ch, seq, false)
}

// readChat reads a completion or one chunk of it, from event seq: the
// first choice only.
func readChat(r *reply, ch *chatChunk, seq int64, streamed bool) {
	if hasError(ch.Error) {
		r.runError(errorMessage(ch.Error), objectCode(ch.Error), seq)
		return
	}
	if r.id == "" {
		r.id = ch.ID
	}
	if r.model == "" {
		r.model = ch.Model
	}
	if ch.Usage != nil {
		r.usage = ch.Usage.Usage(r.model)
	}
	for _, choice := range ch.Choices {
		if choice.Index != 0 {
			continue
		}
		m := choice.Message
		if streamed || m == nil {
			m = choice.Delta
		}
		if m != nil {
			readChatMessage(r, m, seq)
		}
		if fr := choice.FinishReason; fr != nil && *fr != "" {
			for _, c := range r.calls {
				r.endCall(c, nil, seq)
			}
			r.finishReason(*fr, seq)
		}
	}
}

// readChatMessage reads a message, or a delta of one.
func readChatMessage(r *reply, m *chatDelta, seq int64) {
	r.addText("0", contentText(m.Content), seq)
	if m.Refusal != nil {
		r.addRefusal("0", *m.Refusal, seq)
	}
	for i, tc := range m.ToolCalls {
		key := i
		if tc.Index != nil {
			key = *tc.Index
		}
		c := r.startCall(strconv.Itoa(key), tc.ID, tc.Function.Name, seq)
		c.args.WriteString(argumentsText(tc.Function.Arguments))
	}
}
