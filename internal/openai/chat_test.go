package openai

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/target"
)

// chatAgent answers Chat Completions as a small agent: asked about the
// weather, it calls get_weather; given the result, it says the weather;
// otherwise it repeats the user's last message. It streams when asked,
// with usage when asked for it.
func chatAgent(w http.ResponseWriter, r request, n int) {
	msgs, _ := r.Body["messages"].([]any)
	last, _ := msgs[len(msgs)-1].(map[string]any)
	content, _ := last["content"].(string)
	text, call := agentSays(content, last["role"] == "tool")
	usage := fmt.Sprintf(`{"prompt_tokens":%d,"completion_tokens":5,"total_tokens":%d}`, 10+n, 15+n)
	if r.Body["stream"] != true {
		msg := `{"role":"assistant","content":` + jsonOf(text) + `}`
		finish := "stop"
		if call != "" {
			msg = `{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":` + jsonOf(call) + `}}]}`
			finish = "tool_calls"
		}
		body(w, 200, `{"id":"chatcmpl-1","object":"chat.completion","model":"gpt-test-2025","choices":[{"index":0,"message":`+msg+`,"finish_reason":"`+finish+`"}],"usage":`+usage+`}`)
		return
	}
	chunk := func(delta, finish string) string {
		return `{"id":"chatcmpl-1","object":"chat.completion.chunk","model":"gpt-test-2025","choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + finish + `}]}`
	}
	out := []string{chunk(`{"role":"assistant","content":""}`, "null")}
	if call != "" {
		out = append(out,
			chunk(`{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather","arguments":""}}]}`, "null"),
			chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"{\"city\":"}}]}`, "null"),
			chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"\"Paris\"}"}}]}`, "null"),
			chunk(`{}`, `"tool_calls"`))
	} else {
		half := len(text) / 2
		out = append(out, chunk(`{"content":`+jsonOf(text[:half])+`}`, "null"), chunk(`{"content":`+jsonOf(text[half:])+`}`, "null"), chunk(`{}`, `"stop"`))
	}
	if opts, _ := r.Body["stream_options"].(map[string]any); opts["include_usage"] == true {
		out = append(out, `{"id":"chatcmpl-1","object":"chat.completion.chunk","model":"gpt-test-2025","choices":[],"usage":`+usage+`}`)
	}
	events(w, append(out, "[DONE]")...)
}

