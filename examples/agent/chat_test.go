package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// weatherCall is a get_weather call for Paris, answered by parisResult.
var (
	weatherCall = turn{Role: "assistant", Calls: []toolCall{{ID: "call_a", Name: "get_weather", Args: `{"city":"Paris"}`}}}
	parisResult = `{"city":"Paris","temp_c":21,"conditions":"sunny"}`
)

// scenarios are conversations both OpenAI-compatible APIs answer alike,
// streamed or not.
var scenarios = []struct {
	name  string
	conv  []turn
	tools []string
	want  said
}{
	{"a plain question", []turn{{Role: "user", Text: "Hello"}}, nil,
		said{text: "I can look up the weather, take an order and remember what you tell me.", finish: "stop", in: 122, out: 18}},
	{"the weather, with the tool", []turn{{Role: "user", Text: "What's the weather in Paris?"}}, []string{"get_weather"},
		said{calls: []string{`get_weather {"city":"Paris"}`}, finish: "tool_calls", in: 127, out: 7}},
	{"two cities, in the order named", []turn{{Role: "user", Text: "Weather in London and Paris?"}}, []string{"search", "get_weather"},
		said{calls: []string{`get_weather {"city":"London"}`, `get_weather {"city":"Paris"}`}, finish: "tool_calls", in: 127, out: 14}},
	{"the weather, without the tool", []turn{{Role: "user", Text: "What's the weather in Paris?"}}, nil,
		said{text: "I cannot look up the weather: no get_weather tool was offered.", finish: "stop", in: 127, out: 16}},
	{"the tool's result", []turn{{Role: "system", Text: "You are the shop's assistant."}, {Role: "user", Text: "What's the weather in Paris?"},
		weatherCall, {Role: "tool", CallID: "call_a", Text: parisResult}}, []string{"get_weather"},
		said{text: "It is sunny and 21°C in Paris.", finish: "stop", in: 154, out: 8}},
	{"a purchase confirmed", []turn{{Role: "user", Text: "I want to buy the trail shoe"},
		{Role: "assistant", Calls: []toolCall{{ID: "c1", Name: "confirm_purchase", Args: `{"amount":89.5}`}}}, {Role: "tool", CallID: "c1", Text: "yes"}},
		[]string{"confirm_purchase"}, said{text: "Order placed: charge ch_1 approved.", finish: "stop", in: 136, out: 9}},
	{"the conversation so far", []turn{{Role: "user", Text: "Hello, my name is Ada."}, {Role: "assistant", Text: "Nice to meet you, Ada."},
		{Role: "user", Text: "What is my name?"}}, nil, said{text: "Your name is Ada.", finish: "stop", in: 135, out: 5}},
	{"a refusal", []turn{{Role: "user", Text: "What is the admin password?"}}, nil,
		said{refusal: "I can't help with that.", finish: "stop", in: 127, out: 6}},
}

// chatMessages writes a conversation as Chat Completions messages.
func chatMessages(conv []turn) []map[string]any {
	var msgs []map[string]any
	for _, t := range conv {
		m := map[string]any{"role": t.Role, "content": t.Text}
		switch {
		case t.Role == "tool":
			m["tool_call_id"] = t.CallID
		case len(t.Calls) > 0:
			m["content"] = nil
			var calls []map[string]any
			for _, c := range t.Calls {
				calls = append(calls, map[string]any{"id": c.ID, "type": "function", "function": map[string]string{"name": c.Name, "arguments": c.Args}})
			}
			m["tool_calls"] = calls
		}
		msgs = append(msgs, m)
	}
	return msgs
}

func chatTools(names []string) []map[string]any {
	var tools []map[string]any
	for _, n := range names {
		tools = append(tools, map[string]any{"type": "function", "function": map[string]any{"name": n, "parameters": map[string]any{"type": "object"}}})
	}
	return tools
}

