package spec

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/vars"
)

func TestA2ATarget(t *testing.T) {
	tg := mustConfig(t, `version: "1.1"
target:
  type: a2a
  agentCardUrl: "https://agent.example/.well-known/agent-card.json"
  contextId: "${ENV.CTX}"
  blocking: true
  acceptedOutputModes: [text/plain, application/json]
  headers: {X-Client: ananke}
  timeout_ms: 5000
  auth: {scheme: apiKey, value: "${ENV.KEY}", in: query, name: key}
`).Target
	a := tg.A2A
	if tg.Type != TargetA2A || a == nil || tg.MCP != nil || tg.TimeoutMs != 5000 || len(tg.Headers) != 1 {
		t.Fatalf("target = %+v", tg)
	}
	if a.AgentCardURL.Raw != "https://agent.example/.well-known/agent-card.json" || a.ContextID.Refs()[0].Name != "CTX" ||
		a.Blocking == nil || !*a.Blocking || !slices.Equal(a.AcceptedOutputModes, []string{"text/plain", "application/json"}) {
		t.Errorf("a2a = %+v", a)
	}
	if au := a.Auth; au == nil || au.Scheme != AuthAPIKey || au.Name != "key" || au.In != "query" || au.Value.Refs()[0].Name != "KEY" || au.Pos.Line != 10 {
		t.Errorf("auth = %+v", a.Auth)
	}
	// AG-UI defaults do not apply to other types.
	if tg.ProtocolVersion != "" || tg.MaxFollowups != 0 {
		t.Errorf("agui defaults on an a2a target: %q %d", tg.ProtocolVersion, tg.MaxFollowups)
	}

	tg = mustConfig(t, `version: "1.2"
target:
  type: a2a
  agentCard: {name: shop, url: "http://localhost:9999/a2a"}
  auth: {scheme: bearer, token: "${ENV.TOKEN}"}
`).Target
	if tg.A2A.AgentCard.IsZero() || tg.A2A.Auth.Scheme != AuthBearer || tg.A2A.Auth.Token.Refs()[0].Name != "TOKEN" || tg.A2A.Blocking != nil {
		t.Errorf("a2a = %+v", tg.A2A)
	}
	tg = mustConfig(t, "version: \"1.1\"\ntarget: {type: a2a, endpoint: \"http://localhost:9999/a2a\", auth: {scheme: apiKey, value: k}}\n").Target
	if tg.Endpoint.Raw != "http://localhost:9999/a2a" || tg.A2A.Auth.Name != DefaultAPIKeyName || tg.A2A.Auth.In != "header" {
		t.Errorf("a2a endpoint/auth defaults = %q %+v", tg.Endpoint.Raw, tg.A2A.Auth)
	}
	if tg.A2A.ToolTrace {
		t.Error("tool_trace is on by default")
	}
	if tg = mustConfig(t, "version: \"1.1\"\ntarget: {type: a2a, endpoint: \"http://x/a2a\", tool_trace: true}\n").Target; !tg.A2A.ToolTrace {
		t.Error("tool_trace: true not read")
	}
}

func TestMCPTarget(t *testing.T) {
	tg := mustConfig(t, `version: "1.2"
target:
  type: mcp
  transport: stdio
  command: [npx, -y, "@modelcontextprotocol/server-everything"]
  env: {API_KEY: "${ENV.KEY}"}
  cwd: tools
  timeout_ms: 10000
`).Target
	m := tg.MCP
	if tg.Type != TargetMCP || m == nil || tg.A2A != nil || m.Transport != MCPStdio || len(m.Command) != 3 || m.Command[2].Raw != "@modelcontextprotocol/server-everything" ||
		m.Env[0].Name != "API_KEY" || m.Cwd.Raw != "tools" || tg.TimeoutMs != 10000 {
		t.Errorf("mcp = %+v %+v", tg, m)
	}
	for tr, want := range map[string]string{"http": MCPHTTP, "streamable-http": MCPHTTP, "sse": MCPSSE} {
		tg = mustConfig(t, "version: \"1.2\"\ntarget: {type: mcp, transport: "+tr+", endpoint: \"http://localhost:3001/mcp\", headers: {Authorization: x}}\n").Target
		if tg.MCP.Transport != want || tg.Endpoint.Raw != "http://localhost:3001/mcp" {
			t.Errorf("transport %s = %+v", tr, tg.MCP)
		}
	}
}

