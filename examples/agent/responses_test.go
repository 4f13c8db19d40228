package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
)

// inputItems writes a conversation as Responses API input items.
func inputItems(conv []turn) []map[string]any {
	var items []map[string]any
	for _, t := range conv {
		switch {
		case t.Role == "tool":
			items = append(items, map[string]any{"type": "function_call_output", "call_id": t.CallID, "output": t.Text})
		case len(t.Calls) > 0:
			for _, c := range t.Calls {
				items = append(items, map[string]any{"type": "function_call", "call_id": c.ID, "name": c.Name, "arguments": c.Args})
			}
		case t.Role == "user":
			items = append(items, map[string]any{"role": "user", "content": []map[string]string{{"type": "input_text", "text": t.Text}}})
		default:
			items = append(items, map[string]any{"type": "message", "role": t.Role, "content": t.Text})
		}
	}
	return items
}

func responsesTools(names []string) []map[string]any {
	var tools []map[string]any
	for _, n := range names {
		tools = append(tools, map[string]any{"type": "function", "name": n, "parameters": map[string]any{"type": "object"}})
	}
	return tools
}

// wireResponse is a response object as OpenAI documents it (the fields
// this agent sends).
type wireResponse struct {
	ID                 string     `json:"id"`
	Object             string     `json:"object"`
	CreatedAt          int64      `json:"created_at"`
	Status             string     `json:"status"`
	Model              string     `json:"model"`
	Output             []wireItem `json:"output"`
	PreviousResponseID *string    `json:"previous_response_id"`
	Error              *struct {
		Message string  `json:"message"`
		Type    string  `json:"type"`
		Param   *string `json:"param"`
		Code    *string `json:"code"`
	} `json:"error"`
	Usage *struct {
		InputTokens         int            `json:"input_tokens"`
		InputTokensDetails  map[string]int `json:"input_tokens_details"`
		OutputTokens        int            `json:"output_tokens"`
		OutputTokensDetails map[string]int `json:"output_tokens_details"`
		TotalTokens         int            `json:"total_tokens"`
	} `json:"usage"`
	Store bool `json:"store"`
}

type wireItem struct {
	Type      string     `json:"type"`
	ID        string     `json:"id"`
	Status    string     `json:"status"`
	Role      string     `json:"role"`
	Content   []wirePart `json:"content"`
	CallID    string     `json:"call_id"`
	Name      string     `json:"name"`
	Arguments *string    `json:"arguments"`
}

type wirePart struct {
	Type        string  `json:"type"`
	Text        *string `json:"text"`
	Refusal     *string `json:"refusal"`
	Annotations []any   `json:"annotations"`
}

// wireEvent is any event of a streamed response.
type wireEvent struct {
	Type           string        `json:"type"`
	SequenceNumber int           `json:"sequence_number"`
	Response       *wireResponse `json:"response"`
	OutputIndex    *int          `json:"output_index"`
	ItemID         string        `json:"item_id"`
	Item           *wireItem     `json:"item"`
	ContentIndex   *int          `json:"content_index"`
	Part           *wirePart     `json:"part"`
	Delta          *string       `json:"delta"`
	Text           *string       `json:"text"`
	Refusal        *string       `json:"refusal"`
	Arguments      *string       `json:"arguments"`
}