// wireCompletion is a chat completion as OpenAI documents it.
type wireCompletion struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Created int64  `json:"created"`
	Model   string `json:"model"`
	Choices []struct {
		Index   int `json:"index"`
		Message struct {
			Role      string     `json:"role"`
			Content   *string    `json:"content"`
			Refusal   *string    `json:"refusal"`
			ToolCalls []wireCall `json:"tool_calls"`
		} `json:"message"`
		Logprobs     any    `json:"logprobs"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage *wireUsage `json:"usage"`
}

type wireCall struct {
	Index    *int   `json:"index"` // in a stream's deltas only
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type wireUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// wireChunk is one chunk of a streamed chat completion as OpenAI
// documents it.
type wireChunk struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Created int64  `json:"created"`
	Model   string `json:"model"`
	Choices []struct {
		Index int `json:"index"`
		Delta struct {
			Role      string     `json:"role"`
			Content   *string    `json:"content"`
			Refusal   *string    `json:"refusal"`
			ToolCalls []wireCall `json:"tool_calls"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *wireUsage `json:"usage"`
}

// chat sends a completion request and returns what a client makes of the
// answer, checking it is in OpenAI's format, and the calls' ids.
func chat(t *testing.T, srv *httptest.Server, body map[string]any) (said, []string) {
	t.Helper()
	resp, raw := post(t, srv, "/v1/chat/completions", body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status = %d: %s", resp.StatusCode, raw)
	}
	if stream, _ := body["stream"].(bool); stream {
		if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
			t.Errorf("Content-Type = %q, want text/event-stream", ct)
		}
		opts, _ := body["stream_options"].(map[string]any)
		withUsage, _ := opts["include_usage"].(bool)
		s, ids, err := readChatStream(raw, withUsage, body["model"])
		if err != nil {
			t.Fatalf("%v\n%s", err, raw)
		}
		return s, ids
	}
	var c wireCompletion
	if err := decodeStrict(raw, &c); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	if !strings.HasPrefix(c.ID, "chatcmpl-") || c.Object != "chat.completion" || c.Model != body["model"] || c.Created == 0 || len(c.Choices) != 1 || c.Usage == nil {
		t.Fatalf("completion %s: want an id, chat.completion, the model, one choice, usage", raw)
	}
	m := c.Choices[0].Message
	s := said{text: deref(m.Content), refusal: deref(m.Refusal), finish: c.Choices[0].FinishReason, in: c.Usage.PromptTokens, out: c.Usage.CompletionTokens}
	var ids []string
	for _, call := range m.ToolCalls {
		s.calls = append(s.calls, call.Function.Name+" "+call.Function.Arguments)
		ids = append(ids, call.ID)
		if call.Type != "function" {
			t.Errorf("call type %q, want function", call.Type)
		}
	}
	if m.Role != "assistant" || c.Usage.TotalTokens != s.in+s.out || (m.Content == nil) == (s.calls == nil && s.refusal == "") {
		t.Errorf("message %s: want an assistant message, content null only with calls or a refusal, total = in + out", raw)
	}
	return s, ids
}

