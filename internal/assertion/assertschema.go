package assertion

import (
	"slices"

	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/decode"
)

// AssertSchema is the JSON Schema of an assert block, for the published
// schemas: each section's from the schemas of the kinds written under it.
func AssertSchema() decode.Obj {
	props := decode.Obj{
		"severity": severitySchema(),
		"requires": decode.OneOrMany(decode.Obj{"enum": capability.All, "description": "A capability the block's checks need besides their own."}),
		"extends":  decode.OneOrMany(decode.Obj{"type": "string", "description": "A block of the config's assertions:."}),
	}
	for _, s := range sections {
		if s.fields == nil {
			props[s.name] = byKind()[Kind(s.name)].schema()
			continue
		}
		fields := decode.Obj{}
		if s.optionSchemas != nil {
			fields = s.optionSchemas()
		}
		for _, key := range s.fields {
			if d := byKind()[Kind(s.name+"."+key)]; d != nil {
				fields[key] = d.schema()
			}
		}
		props[s.name] = decode.Object(s.desc, s.fields, fields)
	}
	return decode.Object("Assertions: an assert block (docs/files.md).", blockFields, props)
}

func severitySchema() decode.Obj {
	return decode.Obj{"enum": []string{string(Critical), string(Warning)}, "description": "critical (default) fails the test; a failing warning is reported and never fails it."}
}

func argsMatchSchema() decode.Obj {
	return decode.Obj{"type": "object", "additionalProperties": decode.Ref("regex")}
}

func countSchema() decode.Obj {
	return decode.Obj{"oneOf": []any{
		decode.Object("", []string{"exact"}, decode.Obj{"exact": decode.Obj{"type": "integer", "minimum": 0}}, "exact"),
		decode.Object("", []string{"min", "max"}, decode.Obj{"min": decode.Obj{"type": "integer", "minimum": 0}, "max": decode.Obj{"type": "integer", "minimum": 0}}),
	}, "description": "{exact: N} or {min: A, max: B}; min defaults to 1."}
}

func countOrNSchema() decode.Obj {
	return decode.Obj{"oneOf": []any{decode.Obj{"type": "integer", "minimum": 0}, countSchema()}}
}

func limitSchema() decode.Obj {
	return decode.Obj{"oneOf": []any{decode.Obj{"type": "integer", "minimum": 1}, decode.Obj{"const": false}},
		"description": "Milliseconds, or false to disable an inherited limit."}
}

func regexSchema() decode.Obj   { return decode.Ref("regex") }
func regexesSchema() decode.Obj { return decode.Ref("regexes") }

func literalsSchema() decode.Obj {
	return decode.OneOrMany(decode.Obj{"type": "string", "minLength": 1})
}

func forbidSchema() decode.Obj { return decode.OneOrMany(decode.Obj{"type": "string"}) }

func requireSchema() decode.Obj {
	return decode.List(decode.Object("", reqFields, decode.Obj{
		"name":             decode.Str("Tool name."),
		"count":            countSchema(),
		"args_match":       argsMatchSchema(),
		"result_match":     decode.Ref("regex"),
		"result_not_match": decode.Ref("regex"),
		"after":            decode.Str("A call to this tool must come earlier in the test."),
		"agent":            decode.Str("Only calls this sub-agent (its name or run id) made."),
		"max_duration_ms":  decode.Obj{"type": "integer", "minimum": 1, "description": "Every satisfying call completes within this."},
		"severity":         severitySchema(),
	}, "name"), "Calls that must happen.")
}

func forbidCallsSchema() decode.Obj {
	return decode.List(decode.Object("", filterFields, decode.Obj{
		"name":         decode.Str("Tool name."),
		"args_match":   argsMatchSchema(),
		"result_match": decode.Ref("regex"),
		"agent":        decode.Str("Only calls this sub-agent (its name or run id) made."),
		"severity":     severitySchema(),
	}, "name"), "Calls that must not happen.")
}

func orderSchema() decode.Obj {
	return decode.Obj{"type": "array", "minItems": 2, "uniqueItems": true, "items": decode.Obj{"type": "string"},
		"description": "Each tool is called, the first call of each after the first call of the one before it."}
}

func maxCallsSchema() decode.Obj {
	return decode.Obj{"oneOf": []any{decode.Obj{"type": "integer", "minimum": 1}, decode.Obj{"const": false}}, "description": "At most this many tool calls in scope, or false."}
}

func stopAfterSuccessSchema() decode.Obj {
	return decode.Object("After the first call of name whose result matches, no tool call starts.", stopFields, decode.Obj{
		"name": decode.Str("Tool name."), "args_match": argsMatchSchema(), "result_match": decode.Ref("regex"),
	}, "name")
}

func textOptionSchemas() decode.Obj {
	return decode.Obj{"case_sensitive": decode.Bool("contains, omits and equals compare case-sensitively.")}
}

func equalsSchema() decode.Obj { return decode.Str("The whole reply, trimmed.") }