// TestChat: a conversation over Chat Completions, streamed and not: each
// request sends it whole — the instructions, the history, the user's
// turns, the assistant's calls and Ananke's answers to them — with the
// model, the tools, the extra body fields and the headers; the trace has
// the text, the client tool's call with its result, and each request's
// usage.
func TestChat(t *testing.T) {
	for _, stream := range []bool{true, false} {
		t.Run(fmt.Sprintf("stream %v", stream), func(t *testing.T) {
			f := newFake(t, chatAgent)
			o := options(f.endpoint(), APIChat, stream)
			o.Instructions = "You are terse."
			o.History = []target.Message{{Role: "user", Text: "hello"}, {Role: "assistant", Text: "hi"}}
			o.Body = json.RawMessage(`{"temperature":0,"model":"not this one"}`)
			p := play(t, New(o), "weather in Paris?", "thanks")
			if p.err != nil {
				t.Fatal(p.err)
			}
			if got := p.turn(0).Text(); got != "It is clear in Paris." {
				t.Errorf("turn 0 text %q", got)
			}
			if got := p.turn(1).Text(); got != "You said: thanks" {
				t.Errorf("turn 1 text %q", got)
			}
			calls := p.turn(0).ToolCalls
			if len(calls) != 1 || calls[0].ID != "call_1" || calls[0].Name != "get_weather" || calls[0].Args != `{"city":"Paris"}` || !calls[0].ArgsJSON ||
				!calls[0].Client || calls[0].Result == nil || calls[0].Result.Content != `{"sky":"clear"}` {
				t.Errorf("turn 0 calls %s", jsonOf(calls))
			}
			if o := p.out[0]; !o.ClientTools || o.ClientFailure != "" || len(o.Warnings) != 0 {
				t.Errorf("turn 0 outcome %+v", o)
			}
			// usage: each request's, for the model that answered
			u := p.turn(0).Usage
			if len(p.turn(0).Runs) != 2 || u == nil || u.Reported != 2 || len(u.Models) != 1 || u.Models[0].Model != "gpt-test-2025" {
				t.Fatalf("turn 0: %d runs, usage %s", len(p.turn(0).Runs), jsonOf(u))
			}
			if in, _ := u.Models[0].Tokens.Get(cost.Input); in != 10+11 {
				t.Errorf("turn 0 input tokens %d, want 21", in)
			}

			reqs := f.requests()
			if len(reqs) != 3 {
				t.Fatalf("%d requests, want 3", len(reqs))
			}
			r0 := reqs[0]
			if r0.Path != "/v1/chat/completions" || r0.Header.Get("Authorization") != "Bearer sk-test" || r0.Body["model"] != "gpt-test" || r0.Body["temperature"] != 0.0 {
				t.Errorf("request 0: %s %v %s", r0.Path, r0.Header, jsonOf(r0.Body))
			}
			wantStream := `null null`
			if stream {
				wantStream = `true {"include_usage":true}`
			}
			if got := jsonOf(r0.Body["stream"]) + " " + jsonOf(r0.Body["stream_options"]); got != wantStream {
				t.Errorf("stream, stream_options: %s, want %s", got, wantStream)
			}
			if got, want := jsonOf(r0.Body["tools"]), `[{"function":{"description":"The weather in a city.","name":"get_weather","parameters":{"properties":{"city":{"type":"string"}},"type":"object"}},"type":"function"}]`; got != want {
				t.Errorf("tools %s\nwant %s", got, want)
			}
			history := `{"content":"You are terse.","role":"system"},{"content":"hello","role":"user"},{"content":"hi","role":"assistant"},{"content":"weather in Paris?","role":"user"}`
			answered := history + `,{"content":null,"role":"assistant","tool_calls":[{"function":{"arguments":"{\"city\":\"Paris\"}","name":"get_weather"},"id":"call_1","type":"function"}]},{"content":"{\"sky\":\"clear\"}","role":"tool","tool_call_id":"call_1"}`
			for i, want := range []string{
				"[" + history + "]",
				"[" + answered + "]",
				"[" + answered + `,{"content":"It is clear in Paris.","role":"assistant"},{"content":"thanks","role":"user"}]`,
			} {
				if got := jsonOf(reqs[i].Body["messages"]); got != want {
					t.Errorf("request %d messages:\n%s\nwant\n%s", i, got, want)
				}
			}
			// the trace keeps each request as sent, and every event
			if got := string(p.turn(0).Runs[1].Request); !strings.Contains(got, `"tool_call_id":"call_1"`) {
				t.Errorf("run 1's request %s", got)
			}
			want := "chat.completion chat.completion"
			if stream {
				want = strings.TrimSpace(strings.Repeat("chat.completion.chunk ", 6+5))
			}
			if got := eventTypes(p.turn(0)); got != want {
				t.Errorf("turn 0 events %q, want %q", got, want)
			}
			// each event at its own reading of the clock; the first text
			// in the event that carried it: the second of turn 1 when
			// streamed, its only one when not
			tt := p.turn(1)
			last := tt.StartMs
			for _, e := range tt.Events {
				if e.ReceivedMs <= last {
					t.Errorf("event %d received at %d, after %d", e.Seq, e.ReceivedMs, last)
				}
				last = e.ReceivedMs
			}
			first := tt.Runs[0].FirstSeq
			if stream {
				first++
			}
			if tt.FirstTextSeq != first || tt.FirstTextMs == 0 || tt.Runs[0].FirstEventMs != tt.Events[0].ReceivedMs {
				t.Errorf("turn 1: first text at event %d (%d ms), first event at %d ms; want event %d", tt.FirstTextSeq, tt.FirstTextMs, tt.Runs[0].FirstEventMs, first)
			}
		})
	}
}
