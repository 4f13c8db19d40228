package spec

import (
	"slices"

	"github.com/ananke/action/internal/decode"
)

// The target and turn schemas: flat unions discriminated by type, each
// type allowing its own fields (if/then on the type).

func targetSchema(server obj) obj {
	t := object("The agent under test; type says which fields apply.", targetFields, obj{
		"type":       obj{"enum": TargetTypes, "description": "Protocol: agui, a2a (version 1.1) or mcp (version 1.2)."},
		"headers":    stringMap("HTTP headers sent with every request; values are masked in all output."),
		"timeout_ms": positive("Bound on one run's exchange (default 60000)."),
		"assert":     ref("assert"),
		"endpoint":   str("The agent's URL (http or https): AG-UI endpoint, A2A JSON-RPC endpoint (alone: skips discovery; beside a card: replaces the URL the card gives), or MCP Streamable HTTP endpoint."),
		"server":     server,
		// agui
		"agentId":          str("agui: agent identifier."),
		"threadId":         str("agui: thread id; default: a fresh id per test."),
		"forwardedProps":   obj{"type": "object", "description": "agui: sent as RunAgentInput.forwardedProps."},
		"state":            obj{"description": "agui: initial state sent as RunAgentInput.state."},
		"protocol_version": obj{"oneOf": []any{obj{"type": "string", "pattern": `^\d+\.\d+$`}, obj{"const": false}}, "description": `agui: sent as protocolVersion (default "1.0"); false omits it.`},
		"strict_protocol":  boolean("agui: turn every protocol MUST into a failure instead of a warning."),
		"max_followups":    obj{"type": "integer", "minimum": 0, "maximum": 1000, "description": "agui: follow-up runs per turn for client tools (default 8)."},
		"max_event_bytes":  obj{"type": "integer", "minimum": 1024, "maximum": 1 << 30, "description": "agui: largest SSE event accepted, in bytes (default 32 MiB)."},
		// a2a
		"agentCardUrl":        str("a2a: URL of the agent card (e.g. https://host/.well-known/agent-card.json)."),
		"agentCard":           obj{"type": "object", "description": "a2a: the agent card, inline."},
		"contextId":           str("a2a: context id grouping a test's messages; default: the agent's."),
		"blocking":            boolean("a2a: sent as configuration.blocking."),
		"acceptedOutputModes": list(obj{"type": "string", "minLength": 1}, "a2a: MIME types sent as configuration.acceptedOutputModes."),
		"auth":                authSchema(),
		"tool_trace":          boolean("a2a: the agent shows its tool calls (ADK function_call/function_response data parts): tool assertions are evaluated, not skipped."),
		// mcp
		"transport": obj{"enum": MCPTransports, "description": "mcp: stdio (start command), http (Streamable HTTP at endpoint; also streamable-http) or sse (legacy HTTP+SSE at endpoint)."},
		"command":   list(obj{"type": "string"}, "mcp stdio: program and arguments (no shell)."),
		"env":       stringMap("mcp stdio: extra environment variables; values are masked in all output."),
		"cwd":       str("mcp stdio: working directory, relative to the config file."),
	}, "type")
	discovery := []any{}
	for _, k := range []string{"agentCardUrl", "agentCard", "endpoint"} {
		discovery = append(discovery, obj{"required": []string{k}})
	}
	// A card (one at most) or an endpoint; an endpoint beside a card
	// replaces the URL the card gives.
	a2aWhere := obj{"anyOf": discovery, "not": obj{"required": []string{"agentCardUrl", "agentCard"}}}
	// An MCP server over HTTP takes an apiKey in a header only.
	mcpHTTP := func() obj {
		return obj{"required": []string{"endpoint"}, "properties": obj{"auth": obj{"properties": obj{"in": obj{"const": "header"}}}}}
	}
	t["allOf"] = []any{
		typeCase("type", TargetAGUI, slices.Concat(commonTargetFields, aguiFields), obj{"required": []string{"endpoint", "agentId"}}),
		typeCase("type", TargetA2A, slices.Concat(commonTargetFields, a2aFields), a2aWhere),
		typeCase("type", TargetMCP, slices.Concat(commonTargetFields, mcpFields), obj{"required": []string{"transport"}, "allOf": []any{
			typeCase("transport", MCPStdio, without(slices.Concat(commonTargetFields, mcpFields), httpFields...), obj{"required": []string{"command"}}),
			typeCase("transport", MCPHTTP, without(slices.Concat(commonTargetFields, mcpFields), stdioFields...), mcpHTTP()),
			typeCase("transport", "streamable-http", without(slices.Concat(commonTargetFields, mcpFields), stdioFields...), mcpHTTP()),
			typeCase("transport", MCPSSE, without(slices.Concat(commonTargetFields, mcpFields), stdioFields...), mcpHTTP()),
		}}),
	}
	return t
}

