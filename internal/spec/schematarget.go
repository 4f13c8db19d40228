package spec

import (
	"slices"

	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/doubles/decl"
)

// The target and turn schemas: flat unions discriminated by type, each
// type allowing its own fields (if/then on the type).

func targetSchema(server decode.Obj) decode.Obj {
	t := decode.Object("The agent under test; type says which fields apply.", targetFields, decode.Obj{
		"type":       decode.Obj{"enum": TargetTypes, "description": "Protocol: agui, a2a (version 1.1), mcp (version 1.2), openai (an OpenAI-compatible API) or http (a JSON API of its own)."},
		"headers":    decode.StringMap("HTTP headers sent with every request; values are masked in all output."),
		"timeout_ms": decode.Positive("Bound on one run's exchange (default 60000)."),
		"assert":     decode.Ref("assert"),
		"endpoint":   decode.Str("The agent's URL (http or https): AG-UI endpoint, A2A JSON-RPC endpoint (alone: skips discovery; beside a card: replaces the URL the card gives), MCP Streamable HTTP endpoint, an OpenAI-compatible API's base URL (.../v1), or the http target's URL (may hold ${conversation_id}, ${message}, ${turn})."),
		"server":     server,
		// agui
		"agentId":          decode.Str("agui: agent identifier."),
		"threadId":         decode.Str("agui: thread id; default: a fresh id per test."),
		"forwardedProps":   decode.Obj{"type": "object", "description": "agui: sent as RunAgentInput.forwardedProps."},
		"state":            decode.Obj{"description": "agui: initial state sent as RunAgentInput.state."},
		"protocol_version": decode.Obj{"oneOf": []any{decode.Obj{"type": "string", "pattern": `^\d+\.\d+$`}, decode.Obj{"const": false}}, "description": `agui: sent as protocolVersion (default "1.0"); false omits it.`},
		"strict_protocol":  decode.Bool("agui: turn every protocol MUST into a failure instead of a warning."),
		"max_followups":    decode.Obj{"type": "integer", "minimum": 0, "maximum": 1000, "description": "agui, openai: follow-up runs (requests) per turn for client tools (default 8)."},
		"max_event_bytes":  decode.Obj{"type": "integer", "minimum": 1024, "maximum": 1 << 30, "description": "agui: largest SSE event accepted, in bytes (default 32 MiB)."},
		// a2a
		"agentCardUrl":        decode.Str("a2a: URL of the agent card (e.g. https://host/.well-known/agent-card.json)."),
		"agentCard":           decode.Obj{"type": "object", "description": "a2a: the agent card, inline."},
		"contextId":           decode.Str("a2a: context id grouping a test's messages; default: the agent's."),
		"blocking":            decode.Bool("a2a: sent as configuration.blocking."),
		"acceptedOutputModes": decode.List(decode.Obj{"type": "string", "minLength": 1}, "a2a: MIME types sent as configuration.acceptedOutputModes."),
		"auth":                authSchema(),
		"tool_trace":          decode.Bool("a2a: the agent shows its tool calls (ADK function_call/function_response data parts): tool assertions are evaluated, not skipped."),
		// mcp
		"transport": decode.Obj{"enum": MCPTransports, "description": "mcp: stdio (start command), http (Streamable HTTP at endpoint; also streamable-http) or sse (legacy HTTP+SSE at endpoint)."},
		"command":   decode.List(decode.Obj{"type": "string"}, "mcp stdio: program and arguments (no shell)."),
		"env":       decode.StringMap("mcp stdio: extra environment variables; values are masked in all output."),
		"cwd":       decode.Str("mcp stdio: working directory, relative to the config file."),
		// openai
		"api":          decode.Obj{"enum": APIs, "description": "openai: chat (Chat Completions, the default) or responses (the Responses API)."},
		"model":        decode.Obj{"type": "string", "minLength": 1, "description": "openai: the model, sent as model."},
		"instructions": decode.Str("openai: the system message (chat) or instructions (responses) of every request."),
		// openai and http: each type's case says which form it takes.
		"stream": decode.Obj{"oneOf": []any{decode.Obj{"type": "boolean"}, httpStreamSchema()},
			"description": "openai: ask for server-sent events (default true), false for one JSON answer; http: the answer is server-sent events, read through these paths."},
		"body": decode.Obj{"type": "object", "description": "openai: extra top-level fields of every request (temperature, seed, …), not the fields Ananke sets; http: the request body, a JSON template resolved per turn."},
		// http
		"method":   decode.Obj{"enum": httpMethods, "description": "http: the request's method (default POST)."},
		"response": httpResponseSchema(),
	}, "type")
	discovery := []any{}
	for _, k := range []string{"agentCardUrl", "agentCard", "endpoint"} {
		discovery = append(discovery, decode.Obj{"required": []string{k}})
	}
	// A card (one at most) or an endpoint; an endpoint beside a card
	// replaces the URL the card gives.
	a2aWhere := decode.Obj{"anyOf": discovery, "not": decode.Obj{"required": []string{"agentCardUrl", "agentCard"}}}
	// An MCP server over HTTP takes an apiKey in a header only, and no
	// OAuth2.
	mcpHTTP := func() decode.Obj {
		return decode.Obj{"required": []string{"endpoint"}, "properties": decode.Obj{"auth": decode.Obj{"properties": decode.Obj{
			"in": decode.Obj{"const": "header"}, "scheme": decode.Obj{"enum": mcpAuthSchemes}}}}}
	}
	t["allOf"] = []any{
		typeCase("type", TargetAGUI, slices.Concat(commonTargetFields, aguiFields), decode.Obj{"required": []string{"endpoint", "agentId"}}),
		typeCase("type", TargetA2A, slices.Concat(commonTargetFields, a2aFields), a2aWhere),
		typeCase("type", TargetMCP, slices.Concat(commonTargetFields, mcpFields), decode.Obj{"required": []string{"transport"}, "allOf": []any{
			typeCase("transport", MCPStdio, without(slices.Concat(commonTargetFields, mcpFields), httpFields...), decode.Obj{"required": []string{"command"}}),
			typeCase("transport", MCPHTTP, without(slices.Concat(commonTargetFields, mcpFields), stdioFields...), mcpHTTP()),
			typeCase("transport", "streamable-http", without(slices.Concat(commonTargetFields, mcpFields), stdioFields...), mcpHTTP()),
			typeCase("transport", MCPSSE, without(slices.Concat(commonTargetFields, mcpFields), stdioFields...), mcpHTTP()),
		}}),
		typeCase("type", TargetOpenAI, slices.Concat(commonTargetFields, openaiFields), decode.Obj{"required": []string{"endpoint", "model"},
			"properties": decode.Obj{
				"auth":   decode.Obj{"properties": decode.Obj{"in": decode.Obj{"const": "header"}, "scheme": decode.Obj{"enum": openaiAuthSchemes}}},
				"stream": decode.Bool("openai: ask for server-sent events (default true); false: one JSON answer."),
				"body": decode.Obj{"type": "object", "propertyNames": decode.Obj{"not": decode.Obj{"enum": openaiOwnFields}},
					"description": "openai: extra top-level fields of every request (temperature, seed, …); not the fields Ananke sets."},
			}}),
		typeCase("type", TargetHTTP, slices.Concat(commonTargetFields, httpTargetFields), decode.Obj{
			"required": []string{"endpoint"},
			// A plain response says where its text is; a stream's events do.
			"if":   decode.Obj{"not": decode.Obj{"required": []string{"stream"}}},
			"then": decode.Obj{"required": []string{"response"}, "properties": decode.Obj{"response": decode.Obj{"required": []string{"text"}}}},
			"properties": decode.Obj{
				"auth":   decode.Obj{"properties": decode.Obj{"in": decode.Obj{"const": "header"}, "scheme": decode.Obj{"enum": httpAuthSchemes}}},
				"stream": httpStreamSchema(),
				"body":   decode.Obj{"type": "object", "description": "http: the request body, a JSON template resolved per turn: ${message}, ${conversation_id}, ${turn}; a string that is exactly ${messages} is the conversation so far as a JSON array of {role, content}."},
			},
		}),
	}
	return t
}