// saidIn is what a client reads in a completed response, and the calls'
// ids.
func saidIn(r wireResponse) (said, []string, error) {
	s := said{finish: "stop"}
	var ids []string
	for _, it := range r.Output {
		switch it.Type {
		case "message":
			if it.Role != "assistant" || len(it.Content) != 1 {
				return s, nil, fmt.Errorf("message %+v: want one part from the assistant", it)
			}
			p := it.Content[0]
			switch {
			case p.Type == "output_text" && p.Text != nil && p.Annotations != nil:
				s.text += *p.Text
			case p.Type == "refusal" && p.Refusal != nil:
				s.refusal += *p.Refusal
			default:
				return s, nil, fmt.Errorf("part %+v: want output_text with annotations, or refusal", p)
			}
		case "function_call":
			if it.CallID == "" || it.Name == "" || it.Arguments == nil || !strings.HasPrefix(it.ID, "fc_") {
				return s, nil, fmt.Errorf("function call %+v: want an id, a call id, a name and arguments", it)
			}
			s.calls, s.finish = append(s.calls, it.Name+" "+*it.Arguments), "tool_calls"
			ids = append(ids, it.CallID)
		default:
			return s, nil, fmt.Errorf("output item of type %q", it.Type)
		}
		if it.Status != "completed" {
			return s, nil, fmt.Errorf("output item %s is %s", it.ID, it.Status)
		}
	}
	if u := r.Usage; u != nil {
		s.in, s.out = u.InputTokens, u.OutputTokens
		if u.TotalTokens != u.InputTokens+u.OutputTokens {
			return s, nil, fmt.Errorf("usage %+v: total is not input + output", *u)
		}
	}
	return s, ids, nil
}

// respond sends a Responses request and returns what a client makes of
// the answer, checking its format, and the response.
func respond(t *testing.T, srv *httptest.Server, body map[string]any) (said, []string, wireResponse) {
	t.Helper()
	resp, raw := post(t, srv, "/v1/responses", body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status = %d: %s", resp.StatusCode, raw)
	}
	var r wireResponse
	if stream, _ := body["stream"].(bool); stream {
		if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
			t.Errorf("Content-Type = %q, want text/event-stream", ct)
		}
		var err error
		if r, err = readResponseStream(raw); err != nil {
			t.Fatalf("%v\n%s", err, raw)
		}
	} else if err := decodeStrict(raw, &r); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	if !strings.HasPrefix(r.ID, "resp_") || r.Object != "response" || r.Status != "completed" || r.Model != body["model"] || r.CreatedAt == 0 || r.Usage == nil || r.Error != nil {
		t.Fatalf("response %+v: want an id, response, completed, the model, usage and no error", r)
	}
	if prev, _ := body["previous_response_id"].(string); deref(r.PreviousResponseID) != prev {
		t.Errorf("previous_response_id = %q, want %q", deref(r.PreviousResponseID), prev)
	}
	s, ids, err := saidIn(r)
	if err != nil {
		t.Fatalf("%v\n%s", err, raw)
	}
	return s, ids, r
}

