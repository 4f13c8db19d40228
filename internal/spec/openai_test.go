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

func TestOpenAITarget(t *testing.T) {
	tg := mustConfig(t, `version: "1.2"
target:
  type: openai
  endpoint: "http://127.0.0.1:4010/v1"
  api: responses
  model: "${ENV.MODEL}"
  stream: false
  instructions: You are the shop's assistant.
  body: {temperature: 0, metadata: {team: qa}}
  headers: {X-Team: qa}
  auth: {scheme: bearer, token: "${ENV.OPENAI_API_KEY}"}
  max_followups: 3
  timeout_ms: 30000
`).Target
	o := tg.OpenAI
	if tg.Type != TargetOpenAI || o == nil || tg.A2A != nil || tg.MCP != nil || tg.TimeoutMs != 30000 || tg.MaxFollowups != 3 || len(tg.Headers) != 1 {
		t.Fatalf("target = %+v", tg)
	}
	if o.API != APIResponses || o.Model.Refs()[0].Name != "MODEL" || o.Stream || o.Instructions.Raw != "You are the shop's assistant." || o.Body.IsZero() || o.Pos.Line != 3 {
		t.Errorf("openai = %+v", o)
	}
	if au := o.Auth; au == nil || au.Scheme != AuthBearer || au.Token.Refs()[0].Name != "OPENAI_API_KEY" {
		t.Errorf("auth = %+v", o.Auth)
	}
	// the defaults: chat, streamed, 8 follow-ups; no AG-UI defaults
	tg = mustConfig(t, "version: \"1.0\"\ntarget: {type: openai, endpoint: \"http://x/v1\", model: m, auth: {scheme: apiKey, value: k, name: api-key}}\n").Target
	if o := tg.OpenAI; o.API != APIChat || !o.Stream || tg.MaxFollowups != DefaultMaxFollowups || tg.ProtocolVersion != "" || o.Auth.Name != "api-key" {
		t.Errorf("defaults: %+v %+v", tg, o)
	}
}

// TestOpenAITargetErrors: every problem of an openai target, at its
// position.
func TestOpenAITargetErrors(t *testing.T) {
	const head = "version: \"1.2\"\ntarget:\n  type: openai\n"
	const ok = "  endpoint: \"http://x/v1\"\n  model: m\n"
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"no endpoint nor model", head,
			[]string{`3:3: target (type openai) is missing required field "endpoint"`, `3:3: target (type openai) is missing required field "model"`}},
		{"an api it does not speak", head + ok + "  api: response\n",
			[]string{`6:8: target.api "response" is not one of chat, responses (did you mean "responses"?)`}},
		{"an empty model", head + "  endpoint: \"http://x/v1\"\n  model: \"\"\n",
			[]string{"5:10: target.model must not be empty"}},
		{"a body that is not a mapping", head + ok + "  body: [1]\n",
			[]string{"6:9: target.body must be a mapping, not a list"}},
		{"a body that sets Ananke's fields", head + ok + "  body: {temperature: 0, model: other, tools: [], stream_options: {}}\n",
			[]string{"6:26: target.body: model is set by Ananke (from target.model); it cannot be replaced",
				"6:40: target.body: tools is set by Ananke (from the test's client tools); it cannot be replaced",
				"6:51: target.body: stream_options is set by Ananke; it cannot be replaced"}},
		{"stream not a boolean", head + ok + "  stream: sometimes\n",
			[]string{"6:11: target.stream must be true or false, not a string"}},
		{"oauth2", head + ok + "  auth: {scheme: oauth2, clientId: c, clientSecret: s}\n",
			[]string{"6:18: auth scheme oauth2 is not supported (bearer, apiKey); get a token in a before_all hook and send it with scheme: bearer"}},
		{"an apiKey in the query", head + ok + "  auth: {scheme: apiKey, value: k, in: query}\n",
			[]string{`6:40: target.auth.in "query": this target sends its key in a header (in: header)`}},
		{"a misspelt field", head + ok + "  modle: m\n",
			[]string{`6:3: unknown field "modle" in target (did you mean "model"?)`}},
		{"fields of other types", head + ok + "  agentId: a\n  transport: http\n",
			[]string{"6:3: target: agentId is an agui field; this target is openai", "7:3: target: transport is an mcp field; this target is openai"}},
		{"max_followups out of range", head + ok + "  max_followups: -1\n",
			[]string{"6:18: target.max_followups must be between 0 and 1000, got -1"}},
		{"openai fields on agui", "version: \"1.2\"\ntarget: {type: agui, endpoint: \"http://x\", agentId: a, model: m}\n",
			[]string{"2:56: target: model is an openai field; this target is agui"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := parseConfig(t, tc.src)
			checkDiags(t, diagLines(diags.Sorted(), "ananke.config.yaml:"), tc.want)
		})
	}
}