func authSchema() obj {
	a := object("a2a, and mcp over http or sse: how Ananke authenticates; values are masked in all output.", authFields, obj{
		"scheme": obj{"enum": authSchemes, "description": "apiKey or bearer (oauth2 and mtls are not supported)."},
		"name":   str(`apiKey: the header or query parameter (default "X-API-Key").`),
		"in":     obj{"enum": authPlaces, "description": "apiKey: header (default) or query (a2a only)."},
		"value":  str("apiKey: the key, e.g. ${ENV.AGENT_KEY}."),
		"token":  str("bearer: the token, sent as Authorization: Bearer <token>."),
	}, "scheme")
	a["allOf"] = []any{
		typeCase("scheme", AuthAPIKey, []string{"scheme", "name", "in", "value"}, obj{"required": []string{"value"}}),
		typeCase("scheme", AuthBearer, []string{"scheme", "token"}, obj{"required": []string{"token"}}),
	}
	return a
}

func turnSchema() obj {
	t := object("One scripted turn; type says which fields apply.", turnFields, obj{
		"type": obj{"enum": TurnTypes, "description": "user (default) sends a message; agui:connect runs without one; a2a:send sends a message to an A2A agent; mcp:call calls a tool; mcp:list_tools lists the tools."},
		"user": obj{"oneOf": []any{obj{"type": "string"}, ref("parts")}, "description": "The user message: text, or a list of parts with attachments."},
		"tool": str("mcp:call: the tool to call."),
		"arguments": obj{"type": "object",
			"description": "mcp:call: the tool's arguments; strings may reference ${VARS}."},
		"assert": ref("assert"),
	})
	message := []string{"type", "user", "assert"}
	bare := []string{"type", "assert"}
	t["allOf"] = []any{
		// A turn without a type is a user turn: "properties" holds when
		// type is absent.
		defaultCase(typeCase("type", TurnUser, message, obj{"required": []string{"user"}})),
		typeCase("type", TurnA2ASend, message, obj{"required": []string{"user"}}),
		typeCase("type", TurnConnect, bare, nil),
		typeCase("type", TurnMCPList, bare, nil),
		typeCase("type", TurnMCPCall, []string{"type", "tool", "arguments", "assert"}, obj{"required": []string{"tool"}}),
	}
	return t
}

// typeCase is "when field is value, only these fields, and then".
func typeCase(field, value string, allowed []string, then obj) obj {
	cond := obj{"properties": obj{field: obj{"const": value}}, "required": []string{field}}
	th := obj{"propertyNames": obj{"enum": allowed}}
	for k, v := range then {
		th[k] = v
	}
	return obj{"if": cond, "then": th}
}

// versionGate is "when the document matches props (all of required
// present), its version is minor or later".
func versionGate(props obj, required []string, minor int) obj {
	return obj{"if": obj{"properties": props, "required": required},
		"then": obj{"properties": obj{"version": obj{"enum": decode.Versions[minor:]}}}}
}

// defaultCase makes a typeCase's value the default: it also applies when
// the field is absent.
func defaultCase(c obj) obj {
	delete(c["if"].(obj), "required")
	return c
}

func without(list []string, drop ...string) []string {
	return slices.DeleteFunc(slices.Clone(list), func(s string) bool { return slices.Contains(drop, s) })
}