// jsonPathSchema is a JSON path or a JSON Pointer (docs/http.md).
func jsonPathSchema(desc string) decode.Obj {
	return decode.Obj{"type": "string", "pattern": `^[$/]`, "description": desc + " A JSONPath ($.a.b[0], $.a[*].b, $['a b']) or a JSON Pointer (/a/b/0)."}
}

func httpResponseSchema() decode.Obj {
	calls := decode.Object("http: the response's tool calls: path selects each call, the others are read from it.", toolCallFields, decode.Obj{
		"path":      jsonPathSchema("Each call, e.g. $.tool_calls[*]."),
		"name":      jsonPathSchema("The call's tool name, within the call (e.g. $.name)."),
		"arguments": jsonPathSchema("The call's arguments, within the call: a string as it is, anything else as JSON."),
		"result":    jsonPathSchema("The call's result, within the call."),
		"id":        jsonPathSchema("The call's id, within the call."),
	}, "path", "name")
	return decode.Object("http: where the turn is in a JSON response (and, with stream, in each event).", responseFields, decode.Obj{
		"text":            jsonPathSchema("The reply (required without stream)."),
		"conversation_id": jsonPathSchema("The id carried to the next turn as ${conversation_id}."),
		"error":           jsonPathSchema("The agent's error: a value that is not empty fails the turn's run_error check."),
		"tool_calls":      calls,
		"input_tokens":    jsonPathSchema("The turn's input tokens."),
		"output_tokens":   jsonPathSchema("The turn's output tokens."),
		"model":           jsonPathSchema("The model the response names, which pricing: prices its usage as."),
	})
}