// TestTargetErrors: every problem of a target, at its position.
func TestTargetErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"a2a in 1.0", "version: \"1.0\"\ntarget: {type: a2a, endpoint: \"http://x/a2a\"}\n",
			[]string{`2:16: target type a2a needs version "1.1" or later; this file says "1.0"`}},
		{"mcp in 1.1", "version: \"1.1\"\ntarget: {type: mcp, transport: stdio, command: [srv]}\n",
			[]string{`2:16: target type mcp needs version "1.2" or later; this file says "1.1"`}},
		{"unknown type", "version: \"1.2\"\ntarget: {type: grpc}\n",
			[]string{`2:16: target.type "grpc" is not supported (supported: "agui", "a2a", "mcp", "openai", "http")`}},
		{"agui fields on a2a", "version: \"1.1\"\ntarget:\n  type: a2a\n  endpoint: \"http://x/a2a\"\n  agentId: a\n  max_followups: 2\n",
			[]string{"5:3: target: agentId is an agui field; this target is a2a", "6:3: target: max_followups is an agui or openai field; this target is a2a"}},
		{"mcp fields on agui", "version: \"1.2\"\ntarget:\n  type: agui\n  endpoint: \"http://x/agent\"\n  agentId: a\n  transport: stdio\n",
			[]string{"6:3: target: transport is an mcp field; this target is agui"}},
		{"a2a fields on mcp", "version: \"1.2\"\ntarget:\n  type: mcp\n  transport: stdio\n  command: [srv]\n  contextId: c\n",
			[]string{"6:3: target: contextId is an a2a field; this target is mcp"}},
		{"tool_trace on agui", "version: \"1.2\"\ntarget:\n  type: agui\n  endpoint: \"http://x/agent\"\n  agentId: a\n  tool_trace: true\n",
			[]string{"6:3: target: tool_trace is an a2a field; this target is agui"}},
		{"tool_trace not a boolean", "version: \"1.1\"\ntarget: {type: a2a, endpoint: \"http://x/a2a\", tool_trace: yes please}\n",
			[]string{"2:59: target.tool_trace must be true or false, not a string"}},
		{"unknown field lists the type's", "version: \"1.2\"\ntarget: {type: mcp, transport: stdio, command: [srv], zzz: 1}\n",
			[]string{`2:55: unknown field "zzz" in target; known fields: type, headers, timeout_ms, assert, endpoint, server, transport, command, env, cwd, auth`}},
		{"mcp stdio auth", "version: \"1.2\"\ntarget: {type: mcp, transport: stdio, command: [srv], auth: {scheme: bearer, token: t}}\n",
			[]string{"2:55: target: auth is for transport http and sse; this target's transport is stdio"}},
		{"mcp apiKey in query", "version: \"1.2\"\ntarget: {type: mcp, transport: http, endpoint: \"http://x/mcp\", auth: {scheme: apiKey, value: k, in: query}}\n",
			[]string{`2:101: target.auth.in "query": this target sends its key in a header (in: header)`}},
		{"auth on agui", "version: \"1.2\"\ntarget: {type: agui, endpoint: \"http://x\", agentId: a, auth: {scheme: bearer, token: t}}\n",
			[]string{"2:56: target: auth is an a2a, mcp, openai or http field; this target is agui"}},
		{"a2a without discovery", "version: \"1.1\"\ntarget:\n  type: a2a\n",
			[]string{"3:3: target (type a2a) needs where the agent is: set agentCardUrl, agentCard or endpoint"}},
		{"a2a two cards", "version: \"1.1\"\ntarget:\n  type: a2a\n  endpoint: \"http://x/a2a\"\n  agentCard: {url: \"http://x/a2a\"}\n  agentCardUrl: \"http://x/card\"\n",
			[]string{"6:3: target: agentCard and agentCardUrl both give the agent card; set one of them (endpoint beside it replaces the URL it gives)"}},
		{"a2a bad values", "version: \"1.1\"\ntarget:\n  type: a2a\n  agentCardUrl: \"card.json\"\n  blocking: \"yes\"\n  acceptedOutputModes: [\"\", 1]\n  agentCard: []\n",
			[]string{`4:17: target.agentCardUrl "card.json" is not an http:// or https:// URL`,
				"5:13: target.blocking must be true or false, not a string",
				"6:25: target.acceptedOutputModes[0] must not be empty",
				"7:3: target: agentCardUrl and agentCard both give the agent card; set one of them (endpoint beside it replaces the URL it gives)",
				"7:14: target.agentCard must be a mapping, not a list"}},
		{"auth oauth2 without credentials", "version: \"1.1\"\ntarget:\n  type: a2a\n  endpoint: \"http://x/a2a\"\n  auth: {scheme: oauth2}\n",
			[]string{`5:9: target.auth (scheme oauth2) is missing required field "clientId"`,
				`5:9: target.auth (scheme oauth2) is missing required field "clientSecret"`}},
		{"auth oauth2", "version: \"1.1\"\ntarget:\n  type: a2a\n  endpoint: \"http://x/a2a\"\n  auth:\n    scheme: oauth2\n    clientId: c\n    clientSecret: s\n" +
			"    tokenUrl: idp/token\n    scopes: [read, \"a b\", \"\"]\n    clientAuth: header\n    token: t\n",
			[]string{`9:15: target.auth.tokenUrl "idp/token" is not an http:// or https:// URL`,
				`10:20: target.auth.scopes[1] "a b" is not a scope: one scope a string, without spaces, quotes or backslashes (RFC 6749 §3.3)`,
				"10:27: target.auth.scopes[2] must not be empty",
				`11:17: target.auth.clientAuth "header" is not one of basic, body`,
				"12:5: target.auth: token is for scheme bearer; this auth is oauth2"}},
		{"auth oauth2 fields with bearer", "version: \"1.1\"\ntarget:\n  type: a2a\n  endpoint: \"http://x/a2a\"\n  auth: {scheme: bearer, token: t, clientId: c}\n",
			[]string{"5:36: target.auth: clientId is for scheme oauth2; this auth is bearer"}},
		{"auth OAuth2", "version: \"1.1\"\ntarget:\n  type: a2a\n  endpoint: \"http://x/a2a\"\n  auth: {scheme: OAuth2}\n",
			[]string{`5:18: auth scheme OAuth2 is not supported (apiKey, bearer, oauth2); write "oauth2"`}},
		{"auth mtls", "version: \"1.1\"\ntarget:\n  type: a2a\n  endpoint: \"http://x/a2a\"\n  auth: {scheme: mtls}\n",
			[]string{"5:18: auth scheme mtls is not supported (apiKey, bearer, oauth2)"}},
		{"mcp auth oauth2", "version: \"1.2\"\ntarget:\n  type: mcp\n  transport: http\n  endpoint: \"http://x/mcp\"\n  auth: {scheme: oauth2, clientId: c, clientSecret: s}\n",
			[]string{"6:18: auth scheme oauth2 is not supported (apiKey, bearer); get a token in a before_all hook and send it with scheme: bearer"}},
		{"auth missing fields", "version: \"1.1\"\ntarget:\n  type: a2a\n  endpoint: \"http://x/a2a\"\n  auth:\n    name: X\n",
			[]string{`6:5: target.auth is missing required field "scheme"`}},
		{"auth apiKey", "version: \"1.1\"\ntarget:\n  type: a2a\n  endpoint: \"http://x/a2a\"\n  auth:\n    scheme: apiKey\n    token: t\n    in: cookie\n    name: \"Bad Name\"\n",
			[]string{`6:5: target.auth (scheme apiKey) is missing required field "value"`,
				"7:5: target.auth: token is for scheme bearer; this auth is apiKey",
				`8:9: target.auth.in "cookie" is not one of header, query`}},
		{"auth apiKey name", "version: \"1.1\"\ntarget:\n  type: a2a\n  endpoint: \"http://x/a2a\"\n  auth: {scheme: apiKey, value: v, name: \"Bad Name\"}\n",
			[]string{`5:42: target.auth.name "Bad Name" is not a valid header name`}},
		{"auth bearer", "version: \"1.1\"\ntarget:\n  type: a2a\n  endpoint: \"http://x/a2a\"\n  auth: {scheme: bearer, value: v}\n",
			[]string{`5:9: target.auth (scheme bearer) is missing required field "token"`,
				"5:26: target.auth: value is for scheme apiKey; this auth is bearer"}},
		{"mcp without transport", "version: \"1.2\"\ntarget:\n  type: mcp\n",
			[]string{`3:3: target (type mcp) is missing required field "transport"`}},
		{"mcp sse needs endpoint", "version: \"1.2\"\ntarget: {type: mcp, transport: sse, cwd: .}\n",
			[]string{`2:9: target (transport sse) is missing required field "endpoint"`,
				"2:37: target: cwd is for transport stdio; this target's transport is sse"}},
		{"mcp bad transport", "version: \"1.2\"\ntarget: {type: mcp, transport: ws}\n",
			[]string{`2:32: target.transport "ws" is not supported (supported: "stdio", "http", "sse")`}},
		{"stdio needs command", "version: \"1.2\"\ntarget:\n  type: mcp\n  transport: stdio\n  endpoint: \"http://x/mcp\"\n  headers: {A: b}\n  server: {command: [x]}\n",
			[]string{`3:3: target (transport stdio) is missing required field "command"`,
				"5:3: target: endpoint is for transport http and sse; this target's transport is stdio",
				"6:3: target: headers is for transport http and sse; this target's transport is stdio",
				"7:3: target: server is for transport http and sse; this target's transport is stdio"}},
		{"http needs endpoint", "version: \"1.2\"\ntarget:\n  type: mcp\n  transport: http\n  command: []\n  env: {1X: y}\n",
			[]string{`3:3: target (transport http) is missing required field "endpoint"`,
				"5:3: target: command is for transport stdio; this target's transport is http",
				"5:12: target.command must name a program: write [program, arg, ...]",
				"6:3: target: env is for transport stdio; this target's transport is http",
				`6:9: target.env: "1X" is not a valid environment variable name`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := parseConfig(t, tc.src)
			checkDiags(t, diagLines(diags.Sorted(), "ananke.config.yaml:"), tc.want)
		})
	}
}