func jsonSchemaSchema() decode.Obj {
	return decode.Obj{"oneOf": []any{decode.Obj{"type": "string"}, decode.Obj{"type": "object"}}, "description": "A schema file (relative to this file) or an inline schema the reply's JSON must validate against."}
}

// conditionSchema is a json_path or state entry's conditions.
func conditionSchema(fields []string, extra decode.Obj) decode.Obj {
	props := decode.Obj{"equals": decode.Obj{"description": "A JSON value the selected value must equal."},
		"match":  decode.Ref("regex"),
		"exists": decode.Bool("false: nothing may be there; true: something must be.")}
	for k, v := range extra {
		props[k] = v
	}
	return decode.Object("", fields, props)
}

func textJSONPathSchema() decode.Obj {
	return decode.List(conditionSchema(jsonPathFields, decode.Obj{"path": decode.Str("JSONPath into the reply's JSON, from $."),
		"type": decode.Obj{"enum": JSONTypes}}), "Conditions on the reply's JSON.")
}

func resultJSONPathSchema() decode.Obj {
	return decode.List(conditionSchema(jsonPathFields, decode.Obj{"path": decode.Str("JSONPath into the result's JSON, from $."),
		"type": decode.Obj{"enum": JSONTypes}}), "Conditions on the result's JSON.")
}

func groundedSchema() decode.Obj {
	return decode.Obj{"oneOf": []any{decode.Obj{"const": true}, decode.Object("", groundedFields, decode.Obj{
		"numbers": decode.Bool("Every number that is not trivially small comes from the test."),
		"urls":    decode.Bool("Every URL comes from the test."),
		"ignore":  decode.Ref("regexes"),
	})}, "description": "What the assistant states comes from tool results, tool arguments, user messages or the history."}
}

func stateSchema() decode.Obj {
	return decode.Obj{"type": "object", "propertyNames": decode.Obj{"pattern": "^(/.*)?$"}, "additionalProperties": conditionSchema(stateFields, nil),
		"description": "JSON Pointer → conditions on the agent state after the scope."}
}

func memoryEntrySchema(fields []string) decode.Obj {
	props := decode.Obj{
		"group":         decode.Str("own (default for reads and writes), other (default for forbid), or a group's name."),
		"path_match":    decode.Ref("regex"),
		"content_match": decode.Ref("regex"),
		"severity":      severitySchema(),
	}
	if slices.Contains(fields, "op") {
		props["op"] = decode.Obj{"enum": []string{MemoryOpRead, MemoryOpWrite}, "description": "The operation forbidden (default: both)."}
	}
	return decode.Object("", fields, props)
}

func memoryReadsSchema() decode.Obj {
	return decode.List(memoryEntrySchema(memoryEntryField), "Each must match at least one memory read.")
}

func memoryWritesSchema() decode.Obj {
	return decode.List(memoryEntrySchema(memoryEntryField), "Each must match at least one memory write.")
}

func memoryForbidSchema() decode.Obj {
	return decode.List(memoryEntrySchema(memoryForbidFields), "No memory event may match any.")
}

func taskRunsSchema() decode.Obj {
	return decode.Obj{"oneOf": []any{decode.Obj{"type": "integer", "minimum": 0}, decode.Object("", taskRunFields, decode.Obj{"count": countOrNSchema(), "status": decode.Obj{"enum": taskRunStatuses}})}}
}

func outboundSchema() decode.Obj {
	return decode.Obj{"oneOf": []any{decode.Obj{"type": "integer", "minimum": 0}, decode.Object("", outboundFields, decode.Obj{"count": countOrNSchema(), "match": decode.Ref("regex")})}}
}

func judgeSchema() decode.Obj {
	return decode.Object("Criteria the config's model judges over the transcript; a warning unless severity says critical.", judgeFields, decode.Obj{
		"criteria": decode.OneOrMany(decode.Obj{"type": "string", "minLength": 1}),
		"severity": severitySchema(),
	}, "criteria")
}

func scriptsSchema() decode.Obj {
	return decode.OneOrMany(decode.Object("A command reading the scope's transcript as JSON on stdin: exit 0 passes, 1 fails (stdout is the message), anything else is an error.", scriptFields, decode.Obj{
		"cmd":        decode.List(decode.Obj{"type": "string"}, "Program and arguments (no shell), run in this file's directory."),
		"timeout_ms": decode.Positive("Default 30000."),
		"severity":   severitySchema(),
	}, "cmd"))
}

func isErrorSchema() decode.Obj {
	return decode.Bool("true: the result must be an error; false: it must not be.")
}

func callDurationSchema() decode.Obj {
	return decode.Positive("Each call completes within this, from its start.")
}

func includeSchema() decode.Obj {
	return decode.OneOrMany(decode.Obj{"type": "string", "description": "A tool the listing must have."})
}

func excludeSchema() decode.Obj {
	return decode.OneOrMany(decode.Obj{"type": "string", "description": "A tool the listing must not have."})
}

func validSchemasSchema() decode.Obj {
	return decode.Bool("true: every tool's inputSchema is a valid JSON Schema of an object.")
}