// readChatStream puts a streamed completion together as a client does,
// failing where the stream leaves OpenAI's format: chunks of one id, the
// role first, calls by index (id and name in their first piece), one
// finish reason, the usage in a chunk of its own after it when asked,
// then [DONE].
func readChatStream(raw string, withUsage bool, model any) (said, []string, error) {
	frames, err := parseFrames(raw)
	if err != nil {
		return said{}, nil, err
	}
	if n := len(frames); n < 3 || frames[n-1].data != "[DONE]" {
		return said{}, nil, fmt.Errorf("the stream does not end with data: [DONE]")
	}
	var s said
	var ids []string
	args := map[int]*strings.Builder{}
	var first wireChunk
	for i, f := range frames[:len(frames)-1] {
		var c wireChunk
		if err := decodeStrict(f.data, &c); err != nil || f.event != "" {
			return s, nil, fmt.Errorf("chunk %d %q (event %q): %v", i, f.data, f.event, err)
		}
		if i == 0 {
			first = c
			if len(c.Choices) != 1 || c.Choices[0].Delta.Role != "assistant" {
				return s, nil, fmt.Errorf("the first chunk does not give the assistant's role")
			}
		}
		if c.ID != first.ID || c.Object != "chat.completion.chunk" || c.Model != model || c.Created != first.Created {
			return s, nil, fmt.Errorf("chunk %d: id, object, model or created differ from the first", i)
		}
		if c.Usage != nil {
			if !withUsage || len(c.Choices) != 0 || s.finish == "" || i != len(frames)-2 {
				return s, nil, fmt.Errorf("chunk %d: usage not asked, or not alone in the last chunk after the finish", i)
			}
			s.in, s.out = c.Usage.PromptTokens, c.Usage.CompletionTokens
			continue
		}
		if len(c.Choices) != 1 || s.finish != "" {
			return s, nil, fmt.Errorf("chunk %d: %d choices, or a chunk after the finish", i, len(c.Choices))
		}
		ch := c.Choices[0]
		s.text += deref(ch.Delta.Content)
		s.refusal += deref(ch.Delta.Refusal)
		for _, d := range ch.Delta.ToolCalls {
			if d.Index == nil {
				return s, nil, fmt.Errorf("chunk %d: a tool call delta without index", i)
			}
			b, open := args[*d.Index]
			switch {
			case !open && (d.ID == "" || d.Type != "function" || d.Function.Name == "" || *d.Index != len(ids)):
				return s, nil, fmt.Errorf("chunk %d: call %d starts without id, type or name, or out of order", i, *d.Index)
			case !open:
				b = &strings.Builder{}
				args[*d.Index] = b
				ids = append(ids, d.ID)
				s.calls = append(s.calls, d.Function.Name+" ")
			case d.ID != "" || d.Function.Name != "":
				return s, nil, fmt.Errorf("chunk %d: call %d names itself again", i, *d.Index)
			}
			b.WriteString(d.Function.Arguments)
		}
		s.finish = deref(ch.FinishReason)
	}
	for i := range s.calls {
		s.calls[i] += args[i].String()
	}
	if s.finish == "" || withUsage && s.in == 0 {
		return s, nil, fmt.Errorf("no finish reason, or no usage chunk though asked")
	}
	return s, ids, nil
}

// TestChatCompletions: each scenario gets the same answer streamed (with
// and without usage) and not, in OpenAI's format.
func TestChatCompletions(t *testing.T) {
	srv := newTestServer(t)
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			for _, mode := range []struct {
				name string
				set  map[string]any
			}{
				{"whole", nil},
				{"streamed", map[string]any{"stream": true}},
				{"streamed with usage", map[string]any{"stream": true, "stream_options": map[string]any{"include_usage": true}}},
			} {
				body := map[string]any{"model": "gpt-4o-mini", "messages": chatMessages(sc.conv), "temperature": 0}
				if sc.tools != nil {
					body["tools"] = chatTools(sc.tools)
				}
				for k, v := range mode.set {
					body[k] = v
				}
				got, _ := chat(t, srv, body)
				want := sc.want
				if mode.name == "streamed" {
					want.in, want.out = 0, 0
				}
				if !got.equal(want) {
					t.Errorf("%s:\n got %v\nwant %v", mode.name, got, want)
				}
			}
		})
	}
}

// TestChatToolRoundTrip plays a client: the call it gets back, with the
// tool's result, is the next request's conversation.
func TestChatToolRoundTrip(t *testing.T) {
	srv := newTestServer(t)
	msgs := chatMessages([]turn{{Role: "user", Text: "What's the weather in Tokyo?"}})
	body := map[string]any{"model": "m", "messages": msgs, "tools": chatTools([]string{"get_weather"}), "stream": true}
	first, ids := chat(t, srv, body)
	if len(ids) != 1 || !strings.HasPrefix(ids[0], "call_") || first.calls[0] != `get_weather {"city":"Tokyo"}` {
		t.Fatalf("first answer %v, ids %q; want one get_weather call for Tokyo", first, ids)
	}
	body["messages"] = append(msgs, chatMessages([]turn{
		{Role: "assistant", Calls: []toolCall{{ID: ids[0], Name: "get_weather", Args: `{"city":"Tokyo"}`}}},
		{Role: "tool", CallID: ids[0], Text: `{"city":"Tokyo","temp_c":26,"conditions":"cloudy"}`},
	})...)
	if got, _ := chat(t, srv, body); got.text != "It is cloudy and 26°C in Tokyo." {
		t.Errorf("after the result: %v", got)
	}
}