func httpStreamSchema() decode.Obj {
	return decode.Object("http: the response is server-sent events, each event's data JSON read through the paths of response and these.", streamFields, decode.Obj{
		"text": jsonPathSchema("The text each event adds to the reply."),
		"done": decode.Obj{"type": "string", "minLength": 1, "description": `The data that ends the stream (e.g. "[DONE]"); default: the end of the body.`},
	}, "text")
}

func authSchema() decode.Obj {
	a := decode.Object("a2a, mcp over http or sse, openai and http: how Ananke authenticates; values are masked in all output.", authFields, decode.Obj{
		"scheme":       decode.Obj{"enum": authSchemes, "description": "apiKey, bearer or (a2a) oauth2: the client credentials grant (openIdConnect and mtls are not supported)."},
		"name":         decode.Str(`apiKey: the header or query parameter (default "X-API-Key").`),
		"in":           decode.Obj{"enum": authPlaces, "description": "apiKey: header (default) or query (a2a only)."},
		"value":        decode.Str("apiKey: the key, e.g. ${ENV.AGENT_KEY}."),
		"token":        decode.Str("bearer: the token, sent as Authorization: Bearer <token>."),
		"clientId":     decode.Str("oauth2: the client id, e.g. ${ENV.AGENT_CLIENT_ID}."),
		"clientSecret": decode.Str("oauth2: the client secret, e.g. ${ENV.AGENT_CLIENT_SECRET}."),
		"tokenUrl":     decode.Str("oauth2: the token endpoint (http or https); default: the tokenUrl of the agent card's clientCredentials flow."),
		"scopes":       decode.List(decode.Obj{"type": "string", "minLength": 1, "pattern": `^[\x21\x23-\x5B\x5D-\x7E]+$`}, "oauth2: the scopes to ask for; default: those the agent card's security requirements name for the scheme."),
		"clientAuth":   decode.Obj{"enum": clientAuths, "description": "oauth2: how the client authenticates to the token endpoint: basic (HTTP Basic, the default) or body (client_id and client_secret in the form)."},
	}, "scheme")
	a["allOf"] = []any{
		typeCase("scheme", AuthAPIKey, []string{"scheme", "name", "in", "value"}, decode.Obj{"required": []string{"value"}}),
		typeCase("scheme", AuthBearer, []string{"scheme", "token"}, decode.Obj{"required": []string{"token"}}),
		typeCase("scheme", AuthOAuth2, slices.Concat([]string{"scheme"}, oauth2Fields), decode.Obj{"required": []string{"clientId", "clientSecret"}}),
	}
	return a
}

