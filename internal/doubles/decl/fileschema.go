package decl

import "github.com/ananke/action/internal/decode"

// The JSON Schemas of the doubles syntax, for the published schemas of
// the config and of test files (internal/spec builds them from these).

// ConfigSchema is the schema of the config's doubles: section.
func ConfigSchema() decode.Obj {
	props := answerProps()
	props["name"] = decode.Obj{"type": "string", "pattern": "^[A-Za-z0-9_.-]{1,128}$", "description": "The tool's name, as the agent sees it."}
	props["description"] = decode.Str("The tool's description, as the agent sees it.")
	props["input_schema"] = decode.Obj{"type": "object", "description": "JSON Schema of the arguments (type: object); default {type: object}."}
	props["output_schema"] = decode.Obj{"type": "object", "description": "JSON Schema (type: object) every result that is not an error must match; checked when the suite loads."}
	tool := decode.Object("A tool the doubles serve, and its default answer (optional: tests may answer it instead).", toolFields, props, "name")
	o := decode.Object("Tool doubles: MCP tools Ananke serves over streamable HTTP in the agent's backend, answered per test (docs/doubles.md).", configFields, decode.Obj{
		"listen": decode.Str("host:port to serve on, e.g. 127.0.0.1:4390 (0.0.0.0:4390 for an agent in a container); may read ${ENV.NAME}."),
		"path":   decode.Obj{"type": "string", "pattern": "^/", "description": "The MCP endpoint's path (default /mcp)."},
		"tools":  decode.Obj{"type": "array", "minItems": 1, "items": tool, "description": "The tools served."},
	}, "listen", "tools")
	return o
}

// AnswersSchema is the schema of a test file's or a turn's doubles: a
// mapping of tool names to answers.
func AnswersSchema(desc string) decode.Obj {
	return decode.Obj{"type": "object", "description": desc,
		"additionalProperties": decode.Object("The answer of one tool (docs/doubles.md).", answerFields, answerProps())}
}

// answerProps are the properties of an answer: a reply and match entries.
func answerProps() decode.Obj {
	props := replyProps()
	match := replyProps()
	match["args"] = decode.Obj{"type": "object", "description": "Arguments the call must hold, each with this value (objects compared by their keys)."}
	props["match"] = decode.Obj{"type": "array", "minItems": 1, "description": "The first entry whose args the call holds answers it, before the answer's own result.",
		"items": decode.Object("", matchFields, match, "args")}
	return props
}

// replyProps are the properties of a reply.
func replyProps() decode.Obj {
	return decode.Obj{
		"result":      decode.Obj{"description": "The result: a string is sent as text; an object as structured content and its JSON text; anything else as its JSON text. Taken literally (no ${...})."},
		"result_file": decode.Str("A file holding the result, relative to this file: a .json file is its JSON value, any other file its text."),
		"is_error":    decode.Bool("The result is the tool's error (isError)."),
		"latency_ms":  decode.Obj{"type": "integer", "minimum": 0, "maximum": maxLatencyMs, "description": "Delay before answering, in milliseconds."},
		"fault":       decode.Obj{"enum": Faults, "description": "Instead of a result: timeout (no answer until the agent gives up), drop (the connection closed), malformed (an invalid result)."},
	}
}
