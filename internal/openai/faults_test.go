package openai

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestFaults: what an API that misbehaves, fails or holds back does to a
// turn — each fault a clear error, or what the API reported recorded as
// its error (the run_error check), or noted as a warning — and never a
// pass that hides it.
func TestFaults(t *testing.T) {
	chunk := func(delta, finish string) string {
		return `{"object":"chat.completion.chunk","choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + finish + `}]}`
	}
	callAgain := func(w http.ResponseWriter, r request, n int) {
		body(w, 200, `{"object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"c`+string(rune('0'+n))+`","type":"function","function":{"name":"get_weather","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`)
	}
	for _, tc := range []struct {
		name   string
		api    string
		stream bool
		answer func(w http.ResponseWriter, r request, n int)
		opts   func(*Options)
		// what the turn shows: its error, the errors the API reported
		// (message | code), the outcome's warnings (rule: message) and
		// client failure, its text, and how many requests were made
		err, runErrors, warnings, failure, text string
		requests                                int
	}{
		{name: "a body that is not JSON", api: APIChat,
			answer: func(w http.ResponseWriter, r request, n int) {
				w.Header().Set("Content-Type", "text/html")
				io.WriteString(w, "<html>\n  <body>Bad   gateway</body>\n</html>")
			},
			err: "the API's answer is not JSON (Content-Type text/html): <html> <body>Bad gateway</body> </html>", requests: 1},
		{name: "a chat stream that ends without [DONE]", api: APIChat, stream: true,
			answer: func(w http.ResponseWriter, r request, n int) {
				events(w, chunk(`{"content":"Hel"}`, "null"), chunk(`{"content":"lo"}`, "null"))
			},
			err: "the stream ended without [DONE] after 2 events: the answer is cut short", text: "Hello", requests: 1},
		{name: "a responses stream that ends without response.completed", api: APIResponses, stream: true,
			answer: func(w http.ResponseWriter, r request, n int) {
				events(w, `{"type":"response.created","response":{"id":"r1","status":"in_progress"}}`, `{"type":"response.output_text.delta","item_id":"m","delta":"Hel"}`)
			},
			err: "the stream ended without response.completed after 2 events: the answer is cut short", text: "Hel", requests: 1},
		{name: "a stream cut in the middle of an event", api: APIChat, stream: true,
			answer: func(w http.ResponseWriter, r request, n int) {
				events(w, chunk(`{"content":"Hel"}`, "null"))
				io.WriteString(w, `data: {"object":"chat.com`)
			},
			err: "the stream ended in the middle of event 2: the answer is cut short", text: "Hel", requests: 1},
		{name: "an event that is not JSON", api: APIChat, stream: true,
			answer: func(w http.ResponseWriter, r request, n int) { events(w, "Hello, world", "[DONE]") },
			err:    "event 1 of the stream is not JSON: Hello, world", requests: 1},
		{name: "an event over the size read", api: APIChat, stream: true, opts: func(o *Options) { o.MaxEventSize = 64 },
			answer: func(w http.ResponseWriter, r request, n int) {
				events(w, chunk(`{"content":"`+strings.Repeat("a", 100)+`"}`, "null"), "[DONE]")
			},
			err: "event 1 of the stream is over 64 bytes (the largest read)", requests: 1},
		{name: "429 with Retry-After", api: APIChat,
			answer: func(w http.ResponseWriter, r request, n int) {
				w.Header().Set("Retry-After", "7")
				body(w, 429, `{"error":{"message":"Rate limit reached for gpt-test","type":"requests","code":"rate_limit_exceeded"}}`)
			},
			err:       "the API answered HTTP 429 Too Many Requests (Retry-After: 7; not retried): Rate limit reached for gpt-test",
			runErrors: "HTTP 429 Too Many Requests: Rate limit reached for gpt-test | rate_limit_exceeded", requests: 1},
		{name: "503 with retry-after-ms and a text body", api: APIResponses, stream: true,
			answer: func(w http.ResponseWriter, r request, n int) {
				w.Header().Set("Retry-After-Ms", "1500")
				w.WriteHeader(503)
				io.WriteString(w, "upstream\ndown")
			},
			err:       "the API answered HTTP 503 Service Unavailable (Retry-After: 1500 ms; not retried): upstream down",
			runErrors: "HTTP 503 Service Unavailable: upstream down | ", requests: 1},
		{name: "400 with an error object", api: APIResponses,
			answer: func(w http.ResponseWriter, r request, n int) {
				body(w, 400, `{"error":{"message":"The model 'gpt-test' does not exist","type":"invalid_request_error","code":"model_not_found"}}`)
			},
			runErrors: "HTTP 400 Bad Request: The model 'gpt-test' does not exist | model_not_found", requests: 1},
		{name: "an error chunk in a chat stream", api: APIChat, stream: true,
			answer: func(w http.ResponseWriter, r request, n int) {
				events(w, chunk(`{"content":"Hel"}`, "null"), `{"error":{"message":"The server is overloaded","type":"server_error"}}`)
			},
			runErrors: "The server is overloaded | server_error", text: "Hel", requests: 1},
		{name: "an error in a chat completion", api: APIChat,
			answer: func(w http.ResponseWriter, r request, n int) {
				body(w, 200, `{"error":{"message":"context length exceeded","code":400}}`)
			},
			runErrors: "context length exceeded | 400", requests: 1},
		{name: "a failed response", api: APIResponses, stream: true,
			answer: func(w http.ResponseWriter, r request, n int) {
				events(w, `{"type":"response.failed","response":{"id":"r1","status":"failed","error":{"code":"server_error","message":"The model failed"}}}`)
			},
			runErrors: "The model failed | server_error", requests: 1},
		{name: "an error event", api: APIResponses, stream: true,
			answer: func(w http.ResponseWriter, r request, n int) {
				events(w, `{"type":"error","code":"ERR_SOMETHING","message":"Something went wrong","param":null}`)
			},
			runErrors: "Something went wrong | ERR_SOMETHING", requests: 1},
		{name: "a chat refusal", api: APIChat, stream: true,
			answer: func(w http.ResponseWriter, r request, n int) {
				events(w, chunk(`{"refusal":"I can't help "}`, "null"), chunk(`{"refusal":"with that."}`, "null"), chunk(`{}`, `"stop"`), "[DONE]")
			},
			warnings: "refusal: the model refused: I can't help with that.", text: "I can't help with that.", requests: 1},
		{name: "a responses refusal", api: APIResponses,
			answer: func(w http.ResponseWriter, r request, n int) {
				body(w, 200, `{"id":"r1","status":"completed","output":[{"type":"message","id":"m1","content":[{"type":"refusal","refusal":"No."}]}]}`)
			},
			warnings: "refusal: the model refused: No.", text: "No.", requests: 1},
		{name: "a chat answer cut by the token limit", api: APIChat,
			answer: func(w http.ResponseWriter, r request, n int) {
				body(w, 200, `{"object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"The first"},"finish_reason":"length"}]}`)
			},
			warnings: "finish_reason: the answer was cut short: finish_reason length (the output token limit)", text: "The first", requests: 1},
		{name: "an incomplete response", api: APIResponses, stream: true,
			answer: func(w http.ResponseWriter, r request, n int) {
				events(w, `{"type":"response.output_text.delta","item_id":"m1","delta":"The first"}`,
					`{"type":"response.incomplete","response":{"id":"r1","status":"incomplete","incomplete_details":{"reason":"max_output_tokens"}}}`)
			},
			warnings: "incomplete: the response is incomplete: max_output_tokens", text: "The first", requests: 1},
		{name: "a call of a tool the test does not have", api: APIChat,
			answer: func(w http.ResponseWriter, r request, n int) {
				body(w, 200, `{"choices":[{"index":0,"message":{"content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"delete_all","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`)
			},
			failure: `the agent called "delete_all" (call c1), which is not a client tool declared in this test's tools: no result could be sent back`, requests: 1},
		{name: "a call no results entry matches", api: APIChat, answer: callAgain,
			opts: func(o *Options) {
				o.Answers["get_weather"] = func(string) (string, bool) { return "", false }
			},
			failure: `no results entry of client tool "get_weather" matches the arguments of call c0: {}`, requests: 1},
		{name: "calls past max_followups", api: APIChat, answer: callAgain, opts: func(o *Options) { o.MaxFollowups = 2 },
			failure: "the agent still called client tools after 2 follow-up requests (target.max_followups)", requests: 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, tc.answer)
			o := options(f.endpoint(), tc.api, tc.stream)
			if tc.opts != nil {
				tc.opts(&o)
			}
			p := play(t, New(o), "hi")
			if got := errText(p.err); got != tc.err {
				t.Errorf("error %q\nwant  %q", got, tc.err)
			}
			var se *StatusError
			if isStatus := errors.As(p.err, &se); isStatus != strings.HasPrefix(tc.err, "the API answered") {
				t.Errorf("error %v: a StatusError %v", p.err, isStatus)
			}
			tt := p.turn(0)
			var runErrors []string
			for _, e := range tt.RunErrors {
				runErrors = append(runErrors, e.Message+" | "+e.Code)
			}
			if got := strings.Join(runErrors, "\n"); got != tc.runErrors {
				t.Errorf("run errors %q\nwant       %q", got, tc.runErrors)
			}
			var warnings []string
			for _, w := range p.out[0].Warnings {
				warnings = append(warnings, w.Rule+": "+w.Message)
			}
			if got := strings.Join(warnings, "\n"); got != tc.warnings {
				t.Errorf("warnings %q\nwant     %q", got, tc.warnings)
			}
			if got := p.out[0].ClientFailure; got != tc.failure {
				t.Errorf("client failure %q\nwant           %q", got, tc.failure)
			}
			if got := tt.Text(); got != tc.text {
				t.Errorf("text %q, want %q", got, tc.text)
			}
			if n := len(f.requests()); n != tc.requests {
				t.Errorf("%d requests, want %d", n, tc.requests)
			}
			if len(tt.Runs) != tc.requests {
				t.Errorf("%d runs, want one a request (%d)", len(tt.Runs), tc.requests)
			}
		})
	}
}

// TestUnreachable: an API that does not answer at all.
func TestUnreachable(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r request, n int) {})
	f.srv.Close()
	p := play(t, New(options(f.endpoint(), APIChat, true)), "hi")
	if p.err == nil || !strings.HasPrefix(p.err.Error(), "the API did not answer: dial tcp") || strings.Contains(p.err.Error(), "/v1/chat") {
		t.Errorf("error %v; want the API did not answer: dial tcp …, without the URL", p.err)
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