func turnSchema() decode.Obj {
	t := decode.Object("One scripted turn; type says which fields apply.", turnFields, decode.Obj{
		"type": decode.Obj{"enum": TurnTypes, "description": "user (default) sends a message; resume (the default with resume:) answers the pending interrupts; agui:connect runs without one; a2a:send sends a message to an A2A agent; mcp:call calls a tool; mcp:list_tools lists the tools."},
		"user": decode.Obj{"oneOf": []any{decode.Obj{"type": "string"}, decode.Ref("parts")}, "description": "The user message: text, or a list of parts with attachments."},
		"tool": decode.Str("mcp:call: the tool to call."),
		"arguments": decode.Obj{"type": "object",
			"description": "mcp:call: the tool's arguments; strings may reference ${VARS}."},
		"resume":  resumeSchema(),
		"assert":  decode.Ref("assert"),
		"doubles": decl.AnswersSchema("The tool doubles' answers in this turn, over the test's and the config's (docs/doubles.md)."),
	})
	message := []string{"type", "user", "assert", "doubles"}
	bare := []string{"type", "assert", "doubles"}
	t["allOf"] = []any{
		// A turn without a type is a user turn, or a resume turn when it
		// has resume: "properties" holds when type is absent.
		defaultCase(typeCase("type", TurnUser, []string{"type", "user", "resume", "assert", "doubles"},
			decode.Obj{"oneOf": []any{decode.Obj{"required": []string{"user"}}, decode.Obj{"required": []string{"resume"}}}})),
		typeCase("type", TurnResume, []string{"type", "resume", "assert", "doubles"}, decode.Obj{"required": []string{"resume"}}),
		typeCase("type", TurnA2ASend, message, decode.Obj{"required": []string{"user"}}),
		typeCase("type", TurnConnect, bare, nil),
		typeCase("type", TurnMCPList, bare, nil),
		typeCase("type", TurnMCPCall, []string{"type", "tool", "arguments", "assert", "doubles"}, decode.Obj{"required": []string{"tool"}}),
	}
	return t
}

// typeCase is "when field is value, only these fields, and then".
func typeCase(field, value string, allowed []string, then decode.Obj) decode.Obj {
	cond := decode.Obj{"properties": decode.Obj{field: decode.Obj{"const": value}}, "required": []string{field}}
	th := decode.Obj{"propertyNames": decode.Obj{"enum": allowed}}
	for k, v := range then {
		th[k] = v
	}
	return decode.Obj{"if": cond, "then": th}
}

// versionGate is "when the document matches props (all of required
// present), its version is minor or later".
func versionGate(props decode.Obj, required []string, minor int) decode.Obj {
	return decode.Obj{"if": decode.Obj{"properties": props, "required": required},
		"then": decode.Obj{"properties": decode.Obj{"version": decode.Obj{"enum": decode.Versions[minor:]}}}}
}

// defaultCase makes a typeCase's value the default: it also applies when
// the field is absent.
func defaultCase(c decode.Obj) decode.Obj {
	delete(c["if"].(decode.Obj), "required")
	return c
}

func without(list []string, drop ...string) []string {
	return slices.DeleteFunc(slices.Clone(list), func(s string) bool { return slices.Contains(drop, s) })
}

// resumeSchema is a resume turn's answers: approve or reject (every
// pending interrupt), one answer, or a list of answers.
func resumeSchema() decode.Obj {
	entry := decode.Object("An answer to the pending interrupts it selects (all of them when it names no id, reason or tool).", resumeFields, decode.Obj{
		"id":           decode.Str("The interrupt's id."),
		"reason":       decode.Str("The interrupt's reason (tool_approval)."),
		"tool":         decode.Str("The name of the tool call the interrupt is about."),
		"answer":       decode.Obj{"enum": answers, "description": "approve (resolved), reject (cancelled) or edit (resolved with changed arguments; the default with edit)."},
		"payload":      decode.Obj{"description": "Sent with the answer: any value; strings may reference ${VARS}. Default: true for approve, none for reject."},
		"payload_file": decode.Str("A fixture file holding the payload, relative to this file: a .json file is sent as its JSON value, any other as its text."),
		"edit": decode.Obj{"type": "object",
			"description": "The arguments to change: the payload is the call's arguments with these set, validated against the interrupt's responseSchema before it is sent."},
		"schema": decode.Obj{"type": []string{"object", "string"},
			"description": "The arguments' JSON Schema (inline, or a file relative to this file): the edit is checked against it when the suite loads."},
	})
	return decode.Obj{"description": "Answer the interrupts the agent's last run ended with, instead of sending a message (docs/files.md, Interrupts).",
		"oneOf": []any{
			decode.Obj{"enum": []string{AnswerApprove, AnswerReject}},
			entry,
			decode.Obj{"type": "array", "minItems": 1, "items": entry},
		}}
}