func TestProtocolTurns(t *testing.T) {
	tt := mustTest(t, `version: "1.2"
name: mcp
turns:
  - type: mcp:list_tools
  - type: mcp:call
    tool: "${TOOL}"
    arguments: {message: "hi ${NAME}", n: 2, nested: {list: [1, "${X}"]}}
  - type: mcp:call
    tool: get-tiny-image
  - type: a2a:send
    user: hello
`)
	if got := []string{tt.Turns[0].Type, tt.Turns[1].Type, tt.Turns[3].Type}; !slices.Equal(got, []string{TurnMCPList, TurnMCPCall, TurnA2ASend}) {
		t.Errorf("types = %v", got)
	}
	call := tt.Turns[1]
	if call.Tool.Raw != "${TOOL}" || call.Arguments.IsZero() || len(call.Arguments.Refs()) != 2 || call.User.Raw != "" {
		t.Errorf("mcp:call = %+v", call)
	}
	v := vars.NewVars(nil)
	v.Set("NAME", "Ada")
	v.Set("X", "x")
	if js, err := call.Arguments.Resolve(v); err != nil || string(js) != `{"message":"hi Ada","n":2,"nested":{"list":[1,"x"]}}` {
		t.Errorf("arguments = %s, %v", js, err)
	}
	if !tt.Turns[2].Arguments.IsZero() || tt.Turns[3].User.Raw != "hello" {
		t.Errorf("turns = %+v", tt.Turns[2:])
	}
}

