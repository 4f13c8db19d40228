package scaffold

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

// fakeAPI serves one answer (status, content type, body) on every path
// and keeps the requests: "METHOD PATH BODY".
func fakeAPI(t *testing.T, status int, contentType, body string) (*httptest.Server, *[]string) {
	t.Helper()
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got = append(got, strings.TrimSpace(r.Method+" "+r.URL.Path+" "+string(b)))
		w.Header().Set("Content-Type", contentType)
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv, &got
}

func TestProbeOpenAI(t *testing.T) {
	const js = "application/json"
	tests := []struct {
		name, api         string
		status            int
		contentType, body string
		wantRequest       string
		wantReply         string
		wantTools         []string
		wantErr           string
		wrongPath         bool
	}{
		{"chat", "chat", 200, js, `{"choices":[{"message":{"role":"assistant","content":"Hi there."},"finish_reason":"stop"}]}`,
			`POST /v1/chat/completions {"messages":[{"content":"Hello","role":"user"}],"model":"m","stream":false}`, "Hi there.", nil, "", false},
		{"chat, a refusal", "chat", 200, js, `{"choices":[{"message":{"role":"assistant","content":null,"refusal":"No."},"finish_reason":"stop"}]}`,
			"", "No.", nil, "", false},
		{"chat, a tool call", "chat", 200, js, `{"choices":[{"message":{"content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"lookup","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`,
			"", "", []string{"lookup"}, `the model called "lookup" and no result came back`, false},
		{"chat, no text", "chat", 200, js, `{"choices":[{"message":{"content":""},"finish_reason":"length"}]}`,
			"", "", nil, "the model sent no text (finish_reason length)", false},
		{"chat, no choices", "chat", 200, js, `{"choices":[]}`, "", "", nil, "the completion has no choices", false},
		{"responses", "responses", 200, js, `{"status":"completed","output":[{"type":"message","content":[{"type":"output_text","text":"Hi "},{"type":"output_text","text":"there."}]}]}`,
			`POST /v1/responses {"input":"Hello","model":"m","stream":false}`, "Hi there.", nil, "", false},
		{"responses, a call", "responses", 200, js, `{"status":"completed","output":[{"type":"function_call","name":"lookup","call_id":"c","arguments":"{}"}]}`,
			"", "", []string{"lookup"}, `the model called "lookup"`, false},
		{"responses, failed", "responses", 200, js, `{"status":"failed","error":{"code":"server_error","message":"overloaded"},"output":[]}`,
			"", "", nil, "the response failed: overloaded", false},
		{"an error object", "chat", 401, js, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}`,
			"", "", nil, "/v1/chat/completions answered HTTP 401: Incorrect API key provided", false},
		{"not found", "chat", 404, "text/plain", "404 page not found", "", "", nil, "answered HTTP 404: 404 page not found", true},
		{"not JSON", "responses", 200, "text/html", "<html>hi</html>", "", "", nil, `/v1/responses answered with text/html, not JSON: "<html>hi</html>"`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv, reqs := fakeAPI(t, tc.status, tc.contentType, tc.body)
			o := OpenAIProbe{HTTP: srv.Client(), Endpoint: srv.URL + "/v1/", API: tc.api, Model: "m"}.Probe(context.Background(), "Hello")
			if o.Reply != tc.wantReply || !slices.Equal(o.Tools, tc.wantTools) {
				t.Errorf("reply %q, tools %q; want %q, %q", o.Reply, o.Tools, tc.wantReply, tc.wantTools)
			}
			if got := errString(o.Err); tc.wantErr == "" && got != "" || !strings.Contains(got, tc.wantErr) {
				t.Errorf("error %q; want %q", got, tc.wantErr)
			}
			if WrongPath(o.Err) != tc.wrongPath {
				t.Errorf("WrongPath(%v) = %v", o.Err, !tc.wrongPath)
			}
			if len(*reqs) != 1 || tc.wantRequest != "" && (*reqs)[0] != tc.wantRequest {
				t.Errorf("requests %q; want one: %q", *reqs, tc.wantRequest)
			}
		})
	}
}

func TestProbeOpenAIModels(t *testing.T) {
	srv, reqs := fakeAPI(t, 200, "application/json", `{"object":"list","data":[{"id":"gpt-4o-mini","object":"model"},{"id":"o3","object":"model"}]}`)
	ids, err := OpenAIProbe{HTTP: srv.Client(), Endpoint: srv.URL + "/v1"}.Models(context.Background())
	if err != nil || !slices.Equal(ids, []string{"gpt-4o-mini", "o3"}) || !slices.Equal(*reqs, []string{"GET /v1/models"}) {
		t.Errorf("Models = %q, %v after %q; want the two ids from GET /v1/models", ids, err, *reqs)
	}
	srv, _ = fakeAPI(t, 404, "application/json", `{"error":"no such route"}`)
	if _, err := (OpenAIProbe{HTTP: srv.Client(), Endpoint: srv.URL + "/v1"}).Models(context.Background()); err == nil || !strings.Contains(err.Error(), "GET "+srv.URL+"/v1/models answered HTTP 404: no such route") {
		t.Errorf("Models of a 404: %v", err)
	}
}

func TestProbeHTTP(t *testing.T) {
	tests := []struct {
		name, body           string
		wantText, wantConvID string
		wantReply, wantErr   string
	}{
		{"the example agent's", `{"session_id":"session_1","reply":"Hi.","tool_calls":[],"usage":{"in":1,"out":2}}`, "$.reply", "$.session_id", "Hi.", ""},
		{"the preferred key first", `{"message":"ok","answer":"Hi.","conversationId":7}`, "$.answer", "$.conversationId", "Hi.", ""},
		{"nested, shallowest first", `{"data":{"output":{"text":"deep"},"reply":"Hi."}}`, "$.data.reply", "", "Hi.", ""},
		{"an array's first element", `{"messages":[{"role":"assistant","content":"Hi."}],"thread_id":"t1"}`, "$.messages[0].content", "$.thread_id", "Hi.", ""},
		{"OpenAI's shape", `{"choices":[{"message":{"role":"assistant","content":"Hi."}}]}`, "$.choices[0].message.content", "", "Hi.", ""},
		{"a name that is no identifier", `{"my-result":{"text":"Hi."}}`, "$['my-result'].text", "", "Hi.", ""},
		{"no reply", `{"status":"ok","n":1}`, "", "", "", `no reply found in the answer (none of reply, response, answer, output, text, content, message, result holds a string): {"n":1,"status":"ok"}`},
		{"an empty reply", `{"reply":""}`, "$.reply", "", "", "the reply at $.reply is empty"},
		{"not a string", `{"reply":{"n":1}}`, "", "", "", "no reply found"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv, reqs := fakeAPI(t, 200, "application/json", tc.body)
			o, shape := ProbeHTTP(context.Background(), srv.Client(), srv.URL+"/chat", "Hello")
			if shape.Text != tc.wantText || shape.ConversationID != tc.wantConvID || o.Reply != tc.wantReply {
				t.Errorf("shape %+v, reply %q; want %q %q %q", shape, o.Reply, tc.wantText, tc.wantConvID, tc.wantReply)
			}
			if got := errString(o.Err); tc.wantErr == "" && got != "" || !strings.Contains(got, tc.wantErr) {
				t.Errorf("error %q; want %q", got, tc.wantErr)
			}
			if !slices.Equal(*reqs, []string{`POST /chat {"message":"Hello"}`}) {
				t.Errorf("requests %q", *reqs)
			}
		})
	}
	srv, _ := fakeAPI(t, 405, "application/json", `{"message":"method not allowed"}`)
	if o, _ := ProbeHTTP(context.Background(), srv.Client(), srv.URL+"/chat", "Hello"); !WrongPath(o.Err) || !strings.Contains(o.Err.Error(), "POST "+srv.URL+"/chat answered HTTP 405: method not allowed") {
		t.Errorf("a 405: %v; want a wrong path naming the request", o.Err)
	}
}

func TestErrorMessage(t *testing.T) {
	for body, want := range map[string]string{
		`{"error":{"message":"bad key","type":"x"}}`: "bad key",
		`{"error":"rate limited"}`:                   "rate limited",
		`{"message":"nope"}`:                         "nope",
		`{"detail":"x"}`:                             "x",
		"plain\ntext":                                "plain text",
		"":                                           "",
	} {
		if got := errorMessage([]byte(body)); got != want {
			t.Errorf("errorMessage(%q) = %q; want %q", body, got, want)
		}
	}
	if got := (&StatusError{Method: "GET", URL: "u", Status: 500}).Error(); got != "GET u answered HTTP 500 with an empty body" {
		t.Errorf("StatusError = %q", got)
	}
}
