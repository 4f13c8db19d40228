package openai

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/target"
)

// responsesAgent answers the Responses API as chatAgent answers Chat
// Completions, reading only the input items sent (the API holds the
// rest): the n-th response is resp_n.
func responsesAgent(w http.ResponseWriter, r request, n int) {
	input, _ := r.Body["input"].([]any)
	last, _ := input[len(input)-1].(map[string]any)
	content, _ := last["content"].(string)
	text, call := agentSays(content, last["type"] == "function_call_output")
	id := fmt.Sprintf("resp_%d", n)
	usage := fmt.Sprintf(`{"input_tokens":%d,"output_tokens":5,"total_tokens":%d,"output_tokens_details":{"reasoning_tokens":2}}`, 10+n, 15+n)
	item := `{"type":"message","id":"msg_` + id + `","role":"assistant","status":"completed","content":[{"type":"output_text","text":` + jsonOf(text) + `}]}`
	if call != "" {
		item = `{"type":"function_call","id":"fc_` + id + `","call_id":"call_1","name":"get_weather","arguments":` + jsonOf(call) + `,"status":"completed"}`
	}
	response := func(status, output, usage string) string {
		return `{"id":"` + id + `","object":"response","model":"gpt-test-2025","status":"` + status + `","output":[` + output + `],"usage":` + usage + `}`
	}
	if r.Body["stream"] != true {
		body(w, 200, response("completed", item, usage))
		return
	}
	out := []string{`{"type":"response.created","response":` + response("in_progress", "", "null") + `}`}
	if call != "" {
		out = append(out,
			`{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc_`+id+`","call_id":"call_1","name":"get_weather","arguments":""}}`,
			`{"type":"response.function_call_arguments.delta","item_id":"fc_`+id+`","delta":"{\"city\":"}`,
			`{"type":"response.function_call_arguments.delta","item_id":"fc_`+id+`","delta":"\"Paris\"}"}`,
			`{"type":"response.function_call_arguments.done","item_id":"fc_`+id+`","arguments":"{\"city\":\"Paris\"}"}`)
	} else {
		half := len(text) / 2
		out = append(out,
			`{"type":"response.output_item.added","output_index":0,"item":{"type":"message","id":"msg_`+id+`","role":"assistant","content":[]}}`,
			`{"type":"response.output_text.delta","item_id":"msg_`+id+`","delta":`+jsonOf(text[:half])+`}`,
			`{"type":"response.output_text.delta","item_id":"msg_`+id+`","delta":`+jsonOf(text[half:])+`}`)
	}
	out = append(out, `{"type":"response.output_item.done","output_index":0,"item":`+item+`}`,
		`{"type":"response.completed","response":`+response("completed", item, usage)+`}`)
	events(w, out...)
}

