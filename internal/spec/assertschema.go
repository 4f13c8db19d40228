package spec

import (
	"slices"

	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/decode"
)

func assertSchema() decode.Obj {
	argsMatch := decode.Obj{"type": "object", "additionalProperties": decode.Ref("regex")}
	count := decode.Obj{"oneOf": []any{
		decode.Object("", []string{"exact"}, decode.Obj{"exact": decode.Obj{"type": "integer", "minimum": 0}}, "exact"),
		decode.Object("", []string{"min", "max"}, decode.Obj{"min": decode.Obj{"type": "integer", "minimum": 0}, "max": decode.Obj{"type": "integer", "minimum": 0}}),
	}, "description": "{exact: N} or {min: A, max: B}; min defaults to 1."}
	limit := decode.Obj{"oneOf": []any{decode.Obj{"type": "integer", "minimum": 1}, decode.Obj{"const": false}},
		"description": "Milliseconds, or false to disable an inherited limit."}
	severity := decode.Obj{"enum": []string{string(Critical), string(Warning)}, "description": "critical (default) fails the test; a failing warning is reported and never fails it."}
	literals := decode.OneOrMany(decode.Obj{"type": "string", "minLength": 1})
	condition := func(fields []string, extra decode.Obj) decode.Obj {
		props := decode.Obj{"equals": decode.Obj{"description": "A JSON value the selected value must equal."},
			"match":  decode.Ref("regex"),
			"exists": decode.Bool("false: nothing may be there; true: something must be.")}
		for k, v := range extra {
			props[k] = v
		}
		return decode.Object("", fields, props)
	}
	memoryEntry := func(fields []string) decode.Obj {
		props := decode.Obj{
			"group":         decode.Str("own (default for reads and writes), other (default for forbid), or a group's name."),
			"op":            decode.Obj{"enum": []string{MemoryOpRead, MemoryOpWrite}, "description": "The operation forbidden (default: both)."},
			"path_match":    decode.Ref("regex"),
			"content_match": decode.Ref("regex"),
			"severity":      severity,
		}
		if !slices.Contains(fields, "op") {
			delete(props, "op")
		}
		return decode.Object("", fields, props)
	}
	countOrN := decode.Obj{"oneOf": []any{decode.Obj{"type": "integer", "minimum": 0}, count}}
	return decode.Object("Assertions (seed 001 AssertBlock, with the additions of docs/files.md).", blockFields, decode.Obj{
		"severity": severity,
		"requires": decode.OneOrMany(decode.Obj{"enum": capability.All, "description": "A capability the block's checks need besides their own."}),
		"memory": decode.Object("Memory reads and writes (needs supports_memory_events).", memoryFields, decode.Obj{
			"reads":  decode.List(memoryEntry(memoryEntryField), "Each must match at least one memory read."),
			"writes": decode.List(memoryEntry(memoryEntryField), "Each must match at least one memory write."),
			"forbid": decode.List(memoryEntry(memoryForbid), "No memory event may match any."),
		}),
		"scheduler": decode.Object("The scheduled task's runs and the messages sent out (needs supports_scheduler_context).", schedulerFields, decode.Obj{
			"task_runs": decode.Obj{"oneOf": []any{decode.Obj{"type": "integer", "minimum": 0}, decode.Object("", taskRunFields, decode.Obj{"count": countOrN, "status": decode.Obj{"enum": taskRunStatuses}})}},
			"outbound":  decode.Obj{"oneOf": []any{decode.Obj{"type": "integer", "minimum": 0}, decode.Object("", outboundFields, decode.Obj{"count": countOrN, "match": decode.Ref("regex")})}},
		}),
		"extends": decode.OneOrMany(decode.Obj{"type": "string", "description": "A block of the config's assertions:."}),
		"tools": decode.Object("", toolsFields, decode.Obj{
			"forbid": decode.OneOrMany(decode.Obj{"type": "string"}),
			"require": decode.List(decode.Object("", reqFields, decode.Obj{
				"name":             decode.Str("Tool name."),
				"count":            count,
				"args_match":       argsMatch,
				"result_match":     decode.Ref("regex"),
				"result_not_match": decode.Ref("regex"),
				"after":            decode.Str("A call to this tool must come earlier in the test."),
				"max_duration_ms":  decode.Obj{"type": "integer", "minimum": 1, "description": "Every satisfying call completes within this."},
				"severity":         severity,
			}, "name"), "Calls that must happen."),
			"forbid_calls": decode.List(decode.Object("", filterFields, decode.Obj{
				"name":         decode.Str("Tool name."),
				"args_match":   argsMatch,
				"result_match": decode.Ref("regex"),
				"severity":     severity,
			}, "name"), "Calls that must not happen."),
			"order": decode.Obj{"type": "array", "minItems": 2, "uniqueItems": true, "items": decode.Obj{"type": "string"},
				"description": "Each tool is called, the first call of each after the first call of the one before it."},
			"max_calls": decode.Obj{"oneOf": []any{decode.Obj{"type": "integer", "minimum": 1}, decode.Obj{"const": false}}, "description": "At most this many tool calls in scope, or false."},
			"stop_after_success": decode.Object("After the first call of name whose result matches, no tool call starts.", stopFields, decode.Obj{
				"name": decode.Str("Tool name."), "args_match": argsMatch, "result_match": decode.Ref("regex"),
			}, "name"),
		}),
		"timing": decode.Object("", timingFields, decode.Obj{"max_duration_ms": limit, "max_idle_ms": limit,
			"max_first_event_ms": limit, "max_first_text_ms": limit}),
		"text": decode.Object("", textFields, decode.Obj{
			"must_match": decode.Ref("regexes"), "must_not_match": decode.Ref("regexes"),
			"contains": literals, "omits": literals,
			"equals":         decode.Str("The whole reply, trimmed."),
			"case_sensitive": decode.Bool("contains, omits and equals compare case-sensitively."),
			"json_schema":    decode.Obj{"oneOf": []any{decode.Obj{"type": "string"}, decode.Obj{"type": "object"}}, "description": "A schema file (relative to this file) or an inline schema the reply's JSON must validate against."},
			"json_path": decode.List(condition(jsonPathFields, decode.Obj{"path": decode.Str("JSONPath into the reply's JSON, from $."),
				"type": decode.Obj{"enum": JSONTypes}}), "Conditions on the reply's JSON."),
		}),
		"grounded": decode.Obj{"oneOf": []any{decode.Obj{"const": true}, decode.Object("", groundedFields, decode.Obj{
			"numbers": decode.Bool("Every number that is not trivially small comes from the test."),
			"urls":    decode.Bool("Every URL comes from the test."),
			"ignore":  decode.Ref("regexes"),
		})}, "description": "What the assistant states comes from tool results, tool arguments, user messages or the history."},
		"state": decode.Obj{"type": "object", "propertyNames": decode.Obj{"pattern": "^(/.*)?$"}, "additionalProperties": condition(stateFields, nil),
			"description": "JSON Pointer → conditions on the agent state after the scope."},
		"judge": decode.Object("Criteria the config's model judges over the transcript; a warning unless severity says critical.", judgeFields, decode.Obj{
			"criteria": decode.OneOrMany(decode.Obj{"type": "string", "minLength": 1}),
			"severity": severity,
		}, "criteria"),
		"script": decode.OneOrMany(scriptSchema(severity)),
		"result": decode.Object("The results of the tool calls in scope (an mcp:call turn's call); every call must pass each check. Version 1.2.", resultCheckFields, decode.Obj{
			"match":     decode.Ref("regex"),
			"not_match": decode.Ref("regex"),
			"json_path": decode.List(condition(jsonPathFields, decode.Obj{"path": decode.Str("JSONPath into the result's JSON, from $."),
				"type": decode.Obj{"enum": JSONTypes}}), "Conditions on the result's JSON."),
			"is_error":        decode.Bool("true: the result must be an error; false: it must not be."),
			"max_duration_ms": decode.Positive("Each call completes within this, from its start."),
		}),
		"tools_list": decode.Object("The tools/list results in scope (an mcp:list_tools turn's listing). Version 1.2.", toolsListFields, decode.Obj{
			"include":       decode.OneOrMany(decode.Obj{"type": "string", "description": "A tool the listing must have."}),
			"exclude":       decode.OneOrMany(decode.Obj{"type": "string", "description": "A tool the listing must not have."}),
			"valid_schemas": decode.Bool("true: every tool's inputSchema is a valid JSON Schema of an object."),
		}),
	})
}

func scriptSchema(severity decode.Obj) decode.Obj {
	return decode.Object("A command reading the scope's transcript as JSON on stdin: exit 0 passes, 1 fails (stdout is the message), anything else is an error.", scriptFields, decode.Obj{
		"cmd":        decode.List(decode.Obj{"type": "string"}, "Program and arguments (no shell), run in this file's directory."),
		"timeout_ms": decode.Positive("Default 30000."),
		"severity":   severity,
	}, "cmd")
}