func TestProtocolTurnErrors(t *testing.T) {
	for _, tc := range []struct {
		name, turns string
		version     string
		want        []string
	}{
		{"a2a:send in 1.0", "  - {type: a2a:send, user: hi}\n", "1.0",
			[]string{`4:12: turn type a2a:send needs version "1.1" or later; this file says "1.0"`}},
		{"mcp:call in 1.1", "  - {type: mcp:call, tool: t}\n", "1.1",
			[]string{`4:12: turn type mcp:call needs version "1.2" or later; this file says "1.1"`}},
		{"mcp:list_tools in 1.0", "  - type: mcp:list_tools\n", "1.0",
			[]string{`4:11: turn type mcp:list_tools needs version "1.2" or later; this file says "1.0"`}},
		{"unknown type", "  - type: mcp:ping\n", "1.2",
			[]string{`4:11: turns[0].type "mcp:ping" is not supported (supported: "user", "agui:connect", "a2a:send", "mcp:call", "mcp:list_tools", "resume")`}},
		{"a2a:send needs user", "  - type: a2a:send\n", "1.2",
			[]string{`4:5: turns[0] is missing required field "user" (the message to send)`}},
		{"mcp:call needs tool", "  - type: mcp:call\n    user: hi\n    arguments: [1]\n", "1.2",
			[]string{`4:5: turns[0] (mcp:call) is missing required field "tool"`,
				`5:5: turns[0]: an mcp:call turn sends no message; remove "user"`,
				"6:16: turns[0].arguments must be a mapping, not a list"}},
		{"empty tool", "  - {type: mcp:call, tool: \"\"}\n", "1.2",
			[]string{"4:28: turns[0].tool must name a tool"}},
		{"list_tools takes nothing", "  - type: mcp:list_tools\n    tool: t\n    arguments: {}\n", "1.2",
			[]string{"5:5: turns[0]: tool is for mcp:call turns; this turn is mcp:list_tools",
				"6:5: turns[0]: arguments is for mcp:call turns; this turn is mcp:list_tools"}},
		{"tool without type", "  - user: hi\n    tool: t\n", "1.2",
			[]string{"5:5: turns[0]: tool is for mcp:call turns; this turn is user (the default); write type: mcp:call"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := parseTest(t, "version: \""+tc.version+"\"\nname: n\nturns:\n"+tc.turns)
			checkDiags(t, diagLines(diags.Sorted(), "t.ananke.yaml:"), tc.want)
		})
	}
}

