package spec

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/diag"
)

// httpConfig is the http target docs/http.md shows.
const httpConfig = `version: "1.2"
target:
  type: http
  endpoint: "http://127.0.0.1:8080/chat/${conversation_id}"
  method: PUT
  headers: {X-Team: qa}
  auth: {scheme: bearer, token: "${ENV.API_TOKEN}"}
  body:
    session: "${conversation_id}"
    message: "${message}"
    history: "${messages}"
    turn: "${turn}"
  response:
    text: $.reply
    conversation_id: /session_id
    error: $.error
    tool_calls: {path: "$.tool_calls[*]", name: $.name, arguments: $.args, result: $.output, id: $.id}
    input_tokens: $.usage.in
    output_tokens: $.usage.out
  timeout_ms: 5000
`

func TestHTTPTarget(t *testing.T) {
	tg := mustConfig(t, httpConfig).Target
	h := tg.HTTP
	if tg.Type != TargetHTTP || h == nil || tg.A2A != nil || tg.MCP != nil || tg.TimeoutMs != 5000 || len(tg.Headers) != 1 {
		t.Fatalf("target = %+v", tg)
	}
	if h.Method != "PUT" || h.Body.IsZero() || h.Auth == nil || h.Auth.Scheme != AuthBearer || h.Stream != nil {
		t.Errorf("http = %+v", h)
	}
	want := HTTPResponse{Pos: diag.Pos{File: "ananke.config.yaml", Line: 14, Col: 5}, Text: "$.reply", ConversationID: "/session_id", Error: "$.error",
		ToolCalls:   &HTTPToolCalls{Pos: diag.Pos{File: "ananke.config.yaml", Line: 17, Col: 17}, Path: "$.tool_calls[*]", Name: "$.name", Arguments: "$.args", Result: "$.output", ID: "$.id"},
		InputTokens: "$.usage.in", OutputTokens: "$.usage.out"}
	if r := h.Response; r.Pos != want.Pos || r.Text != want.Text || r.ConversationID != want.ConversationID || r.Error != want.Error ||
		*r.ToolCalls != *want.ToolCalls || r.InputTokens != want.InputTokens || r.OutputTokens != want.OutputTokens {
		t.Errorf("response = %+v %+v", r, r.ToolCalls)
	}
	// The per-turn variables are the session's: the target references the
	// token alone.
	refs := tg.refs()
	if len(refs) != 1 || refs[0].Name != "API_TOKEN" || !refs[0].Env {
		t.Errorf("refs = %v; want ${ENV.API_TOKEN} alone", refs)
	}

	tg = mustConfig(t, `version: "1.2"
target:
  type: http
  endpoint: "http://127.0.0.1:8080/chat?q=${message}"
  method: GET
  stream: {text: $.delta, done: "[DONE]"}
`).Target
	if h := tg.HTTP; h.Method != "GET" || !h.Body.IsZero() || h.Stream == nil || h.Stream.Text != "$.delta" || h.Stream.Done != "[DONE]" || h.Response.Text != "" {
		t.Errorf("http = %+v %+v", h, h.Stream)
	}
	// Beside a stream, response.text may stay (one mapping for an API that
	// streams or not): checked, not required.
	tg = mustConfig(t, "version: \"1.2\"\ntarget: {type: http, endpoint: \"http://x/${message}\", stream: {text: $.d}, response: {text: $.r, error: $.e}}\n").Target
	if h := tg.HTTP; h.Stream.Text != "$.d" || h.Response.Text != "$.r" || h.Response.Error != "$.e" {
		t.Errorf("http = %+v %+v", h, h.Stream)
	}
	// AG-UI defaults do not apply.
	if tg.ProtocolVersion != "" || tg.MaxFollowups != 0 {
		t.Errorf("agui defaults on an http target: %q %d", tg.ProtocolVersion, tg.MaxFollowups)
	}
	if h := mustConfig(t, "version: \"1.2\"\ntarget: {type: http, endpoint: \"http://x/chat\", body: {m: \"${message}\"}, response: {text: $}}\n").Target.HTTP; h.Method != "POST" {
		t.Errorf("method %q; want POST by default", h.Method)
	}
}

