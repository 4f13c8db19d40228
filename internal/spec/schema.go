package spec

import (
	"encoding/json"
	"fmt"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/doubles/decl"
	gwdecl "github.com/ananke/action/internal/gateway/decl"
)

// JSON Schemas (draft 2020-12) for the two file kinds, for editor completion
// through `# yaml-language-server: $schema=...`. They are built from the
// same field lists the loader checks, so they cannot drift; the loader stays
// the authority (it also checks regexes, references and cross-field rules).

// SchemaBaseURL is where the committed schemas are published.
const SchemaBaseURL = "https://raw.githubusercontent.com/ananke/action/main/schema/"

// SchemaKinds lists the file kinds `ananke schema` knows.
var SchemaKinds = []string{"config", "test", "quarantine"}

// Schema returns the JSON Schema for a file kind ("config", "test" or
// "quarantine").
func Schema(kind string) ([]byte, error) {
	var s decode.Obj
	switch kind {
	case "config":
		s = configSchema()
	case "test":
		s = testSchema()
	case "quarantine":
		s = quarantineFileSchema()
	default:
		return nil, fmt.Errorf("unknown schema %q (known: config, test, quarantine)", kind)
	}
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode schema %s: %w", kind, err)
	}
	return append(b, '\n'), nil
}

// SchemaFile is the committed file name of a kind's schema.
func SchemaFile(kind string) string { return "ananke." + kind + ".schema.json" }