// TestResponses: a conversation over the Responses API, streamed and
// not: the first request sends the history and the user's message, each
// later one only what is new — Ananke's answer to a call, the next
// user's message — after the response it follows (previous_response_id);
// the instructions on every request; the trace as over Chat Completions.
func TestResponses(t *testing.T) {
	for _, stream := range []bool{true, false} {
		t.Run(fmt.Sprintf("stream %v", stream), func(t *testing.T) {
			f := newFake(t, responsesAgent)
			o := options(f.endpoint()+"/", APIResponses, stream)
			o.Instructions = "You are terse."
			o.History = []target.Message{{Role: "user", Text: "hello"}, {Role: "assistant", Text: "hi"}}
			o.Body = json.RawMessage(`{"store":true}`)
			s := New(o)
			p := play(t, s, "weather in Paris?", "thanks")
			if p.err != nil {
				t.Fatal(p.err)
			}
			if got := p.turn(0).Text() + " | " + p.turn(1).Text(); got != "It is clear in Paris. | You said: thanks" {
				t.Errorf("texts %q", got)
			}
			calls := p.turn(0).ToolCalls
			if len(calls) != 1 || calls[0].ID != "call_1" || calls[0].Name != "get_weather" || calls[0].Args != `{"city":"Paris"}` ||
				!calls[0].Client || calls[0].Result == nil || calls[0].Result.Content != `{"sky":"clear"}` {
				t.Errorf("turn 0 calls %s", jsonOf(calls))
			}
			u := p.turn(1).Usage
			if u == nil || u.Reported != 1 || u.Models[0].Model != "gpt-test-2025" {
				t.Fatalf("turn 1 usage %s", jsonOf(u))
			}
			if r, _ := u.Models[0].Tokens.Get(cost.Reasoning); r != 2 {
				t.Errorf("turn 1 reasoning tokens %d, want 2", r)
			}
			if src := s.Source(); src.Adapter != "openai" || src.Version != "responses" || src.SessionID != "resp_2" {
				t.Errorf("source %+v", src)
			}

			reqs := f.requests()
			if len(reqs) != 3 {
				t.Fatalf("%d requests, want 3", len(reqs))
			}
			if r0 := reqs[0]; r0.Path != "/v1/responses" || r0.Body["store"] != true || r0.Body["messages"] != nil {
				t.Errorf("request 0: %s %s", r0.Path, jsonOf(r0.Body))
			}
			if got, want := jsonOf(reqs[0].Body["tools"]), `[{"description":"The weather in a city.","name":"get_weather","parameters":{"properties":{"city":{"type":"string"}},"type":"object"},"strict":false,"type":"function"}]`; got != want {
				t.Errorf("tools %s\nwant %s", got, want)
			}
			for i, want := range []string{
				`null [{"content":"hello","role":"user"},{"content":"hi","role":"assistant"},{"content":"weather in Paris?","role":"user"}]`,
				`"resp_0" [{"call_id":"call_1","output":"{\"sky\":\"clear\"}","type":"function_call_output"}]`,
				`"resp_1" [{"content":"thanks","role":"user"}]`,
			} {
				r := reqs[i].Body
				if got := jsonOf(r["previous_response_id"]) + " " + jsonOf(r["input"]); got != want {
					t.Errorf("request %d: %s\nwant %s", i, got, want)
				}
				if r["instructions"] != "You are terse." || r["model"] != "gpt-test" {
					t.Errorf("request %d: %s", i, jsonOf(r))
				}
			}
			want := "response response"
			if stream {
				want = "response.created response.output_item.added response.function_call_arguments.delta response.function_call_arguments.delta response.function_call_arguments.done response.output_item.done response.completed " +
					"response.created response.output_item.added response.output_text.delta response.output_text.delta response.output_item.done response.completed"
			}
			if got := eventTypes(p.turn(0)); got != want {
				t.Errorf("turn 0 events %q, want %q", got, want)
			}
		})
	}
}

// TestResponsesWithoutIDs: a server that names no response gets the
// whole conversation each time, as items.
func TestResponsesWithoutIDs(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r request, n int) {
		if n == 0 {
			body(w, 200, `{"status":"completed","output":[{"type":"function_call","call_id":"c1","name":"get_weather","arguments":"{}"}]}`)
			return
		}
		body(w, 200, `{"status":"completed","output":[{"type":"message","content":[{"type":"output_text","text":"done"}]}]}`)
	})
	p := play(t, New(options(f.endpoint(), APIResponses, false)), "go")
	if p.err != nil || p.turn(0).Text() != "done" {
		t.Fatalf("%v %q", p.err, p.turn(0).Text())
	}
	r1 := f.requests()[1].Body
	if got, want := jsonOf(r1["previous_response_id"])+" "+jsonOf(r1["input"]),
		`null [{"content":"go","role":"user"},{"arguments":"{}","call_id":"c1","name":"get_weather","type":"function_call"},{"call_id":"c1","output":"{\"sky\":\"clear\"}","type":"function_call_output"}]`; got != want {
		t.Errorf("request 1: %s\nwant %s", got, want)
	}
}