func TestHTTPTargetErrors(t *testing.T) {
	const head = "version: \"1.2\"\ntarget:\n  type: http\n"
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"nothing", head,
			[]string{`3:3: target (type http) is missing required field "endpoint"`,
				`3:3: target (type http) is missing required field "response" (where the reply is: response: {text: $.reply})`}},
		{"no text", head + "  endpoint: \"http://x/${message}\"\n  response: {error: $.e}\n",
			[]string{`5:13: target.response is missing required field "text"`}},
		{"bad paths", head + "  endpoint: \"http://x/${message}\"\n  response:\n    text: $.user-id\n    error: \"$..e\"\n    conversation_id: 'reply'\n    input_tokens: /a~2\n    tool_calls: {path: \"$.calls[0:1]\", arguments: $.a}\n",
			[]string{`6:17: target.response.text "$.user-id": '-' cannot be in a member name shorthand: write ['user-id'] for a name of any characters`,
				`7:14: target.response.error "$..e": recursive descent (..) is not supported: write each step ($.a.b)`,
				`8:22: target.response.conversation_id "reply": a path starts with $ (JSONPath, $.reply) or / (JSON Pointer, /reply), not 'r'`,
				`9:21: target.response.input_tokens "/a~2": ~ must be followed by 0 (for ~) or 1 (for /) in a JSON Pointer`,
				`10:17: target.response.tool_calls is missing required field "name"`,
				`10:34: target.response.tool_calls.path "$.calls[0:1]": slices ([start:end]) are not supported: write [*] or one index`}},
		{"bad fields", head + "  endpoint: \"http://x/${message}\"\n  method: post\n  body: [1]\n  response: {text: $.r, txt: $.t}\n  stream: {done: \"\"}\n",
			[]string{`5:11: target.method "post" is not one of POST, PUT, PATCH, GET, DELETE; write POST`,
				`6:9: target.body must be a mapping, not a list`,
				`7:25: unknown field "txt" in target.response (did you mean "text"?)`,
				`8:11: target.stream is missing required field "text"`,
				`8:18: target.stream.done must not be empty: leave it out to read to the end of the body, or write the data that ends the stream ("[DONE]")`}},
		{"message sent nowhere", head + "  endpoint: \"http://x/chat\"\n  body: {q: hi}\n  response: {text: $.r}\n",
			[]string{`5:3: target (type http) sends the user's message nowhere: put ${message} (or ${messages}) in target.body or target.endpoint`}},
		{"GET with a body", head + "  endpoint: \"http://x/chat\"\n  method: GET\n  body: {q: \"${message}\"}\n  response: {text: $.r}\n",
			[]string{`6:3: target.body: a GET request sends no body; use method POST, or put ${message} in the endpoint's query`}},
		{"messages in the endpoint", head + "  endpoint: \"http://x/chat?h=${messages}\"\n  response: {text: $.r}\n",
			[]string{`4:30: target.endpoint cannot hold ${messages}, the conversation as JSON: put it in target.body`}},
		{"not a URL", head + "  endpoint: \"x/chat/${conversation_id}\"\n  body: {q: \"${message}\"}\n  response: {text: $.r}\n",
			[]string{`4:13: target.endpoint "x/chat/${conversation_id}" is not an http:// or https:// URL`}},
		{"per-turn in headers and auth", head + "  endpoint: \"http://x/${message}\"\n  headers: {X-Session: \"${conversation_id}\"}\n  auth: {scheme: apiKey, value: \"${turn}\"}\n  response: {text: $.r}\n",
			[]string{`5:24: ${conversation_id} is set per turn, in target.endpoint and target.body only; headers and auth are resolved once, before the first turn`,
				`6:33: ${turn} is set per turn, in target.endpoint and target.body only; headers and auth are resolved once, before the first turn`}},
		{"oauth2", head + "  endpoint: \"http://x/${message}\"\n  auth: {scheme: oauth2, clientId: c, clientSecret: s}\n  response: {text: $.r}\n",
			[]string{`5:18: auth scheme oauth2 is not supported (apiKey, bearer); get a token in a before_all hook and send it with scheme: bearer`}},
		{"server without ready_url", head + "  endpoint: \"http://x/chat/${conversation_id}\"\n  body: {q: \"${message}\"}\n  response: {text: $.r}\n  server: {command: [srv]}\n",
			[]string{`7:11: target.server needs ready_url: the endpoint holds a per-turn variable, so it says where the agent is only once a turn runs`}},
		{"http fields on agui", "version: \"1.2\"\ntarget:\n  type: agui\n  endpoint: \"http://x/agent\"\n  agentId: a\n  response: {text: $.r}\n",
			[]string{"6:3: target: response is an http field; this target is agui"}},
		{"unknown type", "version: \"1.2\"\ntarget:\n  type: grpc\n  response: {text: $.user-id}\n",
			[]string{`3:9: target.type "grpc" is not supported (supported: "agui", "a2a", "mcp", "openai", "http")`,
				`4:26: target.response.text "$.user-id": '-' cannot be in a member name shorthand: write ['user-id'] for a name of any characters`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := parseConfig(t, tc.src)
			checkDiags(t, diagLines(diags.Sorted(), "ananke.config.yaml:"), tc.want)
		})
	}
}