// TestOpenAITurns: an openai target plays user turns, with history,
// client tools and a simulated user; other turn types are errors at
// their type.
func TestOpenAITurns(t *testing.T) {
	const config = "version: \"1.2\"\ntarget: {type: openai, endpoint: \"http://x/v1\", model: m}\nmodel: {endpoint: \"http://x/v1\", name: m}\n"
	dir := writeFiles(t, map[string]string{
		"ananke.config.yaml": config,
		"ok.ananke.yaml": "version: \"1.2\"\nname: ok\nhistory: [{role: system, content: be brief}]\ntools: [{name: t, result: ok}]\n" +
			"turns:\n  - user: hi\n  - {type: user, user: again}\n",
		"sim.ananke.yaml": "version: \"1.2\"\nname: sim\nsimulator: {goal: g}\ncheckpoints: [{id: c, assert: {text: {contains: x}}}]\n",
	})
	if _, err := Load(Options{ConfigPath: filepath.Join(dir, "ananke.config.yaml")}); err != nil {
		t.Fatalf("Load: %v", err)
	}
	dir = writeFiles(t, map[string]string{
		"ananke.config.yaml": config,
		"t.ananke.yaml":      "version: \"1.2\"\nname: t\nturns:\n  - type: agui:connect\n  - resume: approve\n  - {type: mcp:call, tool: x}\n",
	})
	_, err := Load(Options{ConfigPath: filepath.Join(dir, "ananke.config.yaml")})
	var diags diag.Diagnostics
	if !errors.As(err, &diags) {
		t.Fatalf("Load = %v; want diagnostics", err)
	}
	checkDiags(t, diagLines(diags, filepath.Join(dir, "t.ananke.yaml")+":"), []string{
		"4:11: turn type agui:connect needs an agui target; the config's target is openai",
		"5:5: turn type resume needs an agui target; the config's target is openai",
		"6:12: turn type mcp:call needs an mcp target; the config's target is openai",
	})
}

// TestSchemaOpenAI: the published config schema accepts the openai
// targets the loader accepts, and rejects what it rejects.
func TestSchemaOpenAI(t *testing.T) {
	schema := compileSchema(t, "config")
	for _, tc := range []struct {
		name, target string
		ok           bool
	}{
		{"every field", `{type: openai, endpoint: "http://x/v1", api: responses, model: m, stream: false, instructions: i, body: {temperature: 0}, headers: {A: b}, auth: {scheme: apiKey, value: k, name: api-key}, max_followups: 2, timeout_ms: 100}`, true},
		{"the least", `{type: openai, endpoint: "http://x/v1", model: m}`, true},
		{"no model", `{type: openai, endpoint: "http://x/v1"}`, false},
		{"no endpoint", `{type: openai, model: m}`, false},
		{"an empty model", `{type: openai, endpoint: "http://x/v1", model: ""}`, false},
		{"another api", `{type: openai, endpoint: "http://x/v1", model: m, api: completions}`, false},
		{"a body that sets the model", `{type: openai, endpoint: "http://x/v1", model: m, body: {model: other}}`, false},
		{"a body that is a list", `{type: openai, endpoint: "http://x/v1", model: m, body: [1]}`, false},
		{"oauth2", `{type: openai, endpoint: "http://x/v1", model: m, auth: {scheme: oauth2, clientId: c, clientSecret: s}}`, false},
		{"an apiKey in the query", `{type: openai, endpoint: "http://x/v1", model: m, auth: {scheme: apiKey, value: k, in: query}}`, false},
		{"an agui field", `{type: openai, endpoint: "http://x/v1", model: m, agentId: a}`, false},
		{"openai fields on agui", `{type: agui, endpoint: "http://x", agentId: a, model: m}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var v any
			if err := yaml.Unmarshal([]byte("version: \"1.2\"\ntarget: "+tc.target+"\n"), &v); err != nil {
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