// readResponseStream puts a streamed response together as a client does,
// failing where the stream leaves OpenAI's format: each event named by
// its type and numbered in order; response.created first; each output
// item added, its text, refusal or arguments in deltas that add up to
// their done event, then done; response.completed last, its output the
// items done.
func readResponseStream(raw string) (wireResponse, error) {
	frames, err := parseFrames(raw)
	if err != nil {
		return wireResponse{}, err
	}
	var items []wireItem
	var open *wireItem
	var acc strings.Builder
	for i, f := range frames {
		var e wireEvent
		if err := decodeStrict(f.data, &e); err != nil {
			return wireResponse{}, fmt.Errorf("event %d %s: %v", i, f.data, err)
		}
		if e.Type != f.event || e.SequenceNumber != i {
			return wireResponse{}, fmt.Errorf("event %d: named %q, type %q, sequence number %d", i, f.event, e.Type, e.SequenceNumber)
		}
		if (i == 0) != (e.Type == "response.created") {
			return wireResponse{}, fmt.Errorf("event %d is %s; response.created comes first, once", i, e.Type)
		}
		inItem := open != nil && e.ItemID == open.ID && e.OutputIndex != nil && *e.OutputIndex == len(items)
		switch e.Type {
		case "response.created", "response.in_progress":
			if e.Response == nil || e.Response.Status != "in_progress" || len(e.Response.Output) != 0 {
				return wireResponse{}, fmt.Errorf("%s: want an empty response in progress", e.Type)
			}
		case "response.output_item.added":
			if open != nil || e.Item == nil || e.Item.Status != "in_progress" || *e.OutputIndex != len(items) {
				return wireResponse{}, fmt.Errorf("event %d: an item added while one is open, or out of order", i)
			}
			open = e.Item
			acc.Reset()
		case "response.content_part.added", "response.content_part.done":
			if !inItem || e.Part == nil || e.ContentIndex == nil || *e.ContentIndex != 0 {
				return wireResponse{}, fmt.Errorf("event %d: a part outside its item", i)
			}
		case "response.output_text.delta", "response.refusal.delta", "response.function_call_arguments.delta":
			if !inItem || e.Delta == nil {
				return wireResponse{}, fmt.Errorf("event %d: a delta outside its item", i)
			}
			acc.WriteString(*e.Delta)
		case "response.output_text.done", "response.refusal.done", "response.function_call_arguments.done":
			done := deref(e.Text) + deref(e.Refusal) + deref(e.Arguments)
			if !inItem || done != acc.String() {
				return wireResponse{}, fmt.Errorf("event %d: done with %q, the deltas made %q", i, done, acc.String())
			}
		case "response.output_item.done":
			if !(open != nil && e.Item != nil && e.Item.ID == open.ID) || e.Item.Status != "completed" {
				return wireResponse{}, fmt.Errorf("event %d: done with an item not open, or not completed", i)
			}
			items, open = append(items, *e.Item), nil
		case "response.completed", "response.failed":
			if i != len(frames)-1 || e.Response == nil {
				return wireResponse{}, fmt.Errorf("event %d: %s is not the last, or has no response", i, e.Type)
			}
			if e.Type == "response.completed" && !reflect.DeepEqual(e.Response.Output, items) {
				return wireResponse{}, fmt.Errorf("the completed response's output differs from the items done")
			}
			return *e.Response, nil
		default:
			return wireResponse{}, fmt.Errorf("event %d of unknown type %q", i, e.Type)
		}
	}
	return wireResponse{}, fmt.Errorf("no response.completed or response.failed")
}

// TestResponses: each scenario, its conversation sent as input items,
// gets the answer it gets from Chat Completions, streamed and not.
func TestResponses(t *testing.T) {
	srv := newTestServer(t)
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			for _, stream := range []bool{false, true} {
				body := map[string]any{"model": "gpt-4o-mini", "input": inputItems(sc.conv), "stream": stream}
				if sc.tools != nil {
					body["tools"] = responsesTools(sc.tools)
				}
				if got, _, _ := respond(t, srv, body); !got.equal(sc.want) {
					t.Errorf("stream %v:\n got %v\nwant %v", stream, got, sc.want)
				}
			}
		})
	}
}

// TestResponsesConversation carries a conversation by
// previous_response_id alone: the agent keeps what each response ended,
// its calls' results come back as function_call_output items.
func TestResponsesConversation(t *testing.T) {
	srv := newTestServer(t)
	steps := []struct {
		input    any
		tools    []string
		want     string // the text, or the call
		withCall bool
	}{
		{"Hello, my name is Ada.", nil, "Nice to meet you, Ada.", false},
		{[]map[string]any{{"role": "user", "content": "What's the weather in Berlin?"}}, []string{"get_weather"}, `get_weather {"city":"Berlin"}`, false},
		{nil, []string{"get_weather"}, "It is windy and 17°C in Berlin.", true},
		{"What is my name?", nil, "Your name is Ada.", false},
		{"What did I say first?", nil, `Your first message was: "Hello, my name is Ada."`, false},
	}
	prev, call := "", ""
	for i, st := range steps {
		body := map[string]any{"model": "m", "input": st.input, "stream": i%2 == 0, "instructions": "Answer briefly."}
		if st.withCall {
			body["input"] = []map[string]any{{"type": "function_call_output", "call_id": call, "output": `{"city":"Berlin","temp_c":17,"conditions":"windy"}`}}
		}
		if prev != "" {
			body["previous_response_id"] = prev
		}
		if st.tools != nil {
			body["tools"] = responsesTools(st.tools)
		}
		got, ids, r := respond(t, srv, body)
		if said := got.text + strings.Join(got.calls, ""); said != st.want {
			t.Fatalf("step %d: %v; want %q", i, got, st.want)
		}
		prev = r.ID
		if len(ids) > 0 {
			call = ids[0]
		}
	}
}

