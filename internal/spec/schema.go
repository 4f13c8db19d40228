package spec

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/decode"
)

// JSON Schemas (draft 2020-12) for the two file kinds, for editor completion
// through `# yaml-language-server: $schema=...`. They are built from the
// same field lists the loader checks, so they cannot drift; the loader stays
// the authority (it also checks regexes, references and cross-field rules).

// SchemaBaseURL is where the committed schemas are published.
const SchemaBaseURL = "https://raw.githubusercontent.com/ananke/action/main/schema/"

// SchemaKinds lists the file kinds `ananke schema` knows.
var SchemaKinds = []string{"config", "test"}

type obj = map[string]any

// Schema returns the JSON Schema for a file kind ("config" or "test").
func Schema(kind string) ([]byte, error) {
	var s obj
	switch kind {
	case "config":
		s = configSchema()
	case "test":
		s = testSchema()
	default:
		return nil, fmt.Errorf("unknown schema %q (known: config, test)", kind)
	}
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode schema %s: %w", kind, err)
	}
	return append(b, '\n'), nil
}

// SchemaFile is the committed file name of a kind's schema.
func SchemaFile(kind string) string { return "ananke." + kind + ".schema.json" }

func document(kind, title string, root obj) obj {
	root["$schema"] = "https://json-schema.org/draft/2020-12/schema"
	root["$id"] = SchemaBaseURL + SchemaFile(kind)
	root["title"] = title
	root["$defs"] = obj{"assert": assertSchema(), "regex": regexDef(), "regexes": oneOrMany(ref("regex")),
		"runs": obj{"type": "integer", "minimum": 1, "maximum": MaxRuns,
			"description": "How many independent times each test runs (default 1). A test file's value wins over --runs, which wins over the config's."},
		"min_pass_rate": obj{"type": "number", "minimum": 0, "maximum": 100,
			"description": "Percentage of runs that must pass for the test to pass (default 100)."},
		"retries": obj{"type": "integer", "minimum": 0, "maximum": MaxRetries,
			"description": "How often a failing or erroring run is run again (default 0); a run that passes on a retry passes and marks the test flaky."},
		"on_missing_capability": obj{"enum": missingPolicies,
			"description": "An assertion whose trace lacks a capability it needs is skipped with the reason (skip, the default) or is an error (error)."},
		"hook": object("", hookFields, obj{
			"cmd":         list(obj{"type": "string"}, "Program and arguments (no shell)."),
			"output_file": str("A fixture file holding the hook's output (one JSON object of variables), instead of cmd; relative to this file."),
			"timeout_ms":  positive("Default 30000; the whole process group is killed after it."),
		}),
		"parts": obj{"type": "array", "minItems": 1, "description": "A user message as parts: texts and attached files (sent as AG-UI binary content).",
			"items": object("", partFields, obj{
				"type":     obj{"enum": partTypes},
				"text":     str("A text part's text."),
				"source":   obj{"type": "string", "pattern": "^file://", "description": "file:// path of the attached file, relative to this file."},
				"mimeType": str("The file's MIME type; default: from its extension or content."),
			}, "type")},
	}
	return root
}

// object builds a closed object schema; props must describe exactly the
// fields listed in known (the loader's list), which a test enforces.
func object(desc string, known []string, props obj, required ...string) obj {
	o := obj{"type": "object", "additionalProperties": false, "properties": props}
	if desc != "" {
		o["description"] = desc
	}
	if len(required) > 0 {
		o["required"] = required
	}
	for _, k := range known {
		if _, ok := props[k]; !ok {
			panic("schema: no property for field " + k)
		}
	}
	if len(props) != len(known) {
		panic(fmt.Sprintf("schema: %d properties for %d fields", len(props), len(known)))
	}
	return o
}

func str(desc string) obj         { return obj{"type": "string", "description": desc} }
func ref(def string) obj          { return obj{"$ref": "#/$defs/" + def} }
func positive(desc string) obj    { return obj{"type": "integer", "minimum": 1, "description": desc} }
func boolean(desc string) obj     { return obj{"type": "boolean", "description": desc} }
func oneOrMany(item obj) obj      { return obj{"oneOf": []any{item, obj{"type": "array", "items": item}}} }
func list(item obj, d string) obj { return obj{"type": "array", "items": item, "description": d} }
func stringMap(desc string) obj {
	return obj{"type": "object", "additionalProperties": obj{"type": "string"}, "description": desc}
}