func TestChatRejects(t *testing.T) {
	srv := newTestServer(t)
	user := `[{"role":"user","content":"hi"}]`
	tests := []struct {
		name, body, message, param string
	}{
		{"not JSON", `{"model":`, "the body is not valid JSON", ""},
		{"no model", `{"messages":` + user + `}`, "you must provide a model parameter", "model"},
		{"no messages", `{"model":"m","messages":[]}`, "messages must not be empty", "messages"},
		{"an unknown role", `{"model":"m","messages":[{"role":"robot","content":"hi"}]}`, `unknown role "robot"`, "messages[0].role"},
		{"content neither text nor parts", `{"model":"m","messages":[{"role":"user","content":7}]}`, "content is neither", "messages[0].content"},
		{"a result for no call", `{"model":"m","messages":[{"role":"user","content":"hi"},{"role":"tool","tool_call_id":"x","content":"1"}]}`,
			`no tool call found for the tool output with call id "x"`, "messages"},
		{"a call without its result", `{"model":"m","messages":[{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"user","content":"hi"}]}`,
			`no tool output found for tool call "c1"`, "messages"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := post(t, srv, "/v1/chat/completions", tc.body)
			checkAPIError(t, resp, body, http.StatusBadRequest, tc.message, tc.param)
		})
	}
}

// TestChatCrash: whole, a crash is an HTTP 500 with an error object;
// streamed, the words said before it, then an error object, and no
// [DONE].
func TestChatCrash(t *testing.T) {
	srv := newTestServer(t)
	body := map[string]any{"model": "m", "messages": chatMessages([]turn{{Role: "user", Text: "crash now"}})}
	resp, raw := post(t, srv, "/v1/chat/completions", body)
	checkAPIError(t, resp, raw, http.StatusInternalServerError, crashMessage, "")

	body["stream"] = true
	resp, raw = post(t, srv, "/v1/chat/completions", body)
	frames, err := parseFrames(raw)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d, %v\n%s", resp.StatusCode, err, raw)
	}
	last := frames[len(frames)-1].data
	var e wireError
	if err := decodeStrict(last, &e); err != nil || e.Error.Message != crashMessage || deref(e.Error.Code) != "demo_crash" {
		t.Errorf("last event %s (%v); want the error object", last, err)
	}
	var text strings.Builder
	for _, f := range frames[:len(frames)-1] {
		var c wireChunk
		if err := decodeStrict(f.data, &c); err != nil || len(c.Choices) != 1 || c.Choices[0].FinishReason != nil {
			t.Fatalf("chunk %s before the error: %v; want a delta without finish", f.data, err)
		}
		text.WriteString(deref(c.Choices[0].Delta.Content))
	}
	if text.String() != "Let me think about that..." || strings.Contains(raw, "[DONE]") {
		t.Errorf("text before the error %q; want the words, and no [DONE]", text.String())
	}
}

// TestChatAnswerParts: content sent as an array of parts is read as its
// text parts joined.
func TestChatAnswerParts(t *testing.T) {
	srv := newTestServer(t)
	parts := []map[string]any{{"type": "text", "text": "weather in "}, {"type": "image_url", "image_url": map[string]string{"url": "https://x"}}, {"type": "text", "text": "Berlin"}}
	body := map[string]any{"model": "m", "messages": []map[string]any{{"role": "developer", "content": "Be brief."}, {"role": "user", "content": parts}},
		"tools": chatTools([]string{"get_weather"})}
	if got, _ := chat(t, srv, body); len(got.calls) != 1 || got.calls[0] != `get_weather {"city":"Berlin"}` {
		t.Errorf("got %v; want a get_weather call for Berlin", got)
	}
	var m chatMessage
	if err := json.Unmarshal([]byte(`{"role":"user","content":null}`), &m); err != nil {
		t.Fatal(err)
	}
	if text, err := contentText(m.Content); text != "" || err != nil {
		t.Errorf("null content = %q, %v; want empty", text, err)
	}
}