func document(kind, title string, root decode.Obj) decode.Obj {
	root["$schema"] = "https://json-schema.org/draft/2020-12/schema"
	root["$id"] = SchemaBaseURL + SchemaFile(kind)
	root["title"] = title
	root["$defs"] = decode.Obj{"assert": assertion.AssertSchema(), "regex": regexDef(), "regexes": decode.OneOrMany(decode.Ref("regex")),
		"runs": decode.Obj{"oneOf": []any{
			decode.Obj{"type": "integer", "minimum": 1, "maximum": MaxRuns},
			decode.Object("Adaptive runs: at least min, at most max, stopping once the verdict is settled (docs/runs.md).", []string{"min", "max"}, decode.Obj{
				"min": decode.Obj{"type": "integer", "minimum": 1, "maximum": MaxRuns, "description": "The fewest runs."},
				"max": decode.Obj{"type": "integer", "minimum": 1, "maximum": MaxRuns, "description": "The most runs; at least min. A test still unsettled after them is inconclusive."},
			}, "min", "max"),
		}, "description": "How many independent times each test runs (default 1), or {min, max} for adaptive runs. A test file's value wins over --runs, which wins over the config's."},
		"adaptive": decode.Object("The sequential test of adaptive runs (docs/runs.md); a value a test file leaves unset comes from the config, else its default (docs/runs.md).", ruleFields, decode.Obj{
			"zone":  decode.Obj{"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 50, "description": "Indifference zone around min_pass_rate, in percentage points: rates within it may go either way."},
			"alpha": decode.Obj{"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 0.5, "description": "The chance of passing a test whose pass rate is zone below min_pass_rate."},
			"beta":  decode.Obj{"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 0.5, "description": "The chance of failing a test whose pass rate is zone above min_pass_rate."},
		}),
		"min_pass_rate": decode.Obj{"type": "number", "minimum": 0, "maximum": 100,
			"description": "Percentage of runs that must pass for the test to pass (default 100)."},
		"retries": decode.Obj{"type": "integer", "minimum": 0, "maximum": MaxRetries,
			"description": "How often a failing or erroring run is run again (default 0); a run that passes on a retry passes and marks the test flaky."},
		"on_missing_capability": decode.Obj{"enum": missingPolicies,
			"description": "An assertion whose trace lacks a capability it needs is skipped with the reason (skip, the default) or is an error (error)."},
		"hook": decode.Object("", hookFields, decode.Obj{
			"cmd":         decode.List(decode.Obj{"type": "string"}, "Program and arguments (no shell)."),
			"output_file": decode.Str("A fixture file holding the hook's output (one JSON object of variables), instead of cmd; relative to this file."),
			"timeout_ms":  decode.Positive("Default 30000; the whole process group is killed after it."),
		}),
		"parts": decode.Obj{"type": "array", "minItems": 1, "description": "A user message as parts: texts and attached files (sent as AG-UI binary content, or A2A file parts).",
			"items": decode.Object("", partFields, decode.Obj{
				"type":     decode.Obj{"enum": partTypes},
				"text":     decode.Str("A text part's text."),
				"source":   decode.Obj{"type": "string", "pattern": "^file://", "description": "file:// path of the attached file, relative to this file."},
				"mimeType": decode.Str("The file's MIME type; default: from its extension or content."),
			}, "type")},
	}
	return root
}

func regexDef() decode.Obj {
	return decode.Obj{"type": "string", "format": "regex",
		"description": "Go RE2 regular expression, unanchored, case-sensitive unless (?i). ${VAR} inserts a variable's value literally."}
}

func versionSchema() decode.Obj {
	return decode.Obj{"type": "string", "enum": decode.Versions, "description": "Schema version (MAJOR.MINOR): 1.0 AG-UI, 1.1 adds A2A, 1.2 adds MCP."}
}

func configSchema() decode.Obj {
	server := decode.Object("Start the agent before the tests and stop it after.", serverFields, decode.Obj{
		"command":        decode.List(decode.Obj{"type": "string"}, "Program and arguments (no shell)."),
		"cwd":            decode.Str("Working directory, relative to the config file."),
		"env":            decode.StringMap("Extra environment variables."),
		"ready_url":      decode.Str("Polled until it answers HTTP 2xx or 4xx. Default: the target endpoint."),
		"ready_log":      decode.Ref("regex"),
		"timeout_ms":     decode.Positive("How long to wait for readiness (default 60000)."),
		"reuse_existing": decode.Bool("Skip starting the server when the endpoint already answers."),
	}, "command")
	target := targetSchema(server)
	root := decode.Object("", configFields, decode.Obj{
		"version":               versionSchema(),
		"target":                target,
		"tests":                 decode.OneOrMany(decode.Obj{"type": "string", "description": "Glob (with **) relative to the config file."}),
		"redact":                decode.Ref("regexes"),
		"fail_on_flaky":         decode.Bool("A flaky test (some runs passed, some failed) fails the run even when it passed."),
		"fail_on_inconclusive":  decode.Bool("A test whose adaptive runs reached their maximum without a settled verdict fails the run, whatever its status."),
		"on_missing_capability": decode.Ref("on_missing_capability"),
		"assertions":            decode.Obj{"type": "object", "additionalProperties": decode.Ref("assert"), "description": "Named assert blocks any assert block can extend."},
		"model": decode.Object("The OpenAI-compatible chat-completions endpoint the user simulator, judges and ananke generate use.", modelFields, decode.Obj{
			"endpoint":    decode.Str("Base URL, e.g. https://api.openai.com/v1."),
			"name":        decode.Str("Model name."),
			"api_key":     decode.Str("API key, e.g. ${ENV.OPENAI_API_KEY}; masked in every output."),
			"temperature": decode.Obj{"type": "number", "minimum": 0, "maximum": 2},
			"seed":        decode.Obj{"type": "integer"},
			"timeout_ms":  decode.Positive("Bound on one model request (default 60000)."),
			"cache":       decode.Obj{"oneOf": []any{decode.Obj{"type": "string", "minLength": 1}, decode.Obj{"const": false}}, "description": "Cache directory, relative to the config (default .ananke/cache); false disables."},
			"prompts": decode.Object("Files replacing Ananke's prompts (docs/models.md).", PromptNames, decode.Obj{
				"judge": decode.Str("System prompt of judge assertions."), "simulator": decode.Str("System prompt of the user simulator."), "generate": decode.Str("System prompt of ananke generate."),
			}),
		}, "endpoint", "name"),
		"runs":          decode.Ref("runs"),
		"min_pass_rate": decode.Ref("min_pass_rate"),
		"retries":       decode.Ref("retries"),
		"adaptive":      decode.Ref("adaptive"),
		"confidence":    confidenceSchema(),
		"pricing":       pricingSchema(),
		"budget":        runBudgetSchema(),
		"before_all":    decode.List(decode.Ref("hook"), "Commands run once before any test; their JSON output sets ${VAR}s every test sees."),
		"after_all":     decode.List(decode.Ref("hook"), "Commands run once after the last test, with the run's outcome as JSON on stdin."),
		"quarantine":    quarantineListSchema(),
		"gateway":       gwdecl.ConfigSchema(),
		"backend":       backendSchema(),
		"doubles":       decl.ConfigSchema(),
		"otel":          otelSchema(),
		"attacks":       attacksSchema(),
		"variants":      variantsSchema(target),
		"judges":        judgesSchema(),
		"snapshots":     snapshotsSchema(),
		"quarantine_file": decode.Str("A YAML file of more quarantine entries, relative to the config (its quarantine: list; schema " +
			SchemaFile("quarantine") + ")."),
	}, "version")
	root["allOf"] = []any{
		versionGate(decode.Obj{"target": decode.Obj{"properties": decode.Obj{"type": decode.Obj{"const": TargetA2A}}, "required": []string{"type"}}}, []string{"target"}, decode.MinorA2A),
		versionGate(decode.Obj{"target": decode.Obj{"properties": decode.Obj{"type": decode.Obj{"const": TargetMCP}}, "required": []string{"type"}}}, []string{"target"}, decode.MinorMCP),
	}
	return document("config", "Ananke project config (ananke.config.yaml)", root)
}

func testSchema() decode.Obj {
	argsMatch := decode.Obj{"type": "object", "additionalProperties": decode.Ref("regex"),
		"description": "Argument name or dotted path (items.0.sku) → regex over its text."}
	tool := decode.Object("A client tool Ananke advertises and answers itself.", toolFields, decode.Obj{
		"name":        decode.Str("Tool name."),
		"description": decode.Str("Description sent to the agent."),
		"parameters":  decode.Obj{"type": "object", "description": "JSON Schema of the arguments."},
		"result":      decode.Obj{"description": "The answer: a string, or any value sent as JSON text."},
		"result_file": decode.Str("A fixture file holding the answer, relative to this file (fixtures/fx.<tool>.<case>.json): a .json file is sent as its JSON value, any other as its text."),
		"results": decode.List(decode.Object("", resultFields, decode.Obj{
			"args_match":  argsMatch,
			"result":      decode.Obj{"description": "The answer when args_match matches."},
			"result_file": decode.Str("A fixture file holding the answer when args_match matches."),
		}), "The first entry whose args_match matches answers the call."),
	}, "name")
	turn := turnSchema()
	root := decode.Object("", testFields, decode.Obj{
		"version":       versionSchema(),
		"name":          decode.Str("Test name."),
		"id":            decode.Str("Stable identifier; default: the file path without extension."),
		"tags":          decode.OneOrMany(decode.Obj{"type": "string"}),
		"skip":          decode.Str("Skip the test, giving the reason."),
		"hooks":         decode.List(decode.Ref("hook"), "Commands run before the turns; their JSON output sets ${VAR}s."),
		"after":         decode.List(decode.Ref("hook"), "Commands run after each attempt, passed or not, with its result as JSON on stdin."),
		"history":       decode.List(messageSchema(), "Messages placed before the first turn."),
		"tools":         decode.List(tool, "Client tools."),
		"turns":         decode.Obj{"type": "array", "minItems": 1, "items": turn},
		"assert":        decode.Ref("assert"),
		"runs":          decode.Ref("runs"),
		"min_pass_rate": decode.Ref("min_pass_rate"),
		"retries":       decode.Ref("retries"),
		"adaptive":      decode.Ref("adaptive"),
		"simulator": decode.Object("A simulated user (the config's model) that talks to the agent until every checkpoint is reached.", simulatorFields, decode.Obj{
			"persona": decode.Str("Who the simulated user is."), "goal": decode.Str("What the simulated user wants."), "instructions": decode.Str("More guidance for the simulated user."),
		}, "goal"),
		"max_turns":  decode.Obj{"type": "integer", "minimum": 1, "maximum": MaxSimulatedTurns, "description": "Simulated turns at most (default 10)."},
		"timeout_ms": decode.Positive("Bound on the simulated turns (default 120000)."),
		"on_interrupt": decode.Obj{"enum": OnInterrupts,
			"description": "How a dynamic test answers the interrupts the agent ends a run with: error (default), approve or reject them all, or simulator (the simulated user decides)."},
		"checkpoints": decode.List(decode.Object("", checkpointFields, decode.Obj{
			"id":          decode.Str("Checkpoint id."),
			"description": decode.Str("What the checkpoint stands for."),
			"after":       decode.OneOrMany(decode.Obj{"type": "string"}),
			"assert":      decode.Ref("assert"),
		}, "id", "assert"), "What a dynamic test must see happen, in order."),
		"source": decode.Object("A recorded run of another runtime to assert on, instead of turns.", sourceFields, decode.Obj{
			"format":  decode.Obj{"enum": SourceFormats, "description": "claude-transcript: Claude Code / Agent SDK sessions; nanoclaw: a NanoClaw folder; otlp: an OTLP JSON trace file."},
			"path":    decode.Str("Relative to this file. claude-transcript: a session's .jsonl, a project folder of sessions (one test each), or a glob; ~ and ${ENV.NAME} are read when the suite loads. nanoclaw: the NanoClaw folder."),
			"select":  decode.Obj{"enum": selections, "description": "claude-transcript, a folder or a glob: all sessions, one test each (default), or the newest."},
			"strict":  decode.Obj{"type": "boolean", "description": "claude-transcript: a line that cannot be read is an error, not a warning (default false)."},
			"group":   decode.Str("nanoclaw: the group folder."),
			"session": decode.Str("nanoclaw: the session id (default: the group's current session)."),
			"task":    decode.Str("nanoclaw: the scheduled task whose run this is."),
		}, "format", "path"),
		"assertions": decode.Obj{"type": "array", "description": "Named assertions (docs/imports.md, Named checks): {type, ...} or {id, type, severity, params, requires_capabilities}.",
			"items": decode.Obj{"type": "object", "required": []string{"type"}, "properties": decode.Obj{
				"type": decode.Obj{"enum": assertion.VocabTypes},
				"id":   decode.Str("The assertion's id in every report (test.<id>); used once in the list."),
				"args": decode.Obj{"type": "object", "description": "must_call_tool, tool_called: arguments that must equal these values exactly."},
				"args_match": decode.Obj{"type": "object", "additionalProperties": decode.Obj{"type": "string"},
					"description": "must_call_tool, tool_called: arguments that must match these regexes."},
			}}},
		"on_missing_capability": decode.Ref("on_missing_capability"),
		"gateway":               gwdecl.TestSchema(),
		"doubles":               decl.AnswersSchema("The tool doubles' answers in this test, over the config's defaults (docs/doubles.md)."),
		"backend":               decode.Bool("false: the test's agent calls neither the tool doubles nor the model gateway, so the test is left out of the backend and need not run alone (docs/backend.md). Default true."),
	}, "version", "name")
	root["anyOf"] = []any{decode.Obj{"required": []string{"turns"}}, decode.Obj{"required": []string{"simulator"}}, decode.Obj{"required": []string{"source"}}}
	turnOf := func(types ...string) decode.Obj {
		return decode.Obj{"turns": decode.Obj{"contains": decode.Obj{"properties": decode.Obj{"type": decode.Obj{"enum": types}}, "required": []string{"type"}}}}
	}
	root["allOf"] = []any{
		versionGate(turnOf(TurnA2ASend), []string{"turns"}, decode.MinorA2A),
		versionGate(turnOf(TurnMCPCall, TurnMCPList), []string{"turns"}, decode.MinorMCP),
	}
	return document("test", "Ananke test file (*.ananke.yaml)", root)
}

func messageSchema() decode.Obj {
	return decode.Object("", messageFields, decode.Obj{
		"role":    decode.Obj{"enum": historyRoles},
		"content": decode.Obj{"oneOf": []any{decode.Obj{"type": "string"}, decode.Ref("parts")}, "description": "Message text, or (user messages) a list of parts."},
	}, "role", "content")
}