// TestTurnsForTarget: a turn type belongs to its target type, and an MCP
// server plays only mcp:* turns.
func TestTurnsForTarget(t *testing.T) {
	const (
		agui = "version: \"1.2\"\ntarget: {type: agui, endpoint: \"http://x/agent\", agentId: a}\n"
		a2a  = "version: \"1.2\"\ntarget: {type: a2a, endpoint: \"http://x/a2a\"}\n"
		mcp  = "version: \"1.2\"\ntarget: {type: mcp, transport: stdio, command: [srv]}\n"
	)
	for _, tc := range []struct {
		name, config, test string
		want               []string
	}{
		{"mcp:call on agui", agui, "turns:\n  - {type: mcp:call, tool: t}\n",
			[]string{"4:12: turn type mcp:call needs an mcp target; the config's target is agui"}},
		{"agui:connect on a2a", a2a, "turns:\n  - user: hi\n  - type: agui:connect\n  - {type: a2a:send, user: hi}\n",
			[]string{"5:11: turn type agui:connect needs an agui target; the config's target is a2a"}},
		{"user on mcp", mcp, "turns:\n  - user: hi\n  - type: mcp:list_tools\n",
			[]string{"4:5: turn type user needs an agui, a2a, openai or http target; the config's target is mcp (it plays mcp:call and mcp:list_tools turns)"}},
		{"a2a:send on agui", agui, "turns:\n  - {type: a2a:send, user: hi}\n",
			[]string{"4:12: turn type a2a:send needs an a2a target; the config's target is agui"}},
		{"client tools on a2a", a2a, "tools:\n  - {name: t, result: ok}\nturns:\n  - user: hi\n",
			[]string{"4:5: client tools need an agui or openai target; the config's target is a2a"}},
		{"history and simulator on mcp", mcp, "history:\n  - {role: user, content: hi}\nsimulator: {goal: g}\ncheckpoints: [{id: c, assert: {text: {contains: x}}}]\n",
			[]string{"4:5: history needs an agui or a2a target; an mcp server holds no conversation",
				"5:12: a simulated user needs an agui or a2a target; an mcp server plays only mcp:call and mcp:list_tools turns"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{
				"ananke.config.yaml": tc.config + "model: {endpoint: \"http://x/v1\", name: m}\n",
				"t.ananke.yaml":      "version: \"1.2\"\nname: t\n" + tc.test,
			})
			_, err := Load(Options{ConfigPath: filepath.Join(dir, "ananke.config.yaml")})
			var diags diag.Diagnostics
			if !errors.As(err, &diags) {
				t.Fatalf("Load = %v; want diagnostics", err)
			}
			checkDiags(t, diagLines(diags, filepath.Join(dir, "t.ananke.yaml")+":"), tc.want)
		})
	}
}