func TestResponsesRejects(t *testing.T) {
	srv := newTestServer(t)
	_, _, pending := respond(t, srv, map[string]any{"model": "m", "input": "weather in Paris", "tools": responsesTools([]string{"get_weather"})})
	_, _, unstored := respond(t, srv, map[string]any{"model": "m", "input": "hi", "store": false})
	tests := []struct {
		name, body, message, param, code string
	}{
		{"not JSON", `[`, "the body is not valid JSON", "", ""},
		{"no model", `{"input":"hi"}`, "you must provide a model parameter", "model", ""},
		{"no input", `{"model":"m","input":[]}`, "input must not be empty", "input", ""},
		{"input neither text nor items", `{"model":"m","input":7}`, "input is neither a string nor an array of items", "input", ""},
		{"an item of another type", `{"model":"m","input":[{"type":"web_search_call"}]}`, `input[0]: item type "web_search_call" is not supported`, "input", ""},
		{"an unknown previous response", `{"model":"m","input":"hi","previous_response_id":"resp_x"}`, `previous response with id "resp_x" not found`, "previous_response_id", "previous_response_not_found"},
		{"a response not stored", `{"model":"m","input":"hi","previous_response_id":"` + unstored.ID + `"}`, "not found", "previous_response_id", "previous_response_not_found"},
		{"an output for no call", `{"model":"m","input":[{"type":"function_call_output","call_id":"call_x","output":"1"}]}`, `no tool call found for the tool output with call id "call_x"`, "input", ""},
		{"a call left without output", `{"model":"m","input":"and now?","previous_response_id":"` + pending.ID + `"}`, "no tool output found for tool call", "input", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := post(t, srv, "/v1/responses", tc.body)
			checkAPIError(t, resp, body, http.StatusBadRequest, tc.message, tc.param)
			var e wireError
			_ = json.Unmarshal([]byte(body), &e)
			if deref(e.Error.Code) != tc.code {
				t.Errorf("code = %q, want %q", deref(e.Error.Code), tc.code)
			}
		})
	}
}

// TestResponsesCrash: whole, a crash is an HTTP 500 with an error object;
// streamed, the words said before it, then response.failed with the
// error. A failed response is not kept.
func TestResponsesCrash(t *testing.T) {
	srv := newTestServer(t)
	resp, raw := post(t, srv, "/v1/responses", map[string]any{"model": "m", "input": "crash"})
	checkAPIError(t, resp, raw, http.StatusInternalServerError, crashMessage, "")

	resp, raw = post(t, srv, "/v1/responses", map[string]any{"model": "m", "input": "crash", "stream": true})
	r, err := readResponseStream(raw)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d, %v\n%s", resp.StatusCode, err, raw)
	}
	if r.Status != "failed" || r.Error == nil || r.Error.Message != crashMessage || !strings.Contains(raw, "event: response.failed\n") {
		t.Errorf("response %+v; want failed with the error", r)
	}
	if !strings.Contains(raw, `"delta":"Let me "`) {
		t.Errorf("no words before the failure:\n%s", raw)
	}
	resp, raw = post(t, srv, "/v1/responses", map[string]any{"model": "m", "input": "hi", "previous_response_id": r.ID})
	checkAPIError(t, resp, raw, http.StatusBadRequest, "not found", "previous_response_id")
}