func regexDef() obj {
	return obj{"type": "string", "format": "regex",
		"description": "Go RE2 regular expression, unanchored, case-sensitive unless (?i). ${VAR} inserts a variable's value literally."}
}

func versionSchema() obj {
	return obj{"type": "string", "enum": decode.Versions, "description": "Schema version (MAJOR.MINOR): 1.0 AG-UI, 1.1 adds A2A, 1.2 adds MCP."}
}

func configSchema() obj {
	server := object("Start the agent before the tests and stop it after.", serverFields, obj{
		"command":        list(obj{"type": "string"}, "Program and arguments (no shell)."),
		"cwd":            str("Working directory, relative to the config file."),
		"env":            stringMap("Extra environment variables."),
		"ready_url":      str("Polled until it answers HTTP 2xx or 4xx. Default: the target endpoint."),
		"ready_log":      ref("regex"),
		"timeout_ms":     positive("How long to wait for readiness (default 60000)."),
		"reuse_existing": boolean("Skip starting the server when the endpoint already answers."),
	}, "command")
	target := targetSchema(server)
	root := object("", configFields, obj{
		"version":               versionSchema(),
		"target":                target,
		"tests":                 oneOrMany(obj{"type": "string", "description": "Glob (with **) relative to the config file."}),
		"redact":                ref("regexes"),
		"fail_on_flaky":         boolean("A flaky test (some runs passed, some failed) fails the run even when it passed."),
		"on_missing_capability": ref("on_missing_capability"),
		"assertions":            obj{"type": "object", "additionalProperties": ref("assert"), "description": "Named assert blocks any assert block can extend."},
		"model": object("The OpenAI-compatible chat-completions endpoint the user simulator, judges and ananke generate use.", modelFields, obj{
			"endpoint":    str("Base URL, e.g. https://api.openai.com/v1."),
			"name":        str("Model name."),
			"api_key":     str("API key, e.g. ${ENV.OPENAI_API_KEY}; masked in every output."),
			"temperature": obj{"type": "number", "minimum": 0, "maximum": 2},
			"seed":        obj{"type": "integer"},
			"timeout_ms":  positive("Bound on one model request (default 60000)."),
			"cache":       obj{"oneOf": []any{obj{"type": "string", "minLength": 1}, obj{"const": false}}, "description": "Cache directory, relative to the config (default .ananke/cache); false disables."},
			"prompts": object("Files replacing Ananke's prompts (docs/models.md).", PromptNames, obj{
				"judge": str("System prompt of judge assertions."), "simulator": str("System prompt of the user simulator."), "generate": str("System prompt of ananke generate."),
			}),
		}, "endpoint", "name"),
		"runs":          ref("runs"),
		"min_pass_rate": ref("min_pass_rate"),
		"retries":       ref("retries"),
		"before_all":    list(ref("hook"), "Commands run once before any test; their JSON output sets ${VAR}s every test sees."),
		"after_all":     list(ref("hook"), "Commands run once after the last test, with the run's outcome as JSON on stdin."),
	}, "version")
	root["allOf"] = []any{
		versionGate(obj{"target": obj{"properties": obj{"type": obj{"const": TargetA2A}}, "required": []string{"type"}}}, []string{"target"}, decode.MinorA2A),
		versionGate(obj{"target": obj{"properties": obj{"type": obj{"const": TargetMCP}}, "required": []string{"type"}}}, []string{"target"}, decode.MinorMCP),
	}
	return document("config", "Ananke project config (ananke.config.yaml)", root)
}