// TestSchemaProtocols: the published schemas accept the a2a and mcp forms
// the loader accepts, and reject what it rejects.
func TestSchemaProtocols(t *testing.T) {
	schemas := map[string]*jsonschema.Schema{"config": compileSchema(t, "config"), "test": compileSchema(t, "test")}
	for _, tc := range []struct {
		name, kind, src string
		ok              bool
	}{
		{"a2a card url", "config", "version: \"1.1\"\ntarget: {type: a2a, agentCardUrl: \"https://x/card\", contextId: c, blocking: true, acceptedOutputModes: [text/plain], auth: {scheme: bearer, token: t}}\n", true},
		{"a2a inline card", "config", "version: \"1.2\"\ntarget: {type: a2a, agentCard: {url: \"http://x\"}, auth: {scheme: apiKey, value: k, in: query}}\n", true},
		{"a2a in 1.0", "config", "version: \"1.0\"\ntarget: {type: a2a, endpoint: \"http://x\"}\n", false},
		{"a2a card and endpoint", "config", "version: \"1.1\"\ntarget: {type: a2a, endpoint: \"http://x\", agentCardUrl: \"http://x/card\"}\n", true},
		{"a2a inline card and endpoint", "config", "version: \"1.1\"\ntarget: {type: a2a, endpoint: \"http://x\", agentCard: {name: n}}\n", true},
		{"a2a two cards", "config", "version: \"1.1\"\ntarget: {type: a2a, agentCard: {name: n}, agentCardUrl: \"http://x/card\"}\n", false},
		{"a2a no discovery", "config", "version: \"1.1\"\ntarget: {type: a2a}\n", false},
		{"a2a with agentId", "config", "version: \"1.1\"\ntarget: {type: a2a, endpoint: \"http://x\", agentId: a}\n", false},
		{"a2a oauth2 without credentials", "config", "version: \"1.1\"\ntarget: {type: a2a, endpoint: \"http://x\", auth: {scheme: oauth2}}\n", false},
		{"a2a oauth2", "config", "version: \"1.1\"\ntarget: {type: a2a, endpoint: \"http://x\", auth: {scheme: oauth2, clientId: c, clientSecret: s, tokenUrl: \"https://idp/token\", scopes: [a2a.read], clientAuth: body}}\n", true},
		{"a2a oauth2 with a token", "config", "version: \"1.1\"\ntarget: {type: a2a, endpoint: \"http://x\", auth: {scheme: oauth2, clientId: c, clientSecret: s, token: t}}\n", false},
		{"a2a oauth2 scope with a space", "config", "version: \"1.1\"\ntarget: {type: a2a, endpoint: \"http://x\", auth: {scheme: oauth2, clientId: c, clientSecret: s, scopes: [\"a b\"]}}\n", false},
		{"mcp oauth2", "config", "version: \"1.2\"\ntarget: {type: mcp, transport: http, endpoint: \"http://x/mcp\", auth: {scheme: oauth2, clientId: c, clientSecret: s}}\n", false},
		{"a2a bearer with value", "config", "version: \"1.1\"\ntarget: {type: a2a, endpoint: \"http://x\", auth: {scheme: bearer, token: t, value: v}}\n", false},
		{"mcp stdio", "config", "version: \"1.2\"\ntarget: {type: mcp, transport: stdio, command: [srv], env: {K: v}, cwd: ., timeout_ms: 100}\n", true},
		{"mcp http", "config", "version: \"1.2\"\ntarget: {type: mcp, transport: http, endpoint: \"http://x/mcp\", headers: {A: b}}\n", true},
		{"mcp in 1.1", "config", "version: \"1.1\"\ntarget: {type: mcp, transport: stdio, command: [srv]}\n", false},
		{"mcp stdio with endpoint", "config", "version: \"1.2\"\ntarget: {type: mcp, transport: stdio, command: [srv], endpoint: \"http://x\"}\n", false},
		{"mcp http without endpoint", "config", "version: \"1.2\"\ntarget: {type: mcp, transport: http}\n", false},
		{"mcp sse", "config", "version: \"1.2\"\ntarget: {type: mcp, transport: sse, endpoint: \"http://x/sse\"}\n", true},
		{"mcp http bearer", "config", "version: \"1.2\"\ntarget: {type: mcp, transport: http, endpoint: \"http://x/mcp\", auth: {scheme: bearer, token: t}}\n", true},
		{"mcp http apiKey", "config", "version: \"1.2\"\ntarget: {type: mcp, transport: http, endpoint: \"http://x/mcp\", auth: {scheme: apiKey, value: k, name: X-Key}}\n", true},
		{"mcp apiKey in query", "config", "version: \"1.2\"\ntarget: {type: mcp, transport: http, endpoint: \"http://x/mcp\", auth: {scheme: apiKey, value: k, in: query}}\n", false},
		{"mcp stdio auth", "config", "version: \"1.2\"\ntarget: {type: mcp, transport: stdio, command: [srv], auth: {scheme: bearer, token: t}}\n", false},
		{"agui auth", "config", "version: \"1.2\"\ntarget: {type: agui, endpoint: \"http://x\", agentId: a, auth: {scheme: bearer, token: t}}\n", false},
		{"mcp sse with command", "config", "version: \"1.2\"\ntarget: {type: mcp, transport: sse, endpoint: \"http://x/sse\", command: [x]}\n", false},
		{"agui with transport", "config", "version: \"1.2\"\ntarget: {type: agui, endpoint: \"http://x\", agentId: a, transport: stdio}\n", false},
		{"version 1.3", "config", "version: \"1.3\"\ntarget: {type: agui, endpoint: \"http://x\", agentId: a}\n", false},
		{"mcp turns", "test", "version: \"1.2\"\nname: n\nturns:\n  - {type: mcp:list_tools, assert: {tools_list: {include: [a], exclude: b, valid_schemas: true}}}\n  - {type: mcp:call, tool: t, arguments: {a: 1}, assert: {result: {match: x, not_match: y, is_error: false, max_duration_ms: 5, json_path: [{path: $.a, equals: 1}]}}}\n", true},
		{"a2a:send", "test", "version: \"1.1\"\nname: n\nturns: [{type: a2a:send, user: hi}, {user: again}]\n", true},
		{"mcp:call in 1.1", "test", "version: \"1.1\"\nname: n\nturns: [{type: mcp:call, tool: t}]\n", false},
		{"mcp:call without tool", "test", "version: \"1.2\"\nname: n\nturns: [{type: mcp:call}]\n", false},
		{"mcp:call with user", "test", "version: \"1.2\"\nname: n\nturns: [{type: mcp:call, tool: t, user: hi}]\n", false},
		{"user turn with tool", "test", "version: \"1.2\"\nname: n\nturns: [{user: hi, tool: t}]\n", false},
		{"list_tools with arguments", "test", "version: \"1.2\"\nname: n\nturns: [{type: mcp:list_tools, arguments: {}}]\n", false},
		{"unknown result field", "test", "version: \"1.2\"\nname: n\nturns: [{type: mcp:list_tools, assert: {result: {equals: 1}}}]\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var v any
			if err := yaml.Unmarshal([]byte(tc.src), &v); err != nil {
				t.Fatal(err)
			}
			js, _ := json.Marshal(v)
			doc, _ := jsonschema.UnmarshalJSON(bytes.NewReader(js))
			err := schemas[tc.kind].Validate(doc)
			if (err == nil) != tc.ok {
				t.Errorf("Validate = %v; want ok %v", err, tc.ok)
			}
		})
	}
}

