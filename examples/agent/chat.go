package main

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// chatRequest is the body of POST /v1/chat/completions: the whole
// conversation is sent every time, so the agent keeps nothing between
// requests. Fields it does not read (temperature, tool_choice, ...) are
// ignored.
type chatRequest struct {
	Model         string        `json:"model"`
	Messages      []chatMessage `json:"messages"`
	Tools         []chatTool    `json:"tools"`
	Stream        bool          `json:"stream"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
}

// chatMessage is one message of the conversation, sent or answered.
// Content is a string, an array of parts, or null (an assistant message
// with tool calls only).
type chatMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	Refusal    *string         `json:"refusal,omitempty"`
	ToolCalls  []chatToolCall  `json:"tool_calls,omitempty"`
	ToolCallID string          `json:"tool_call_id,omitempty"`
}

// chatToolCall is a call in an assistant message; its arguments are JSON
// text.
type chatToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function FunctionCall `json:"function"`
}

// chatTool is a function tool the caller offers; the caller runs it.
type chatTool struct {
	Type     string `json:"type"`
	Function Tool   `json:"function"`
}

// chatUsage is what a completion used.
type chatUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

func newChatUsage(in, out int) *chatUsage {
	return &chatUsage{PromptTokens: in, CompletionTokens: out, TotalTokens: in + out}
}

// chatCompletion is the answer when not streaming.
type chatCompletion struct {
	ID      string       `json:"id"`
	Object  string       `json:"object"`
	Created int64        `json:"created"`
	Model   string       `json:"model"`
	Choices []chatChoice `json:"choices"`
	Usage   *chatUsage   `json:"usage"`
}

type chatChoice struct {
	Index        int         `json:"index"`
	Message      chatMessage `json:"message"`
	Logprobs     any         `json:"logprobs"`
	FinishReason string      `json:"finish_reason"`
}

// chatChunk is one event of a streamed answer: a delta of the message,
// the finish reason in the last, and the usage in a chunk of its own with
// no choices when stream_options.include_usage asks for it.
type chatChunk struct {
	ID      string        `json:"id"`
	Object  string        `json:"object"`
	Created int64         `json:"created"`
	Model   string        `json:"model"`
	Choices []chunkChoice `json:"choices"`
	Usage   *chatUsage    `json:"usage,omitempty"`
}

type chunkChoice struct {
	Index        int        `json:"index"`
	Delta        chunkDelta `json:"delta"`
	FinishReason *string    `json:"finish_reason"`
}

type chunkDelta struct {
	Role      string      `json:"role,omitempty"`
	Content   *string     `json:"content,omitempty"`
	Refusal   *string     `json:"refusal,omitempty"`
	ToolCalls []deltaCall `json:"tool_calls,omitempty"`
}

// deltaCall is a piece of a streamed tool call: the first piece has the
// id, type and name, every piece a part of the arguments; Index says
// which call of the message it belongs to.
type deltaCall struct {
	Index    int       `json:"index"`
	ID       string    `json:"id,omitempty"`
	Type     string    `json:"type,omitempty"`
	Function deltaFunc `json:"function"`
}

type deltaFunc struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

// serveChat answers POST /v1/chat/completions.
func (a *api) serveChat(w http.ResponseWriter, r *http.Request) {
	var req chatRequest
	if err := decodeBody(w, r, &req); err != nil {
		writeAPIError(w, http.StatusBadRequest, err.Error(), "", "")
		return
	}
	conv, param, err := chatConversation(req)
	if err != nil {
		writeAPIError(w, http.StatusBadRequest, err.Error(), param, "")
		return
	}
	var tools []string
	for _, t := range req.Tools {
		tools = append(tools, t.Function.Name)
	}
	ans := reply(conv, tools)
	for i := range ans.Calls {
		ans.Calls[i].ID = a.newID("call_")
	}
	in, out := countUsage(conv, ans)
	c := chatCompletion{ID: a.newID("chatcmpl-"), Object: "chat.completion", Created: a.now().Unix(), Model: req.Model, Usage: newChatUsage(in, out)}
	if req.Stream {
		startStream(w)
		a.streamChat(newEventWriter(r.Context(), w, a.delay), c, ans, req.StreamOptions != nil && req.StreamOptions.IncludeUsage)
		return
	}
	if ans.Crash != "" {
		writeAPIError(w, http.StatusInternalServerError, ans.Crash, "", "demo_crash")
		return
	}
	c.Choices = []chatChoice{{Message: chatAnswer(ans), FinishReason: finishReason(ans)}}
	writeJSON(w, http.StatusOK, c)
}

// chatConversation reads the request's messages, checking what the API
// checks; param names the field at fault.
func chatConversation(req chatRequest) (conv []turn, param string, err error) {
	if req.Model == "" {
		return nil, "model", fmt.Errorf("you must provide a model parameter")
	}
	if len(req.Messages) == 0 {
		return nil, "messages", fmt.Errorf("messages must not be empty")
	}
	for i, m := range req.Messages {
		text, err := contentText(m.Content)
		if err != nil {
			return nil, fmt.Sprintf("messages[%d].content", i), err
		}
		t := turn{Role: m.Role, Text: text, CallID: m.ToolCallID}
		switch m.Role {
		case "developer":
			t.Role = "system"
		case "system", "user", "tool":
		case "assistant":
			for _, c := range m.ToolCalls {
				t.Calls = append(t.Calls, toolCall{ID: c.ID, Name: c.Function.Name, Args: c.Function.Arguments})
			}
		default:
			return nil, fmt.Sprintf("messages[%d].role", i), fmt.Errorf("unknown role %q", m.Role)
		}
		conv = append(conv, t)
	}
	if problem := callProblem(conv); problem != "" {
		return nil, "messages", fmt.Errorf("%s", problem)
	}
	return conv, "", nil
}

// chatAnswer is the answer as the assistant message of a completion.
func chatAnswer(ans answer) chatMessage {
	m := chatMessage{Role: "assistant", Content: json.RawMessage("null")}
	switch {
	case ans.Refusal != "":
		m.Refusal = &ans.Refusal
	case len(ans.Calls) > 0:
		for _, c := range ans.Calls {
			m.ToolCalls = append(m.ToolCalls, chatToolCall{ID: c.ID, Type: "function", Function: FunctionCall{Name: c.Name, Arguments: c.Args}})
		}
	default:
		m.Content, _ = json.Marshal(ans.Text)
	}
	return m
}

func finishReason(ans answer) string {
	if len(ans.Calls) > 0 {
		return "tool_calls"
	}
	return "stop"
}

// streamChat streams the answer as OpenAI does: a first chunk with the
// role, the text (or refusal) in a few deltas, each tool call as a first
// piece with its id and name then its arguments in pieces, a last chunk
// with the finish reason, the usage chunk when asked, and "[DONE]". A
// crash sends its words, then an error object, and ends without "[DONE]".
func (a *api) streamChat(ew *eventWriter, c chatCompletion, ans answer, includeUsage bool) {
	k := chatChunk{ID: c.ID, Object: "chat.completion.chunk", Created: c.Created, Model: c.Model}
	chunk := func(d chunkDelta, finish *string) {
		k.Choices = []chunkChoice{{Delta: d, FinishReason: finish}}
		ew.send(k.Object, k)
	}
	empty := ""
	switch {
	case ans.Refusal != "":
		chunk(chunkDelta{Role: "assistant", Refusal: &empty}, nil)
		for _, piece := range splitWords(ans.Refusal, 3) {
			chunk(chunkDelta{Refusal: &piece}, nil)
		}
	case len(ans.Calls) > 0:
		chunk(chunkDelta{Role: "assistant"}, nil)
		for i, call := range ans.Calls {
			chunk(chunkDelta{ToolCalls: []deltaCall{{Index: i, ID: call.ID, Type: "function", Function: deltaFunc{Name: call.Name}}}}, nil)
			for _, piece := range splitRunes(call.Args, 3) {
				chunk(chunkDelta{ToolCalls: []deltaCall{{Index: i, Function: deltaFunc{Arguments: piece}}}}, nil)
			}
		}
	default:
		chunk(chunkDelta{Role: "assistant", Content: &empty}, nil)
		for _, piece := range splitWords(ans.Text, 4) {
			chunk(chunkDelta{Content: &piece}, nil)
		}
	}
	if ans.Crash != "" {
		code := "demo_crash"
		ew.send("error", map[string]apiError{"error": {Message: ans.Crash, Type: "server_error", Code: &code}})
		return
	}
	finish := finishReason(ans)
	chunk(chunkDelta{}, &finish)
	if includeUsage {
		k.Choices, k.Usage = []chunkChoice{}, c.Usage
		ew.send(k.Object, k)
	}
	ew.frame("", "[DONE]", []byte("[DONE]"))
}