func testSchema() obj {
	argsMatch := obj{"type": "object", "additionalProperties": ref("regex"),
		"description": "Argument name or dotted path (items.0.sku) → regex over its text."}
	tool := object("A client tool Ananke advertises and answers itself.", toolFields, obj{
		"name":        str("Tool name."),
		"description": str("Description sent to the agent."),
		"parameters":  obj{"type": "object", "description": "JSON Schema of the arguments."},
		"result":      obj{"description": "The answer: a string, or any value sent as JSON text."},
		"result_file": str("A fixture file holding the answer, relative to this file (fixtures/fx.<tool>.<case>.json): a .json file is sent as its JSON value, any other as its text."),
		"results": list(object("", resultFields, obj{
			"args_match":  argsMatch,
			"result":      obj{"description": "The answer when args_match matches."},
			"result_file": str("A fixture file holding the answer when args_match matches."),
		}), "The first entry whose args_match matches answers the call."),
	}, "name")
	turn := turnSchema()
	root := object("", testFields, obj{
		"version":       versionSchema(),
		"name":          str("Test name."),
		"id":            str("Stable identifier; default: the file path without extension."),
		"tags":          oneOrMany(obj{"type": "string"}),
		"skip":          str("Skip the test, giving the reason."),
		"hooks":         list(ref("hook"), "Commands run before the turns; their JSON output sets ${VAR}s."),
		"after":         list(ref("hook"), "Commands run after each attempt, passed or not, with its result as JSON on stdin."),
		"history":       list(messageSchema(), "Messages placed before the first turn."),
		"tools":         list(tool, "Client tools."),
		"turns":         obj{"type": "array", "minItems": 1, "items": turn},
		"assert":        ref("assert"),
		"runs":          ref("runs"),
		"min_pass_rate": ref("min_pass_rate"),
		"retries":       ref("retries"),
		"simulator": object("A simulated user (the config's model) that talks to the agent until every checkpoint is reached.", simulatorFields, obj{
			"persona": str("Who the simulated user is."), "goal": str("What the simulated user wants."), "instructions": str("More guidance for the simulated user."),
		}, "goal"),
		"max_turns":  obj{"type": "integer", "minimum": 1, "maximum": MaxSimulatedTurns, "description": "Simulated turns at most (default 10)."},
		"timeout_ms": positive("Bound on the simulated turns (default 120000)."),
		"checkpoints": list(object("", checkpointFields, obj{
			"id":          str("Checkpoint id."),
			"description": str("What the checkpoint stands for."),
			"after":       oneOrMany(obj{"type": "string"}),
			"assert":      ref("assert"),
		}, "id", "assert"), "What a dynamic test must see happen, in order."),
		"source": object("A recorded run of another runtime to assert on, instead of turns.", sourceFields, obj{
			"format":  obj{"enum": SourceFormats, "description": "claude-transcript: Claude Code / Agent SDK sessions; nanoclaw: a NanoClaw folder."},
			"path":    str("Relative to this file. claude-transcript: a session's .jsonl, a project folder of sessions (one test each), or a glob; ~ and ${ENV.NAME} are read when the suite loads. nanoclaw: the NanoClaw folder."),
			"select":  obj{"enum": selections, "description": "claude-transcript, a folder or a glob: all sessions, one test each (default), or the newest."},
			"strict":  obj{"type": "boolean", "description": "claude-transcript: a line that cannot be read is an error, not a warning (default false)."},
			"group":   str("nanoclaw: the group folder."),
			"session": str("nanoclaw: the session id (default: the group's current session)."),
			"task":    str("nanoclaw: the scheduled task whose run this is."),
		}, "format", "path"),
		"assertions": obj{"type": "array", "description": "Named assertions (seed 003 and seed 004 catalogs): {type, ...} or {id, type, severity, params, requires_capabilities}.",
			"items": obj{"type": "object", "required": []string{"type"}, "properties": obj{
				"type": obj{"enum": VocabTypes},
				"id":   str("The assertion's id in every report (test.<id>); used once in the list."),
				"args": obj{"type": "object", "description": "must_call_tool, tool_called: arguments that must equal these values exactly."},
				"args_match": obj{"type": "object", "additionalProperties": obj{"type": "string"},
					"description": "must_call_tool, tool_called: arguments that must match these regexes."},
			}}},
		"on_missing_capability": ref("on_missing_capability"),
	}, "version", "name")
	root["anyOf"] = []any{obj{"required": []string{"turns"}}, obj{"required": []string{"simulator"}}, obj{"required": []string{"source"}}}
	turnOf := func(types ...string) obj {
		return obj{"turns": obj{"contains": obj{"properties": obj{"type": obj{"enum": types}}, "required": []string{"type"}}}}
	}
	root["allOf"] = []any{
		versionGate(turnOf(TurnA2ASend), []string{"turns"}, decode.MinorA2A),
		versionGate(turnOf(TurnMCPCall, TurnMCPList), []string{"turns"}, decode.MinorMCP),
	}
	return document("test", "Ananke test file (*.ananke.yaml)", root)
}