// TestA2ACardAndEndpoint: an endpoint beside a card loads, as docs/a2a.md
// says: it replaces the URL the card gives.
func TestA2ACardAndEndpoint(t *testing.T) {
	for _, card := range []string{`agentCardUrl: "https://agent.example/.well-known/agent-card.json"`, `agentCard: {name: n, url: "http://internal:9999/rpc"}`} {
		tg := mustConfig(t, "version: \"1.1\"\ntarget:\n  type: a2a\n  "+card+"\n  endpoint: \"http://localhost:9999/rpc\"\n").Target
		if tg.A2A == nil || tg.Endpoint.Raw != "http://localhost:9999/rpc" || tg.A2A.AgentCardURL.IsZero() && tg.A2A.AgentCard.IsZero() {
			t.Errorf("%s: target = %+v", card, tg)
		}
	}
}

// TestMCPAuth: an MCP target over HTTP takes auth, like an A2A target.
func TestMCPAuth(t *testing.T) {
	tg := mustConfig(t, "version: \"1.2\"\ntarget:\n  type: mcp\n  transport: http\n  endpoint: \"http://x/mcp\"\n  auth: {scheme: bearer, token: \"${ENV.MCP_TOKEN}\"}\n").Target
	if tg.MCP == nil || tg.MCP.Auth == nil || tg.MCP.Auth.Scheme != AuthBearer || tg.MCP.Auth.Token.Refs()[0].Name != "MCP_TOKEN" {
		t.Errorf("mcp = %+v", tg.MCP)
	}
	tg = mustConfig(t, "version: \"1.2\"\ntarget:\n  type: mcp\n  transport: sse\n  endpoint: \"http://x/sse\"\n  auth: {scheme: apiKey, value: k}\n").Target
	if a := tg.MCP.Auth; a == nil || a.Scheme != AuthAPIKey || a.Name != DefaultAPIKeyName || a.In != "header" {
		t.Errorf("auth = %+v", a)
	}
}