// TestHTTPTests: a test of an http target may use the per-turn variables
// nowhere but the target, sends no files, and its history reaches the
// agent only in ${messages}.
func TestHTTPTests(t *testing.T) {
	const (
		withMessages = "version: \"1.2\"\ntarget:\n  type: http\n  endpoint: \"http://x/chat\"\n  body: {history: \"${messages}\"}\n  response: {text: $.r}\n"
		withMessage  = "version: \"1.2\"\ntarget:\n  type: http\n  endpoint: \"http://x/chat/${conversation_id}\"\n  body: {q: \"${message}\", n: \"${turn}\"}\n  response: {text: $.r}\n  headers: {X-Env: \"${ENV.X}\"}\n"
	)
	for _, tc := range []struct {
		name, config, test string
		want               []string
	}{
		{"history and per-turn variables", withMessages, "history:\n  - {role: user, content: hi}\n  - {role: assistant, content: hello}\nturns:\n  - user: \"${message}\"\n", []string{
			"7:11: unknown variable ${message}: this test has no hooks to set it (environment variables are ${ENV.NAME})"}},
		{"history not sent", withMessage, "history:\n  - {role: user, content: hi}\nturns:\n  - user: hi\n", []string{
			"4:5: history reaches an http target only in ${messages}, which target.body does not hold"}},
		{"files", withMessage, "turns:\n  - user:\n      - {type: text, text: look}\n      - {type: file, source: \"file://f.txt\"}\n", []string{
			"6:9: an http target sends text only (${message}); files need an agui or a2a target"}},
		{"other turn types", withMessage, "turns:\n  - type: agui:connect\n", []string{
			"4:11: turn type agui:connect needs an agui target; the config's target is http"}},
		{"fine", withMessage, "turns:\n  - user: hi\n  - user: again\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{
				"ananke.config.yaml": tc.config,
				"t.ananke.yaml":      "version: \"1.2\"\nname: t\n" + tc.test,
				"f.txt":              "text",
			})
			_, err := Load(Options{ConfigPath: filepath.Join(dir, "ananke.config.yaml")})
			var ds diag.Diagnostics
			if !errors.As(err, &ds) && err != nil {
				t.Fatal(err)
			}
			checkDiags(t, diagLines(ds.Sorted(), filepath.Join(dir, "t.ananke.yaml")+":"), tc.want)
		})
	}
}

// TestSchemaHTTP: the published schema accepts the http target the
// loader accepts, and rejects what it rejects.
func TestSchemaHTTP(t *testing.T) {
	schema := compileSchema(t, "config")
	for _, tc := range []struct {
		name, src string
		ok        bool
	}{
		{"the docs' target", httpConfig, true},
		{"a stream alone", "version: \"1.2\"\ntarget: {type: http, endpoint: \"http://x/${message}\", stream: {text: $.d, done: \"[DONE]\"}}\n", true},
		{"no response", "version: \"1.2\"\ntarget: {type: http, endpoint: \"http://x/${message}\"}\n", false},
		{"a response without text", "version: \"1.2\"\ntarget: {type: http, endpoint: \"http://x/${message}\", response: {error: $.e}}\n", false},
		{"a stream beside a response without text", "version: \"1.2\"\ntarget: {type: http, endpoint: \"http://x/${message}\", response: {error: $.e}, stream: {text: $.d}}\n", true},
		{"no endpoint", "version: \"1.2\"\ntarget: {type: http, response: {text: $.r}}\n", false},
		{"a path that is no path", "version: \"1.2\"\ntarget: {type: http, endpoint: \"http://x\", response: {text: reply}}\n", false},
		{"tool calls without a name", "version: \"1.2\"\ntarget: {type: http, endpoint: \"http://x\", response: {text: $.r, tool_calls: {path: $.c}}}\n", false},
		{"lower-case method", "version: \"1.2\"\ntarget: {type: http, endpoint: \"http://x\", method: post, response: {text: $.r}}\n", false},
		{"oauth2", "version: \"1.2\"\ntarget: {type: http, endpoint: \"http://x\", response: {text: $.r}, auth: {scheme: oauth2, clientId: c, clientSecret: s}}\n", false},
		{"an agui field", "version: \"1.2\"\ntarget: {type: http, endpoint: \"http://x\", response: {text: $.r}, agentId: a}\n", false},
		{"http fields on agui", "version: \"1.2\"\ntarget: {type: agui, endpoint: \"http://x\", agentId: a, response: {text: $.r}}\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var v any
			if err := yaml.Unmarshal([]byte(tc.src), &v); err != nil {
				t.Fatal(err)
			}
			js, _ := json.Marshal(v)
			doc, _ := jsonschema.UnmarshalJSON(bytes.NewReader(js))
			if err := schema.Validate(doc); (err == nil) != tc.ok {
				t.Errorf("Validate = %v; want ok %v", err, tc.ok)
			}
		})
	}
}