func messageSchema() obj {
	return object("", messageFields, obj{
		"role":    obj{"enum": historyRoles},
		"content": obj{"oneOf": []any{obj{"type": "string"}, ref("parts")}, "description": "Message text, or (user messages) a list of parts."},
	}, "role", "content")
}

func assertSchema() obj {
	argsMatch := obj{"type": "object", "additionalProperties": ref("regex")}
	count := obj{"oneOf": []any{
		object("", []string{"exact"}, obj{"exact": obj{"type": "integer", "minimum": 0}}, "exact"),
		object("", []string{"min", "max"}, obj{"min": obj{"type": "integer", "minimum": 0}, "max": obj{"type": "integer", "minimum": 0}}),
	}, "description": "{exact: N} or {min: A, max: B}; min defaults to 1."}
	limit := obj{"oneOf": []any{obj{"type": "integer", "minimum": 1}, obj{"const": false}},
		"description": "Milliseconds, or false to disable an inherited limit."}
	severity := obj{"enum": []string{string(Critical), string(Warning)}, "description": "critical (default) fails the test; a failing warning is reported and never fails it."}
	literals := oneOrMany(obj{"type": "string", "minLength": 1})
	condition := func(fields []string, extra obj) obj {
		props := obj{"equals": obj{"description": "A JSON value the selected value must equal."},
			"match":  ref("regex"),
			"exists": boolean("false: nothing may be there; true: something must be.")}
		for k, v := range extra {
			props[k] = v
		}
		return object("", fields, props)
	}
	memoryEntry := func(fields []string) obj {
		props := obj{
			"group":         str("own (default for reads and writes), other (default for forbid), or a group's name."),
			"op":            obj{"enum": []string{MemoryOpRead, MemoryOpWrite}, "description": "The operation forbidden (default: both)."},
			"path_match":    ref("regex"),
			"content_match": ref("regex"),
			"severity":      severity,
		}
		if !slices.Contains(fields, "op") {
			delete(props, "op")
		}
		return object("", fields, props)
	}
	countOrN := obj{"oneOf": []any{obj{"type": "integer", "minimum": 0}, count}}
	return object("Assertions (seed 001 AssertBlock, with the additions of docs/files.md).", blockFields, obj{
		"severity": severity,
		"requires": oneOrMany(obj{"enum": capability.All, "description": "A capability the block's checks need besides their own."}),
		"memory": object("Memory reads and writes (needs supports_memory_events).", memoryFields, obj{
			"reads":  list(memoryEntry(memoryEntryField), "Each must match at least one memory read."),
			"writes": list(memoryEntry(memoryEntryField), "Each must match at least one memory write."),
			"forbid": list(memoryEntry(memoryForbid), "No memory event may match any."),
		}),
		"scheduler": object("The scheduled task's runs and the messages sent out (needs supports_scheduler_context).", schedulerFields, obj{
			"task_runs": obj{"oneOf": []any{obj{"type": "integer", "minimum": 0}, object("", taskRunFields, obj{"count": countOrN, "status": obj{"enum": taskRunStatuses}})}},
			"outbound":  obj{"oneOf": []any{obj{"type": "integer", "minimum": 0}, object("", outboundFields, obj{"count": countOrN, "match": ref("regex")})}},
		}),
		"extends": oneOrMany(obj{"type": "string", "description": "A block of the config's assertions:."}),
		"tools": object("", toolsFields, obj{
			"forbid": oneOrMany(obj{"type": "string"}),
			"require": list(object("", reqFields, obj{
				"name":             str("Tool name."),
				"count":            count,
				"args_match":       argsMatch,
				"result_match":     ref("regex"),
				"result_not_match": ref("regex"),
				"after":            str("A call to this tool must come earlier in the test."),
				"max_duration_ms":  obj{"type": "integer", "minimum": 1, "description": "Every satisfying call completes within this."},
				"severity":         severity,
			}, "name"), "Calls that must happen."),
			"forbid_calls": list(object("", filterFields, obj{
				"name":         str("Tool name."),
				"args_match":   argsMatch,
				"result_match": ref("regex"),
				"severity":     severity,
			}, "name"), "Calls that must not happen."),
			"order": obj{"type": "array", "minItems": 2, "uniqueItems": true, "items": obj{"type": "string"},
				"description": "Each tool is called, the first call of each after the first call of the one before it."},
			"max_calls": obj{"oneOf": []any{obj{"type": "integer", "minimum": 1}, obj{"const": false}}, "description": "At most this many tool calls in scope, or false."},
			"stop_after_success": object("After the first call of name whose result matches, no tool call starts.", stopFields, obj{
				"name": str("Tool name."), "args_match": argsMatch, "result_match": ref("regex"),
			}, "name"),
		}),
		"timing": object("", timingFields, obj{"max_duration_ms": limit, "max_idle_ms": limit,
			"max_first_event_ms": limit, "max_first_text_ms": limit}),
		"text": object("", textFields, obj{
			"must_match": ref("regexes"), "must_not_match": ref("regexes"),
			"contains": literals, "omits": literals,
			"equals":         str("The whole reply, trimmed."),
			"case_sensitive": boolean("contains, omits and equals compare case-sensitively."),
			"json_schema":    obj{"oneOf": []any{obj{"type": "string"}, obj{"type": "object"}}, "description": "A schema file (relative to this file) or an inline schema the reply's JSON must validate against."},
			"json_path": list(condition(jsonPathFields, obj{"path": str("JSONPath into the reply's JSON, from $."),
				"type": obj{"enum": JSONTypes}}), "Conditions on the reply's JSON."),
		}),
		"grounded": obj{"oneOf": []any{obj{"const": true}, object("", groundedFields, obj{
			"numbers": boolean("Every number that is not trivially small comes from the test."),
			"urls":    boolean("Every URL comes from the test."),
			"ignore":  ref("regexes"),
		})}, "description": "What the assistant states comes from tool results, tool arguments, user messages or the history."},
		"state": obj{"type": "object", "propertyNames": obj{"pattern": "^(/.*)?$"}, "additionalProperties": condition(stateFields, nil),
			"description": "JSON Pointer → conditions on the agent state after the scope."},
		"judge": object("Criteria the config's model judges over the transcript; a warning unless severity says critical.", judgeFields, obj{
			"criteria": oneOrMany(obj{"type": "string", "minLength": 1}),
			"severity": severity,
		}, "criteria"),
		"script": oneOrMany(scriptSchema(severity)),
		"result": object("The results of the tool calls in scope (an mcp:call turn's call); every call must pass each check. Version 1.2.", resultCheckFields, obj{
			"match":     ref("regex"),
			"not_match": ref("regex"),
			"json_path": list(condition(jsonPathFields, obj{"path": str("JSONPath into the result's JSON, from $."),
				"type": obj{"enum": JSONTypes}}), "Conditions on the result's JSON."),
			"is_error":        boolean("true: the result must be an error; false: it must not be."),
			"max_duration_ms": positive("Each call completes within this, from its start."),
		}),
		"tools_list": object("The tools/list results in scope (an mcp:list_tools turn's listing). Version 1.2.", toolsListFields, obj{
			"include":       oneOrMany(obj{"type": "string", "description": "A tool the listing must have."}),
			"exclude":       oneOrMany(obj{"type": "string", "description": "A tool the listing must not have."}),
			"valid_schemas": boolean("true: every tool's inputSchema is a valid JSON Schema of an object."),
		}),
	})
}

func scriptSchema(severity obj) obj {
	return object("A command reading the scope's transcript as JSON on stdin: exit 0 passes, 1 fails (stdout is the message), anything else is an error.", scriptFields, obj{
		"cmd":        list(obj{"type": "string"}, "Program and arguments (no shell), run in this file's directory."),
		"timeout_ms": positive("Default 30000."),
		"severity":   severity,
	}, "cmd")
}
