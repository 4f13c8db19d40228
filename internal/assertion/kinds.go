package assertion

import (
	"sync"

	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/trace"
)

// The registry: every assertion kind, and the sections of an assert block
// that hold them. To add a kind, write its payload, reader and evaluator
// in a file of its own, add its Def below (and its key to its section's
// fields), and document it in docs/files.md; `go test ./internal/assertion`
// says what is missing (TestRegistry), and regenerates the published schema
// with -update (docs/development.md, "A new assertion kind").

// Assertion kinds.
const (
	KindForbid                Kind = "tools.forbid"
	KindRequire               Kind = "tools.require"
	KindForbidCalls           Kind = "tools.forbid_calls"
	KindOrder                 Kind = "tools.order"
	KindMaxCalls              Kind = "tools.max_calls"
	KindStopAfterSuccess      Kind = "tools.stop_after_success"
	KindMaxDuration           Kind = "timing.max_duration_ms"
	KindMaxIdle               Kind = "timing.max_idle_ms"
	KindMaxFirstEvent         Kind = "timing.max_first_event_ms"
	KindMaxFirstText          Kind = "timing.max_first_text_ms"
	KindMustMatch             Kind = "text.must_match"
	KindMustNotMatch          Kind = "text.must_not_match"
	KindContains              Kind = "text.contains"
	KindOmits                 Kind = "text.omits"
	KindEquals                Kind = "text.equals"
	KindJSONSchema            Kind = "text.json_schema"
	KindJSONPath              Kind = "text.json_path"
	KindReasoningMustMatch    Kind = "reasoning.must_match"
	KindReasoningMustNotMatch Kind = "reasoning.must_not_match"
	KindGrounded              Kind = "grounded"
	KindState                 Kind = "state"
	KindMemoryReads           Kind = "memory.reads"
	KindMemoryWrites          Kind = "memory.writes"
	KindMemoryForbid          Kind = "memory.forbid"
	KindTaskRuns              Kind = "scheduler.task_runs"
	KindOutbound              Kind = "scheduler.outbound"
	KindJudge                 Kind = "judge" // evaluated by a model, after the deterministic kinds
	KindScript                Kind = "script"
	KindResultMatch           Kind = "result.match"
	KindResultNotMatch        Kind = "result.not_match"
	KindResultJSONPath        Kind = "result.json_path"
	KindResultIsError         Kind = "result.is_error"
	KindResultMaxDuration     Kind = "result.max_duration_ms"
	KindToolsListInclude      Kind = "tools_list.include"
	KindToolsListExclude      Kind = "tools_list.exclude"
	KindToolsListValidSchemas Kind = "tools_list.valid_schemas"
	KindMaxInputTokens        Kind = "budget.max_input_tokens"
	KindMaxOutputTokens       Kind = "budget.max_output_tokens"
	KindMaxTotalTokens        Kind = "budget.max_total_tokens"
	KindMaxCostUSD            Kind = "budget.max_cost_usd"
	KindInterruptsRequire     Kind = "interrupts.require"
	KindInterruptsForbid      Kind = "interrupts.forbid"
	KindBeforeTool            Kind = "interrupts.before_tool"
	KindModelMaxCalls         Kind = "model.max_calls"
	KindModelMinCalls         Kind = "model.min_calls"
	KindModelAllowed          Kind = "model.allowed"
	KindModelMaxPromptTokens  Kind = "model.max_prompt_tokens"
	KindModelNoCallAfter      Kind = "model.no_call_after"
	KindSpansRequire          Kind = "spans.require"
	KindSpansForbid           Kind = "spans.forbid"
	KindSnapshot              Kind = "snapshot"
)

// Builtins are the kinds of the results the engine makes itself, which no
// block declares: a run error, a protocol check, client tools, an after
// hook, a dynamic test's checkpoints. Check ids are made of them too.
var Builtins = []Kind{KindRunError, KindProtocol, KindClientTools, KindAfterHook, "after", "checkpoints"}

// The built-in kinds the engine checks in every turn or attempt.
const (
	// KindRunError fails when the agent reported an error during the turn.
	KindRunError Kind = "run_error"
	// KindProtocol fails when the agent's stream broke its protocol.
	KindProtocol Kind = "protocol"
	// KindClientTools fails when a client tool call found no answer.
	KindClientTools Kind = "client_tools"
	// KindAfterHook fails when an after hook failed.
	KindAfterHook Kind = "after_hook"
)

// builtinCategories are the failure categories of the built-in kinds that
// have one.
var builtinCategories = map[Kind]string{KindRunError: CategoryProtocol, KindProtocol: CategoryProtocol, KindClientTools: CategoryProcess}

// Headings of docs/files.md that document the kinds.
const (
	docAssert   = "Assertions (`assert`)"
	docMore     = "More checks: order, budgets, literal text, JSON, groundedness, state, latency"
	docResults  = "Tool results and tool listings: `result`, `tools_list` (version 1.2)"
	docMemory   = "Memory, scheduler and capabilities"
	docBudget   = "Token and cost budgets: `budget`"
	docHITL     = "Interrupts: `resume`, `interrupts`, `on_interrupt`"
	docAgents   = "Reasoning and sub-agents: `reasoning`, `agent`"
	docModel    = "Model calls: `model`"
	docSpans    = "Spans: `spans`"
	toolTrace   = capability.ToolTrace
	timingTrace = capability.StreamingTiming
)

// docSnapshots is the heading of docs/files.md that documents snapshots
// (docs/snapshots.md).
const docSnapshots = "Snapshots: `snapshot`"

// defs are the kinds, in the order a scope's checks are made and reported
// (within each Role). tools.stop_after_success comes after text's
// prohibitions, as it always has.
var defs = []*Def{
	{Kind: KindForbid, Category: CategoryProcess, Needs: needs(toolTrace), Role: Prohibition, Doc: docAssert,
		Example: `{tools: {forbid: [delete_order]}}`,
		read:    readNames, schema: forbidSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { forbid(r, p.(Tool).Name, s) }},
	{Kind: KindRequire, Category: CategoryProcess, Needs: needs(toolTrace), Role: Requirement, Doc: docAssert,
		Example: `{tools: {require: [{name: charge_card, args_match: {amount: "^${AMOUNT}$"}, result_match: "${OK}", result_not_match: "${BAD}"}]}}`,
		read:    readRequire, schema: requireSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { require(r, p.(*Require), s) }},
	{Kind: KindForbidCalls, Category: CategoryProcess, Needs: needs(toolTrace), Role: Prohibition, Doc: docAssert,
		Example: `{tools: {forbid_calls: [{name: refund, args_match: {order: "${ORDER}"}, result_match: "${OK}"}]}}`,
		read:    readForbidCalls, schema: forbidCallsSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { forbidCalls(r, p.(*CallFilter), s) }},
	{Kind: KindOrder, Category: CategoryProcess, Needs: needs(toolTrace), Role: Requirement, Single: true, Doc: docMore,
		Example: `{tools: {order: [validate_cart, charge_card]}}`,
		read:    readOrder, schema: orderSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { order(r, p.(Order).Tools, s) }},
	{Kind: KindMaxCalls, Category: CategoryProcess, Needs: needs(toolTrace), Role: Budget, Single: true, Doc: docMore,
		Example: `{tools: {max_calls: 6}}`,
		read:    readCalls, schema: maxCallsSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { maxCalls(r, p.(Limit).Ms, s) }},
	{Kind: KindMaxDuration, Category: CategoryTiming, Needs: needs(timingTrace), Role: Duration, Single: true, Doc: docAssert,
		Example: `{timing: {max_duration_ms: 30000}}`,
		read:    readMs, schema: limitSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { maxDuration(r, p.(Limit).Ms, s) }},
	{Kind: KindMaxInputTokens, Category: CategoryCost, Needs: needs(capability.Usage), Role: Duration, Single: true, Doc: docBudget,
		Example: `{budget: {max_input_tokens: 20000}}`,
		read:    readTokens, schema: tokensSchema("input tokens"),
		eval: func(r *Result, p Payload, s trace.Scope) { tokenBudget(r, cost.Input, p.(Limit).Ms, s) }},
	{Kind: KindMaxOutputTokens, Category: CategoryCost, Needs: needs(capability.Usage), Role: Duration, Single: true, Doc: docBudget,
		Example: `{budget: {max_output_tokens: 2000}}`,
		read:    readTokens, schema: tokensSchema("output tokens"),
		eval: func(r *Result, p Payload, s trace.Scope) { tokenBudget(r, cost.Output, p.(Limit).Ms, s) }},
	{Kind: KindMaxTotalTokens, Category: CategoryCost, Needs: needs(capability.Usage), Role: Duration, Single: true, Doc: docBudget,
		Example: `{budget: {max_total_tokens: 22000}}`,
		read:    readTokens, schema: tokensSchema("total tokens"),
		eval: func(r *Result, p Payload, s trace.Scope) { tokenBudget(r, cost.Total, p.(Limit).Ms, s) }},
	{Kind: KindMaxCostUSD, Category: CategoryCost, Needs: needs(capability.Usage), Role: Duration, Single: true, Doc: docBudget,
		Example: `{budget: {max_cost_usd: 0.05}}`,
		read:    readUSD, schema: usdSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { costBudget(r, p.(Dollars).USD, s) }},
	{Kind: KindModelMaxCalls, Category: CategoryProcess, Needs: needs(capability.ModelCalls), Role: Budget, Single: true, Doc: docModel,
		Example: `{model: {max_calls: 3}}`,
		read:    readMaxModelCalls, schema: maxModelCallsSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { maxModelCalls(r, p.(Limit).Ms, s) }},
	{Kind: KindModelMaxPromptTokens, Category: CategoryCost, Needs: needs(capability.ModelCalls), Role: Budget, Single: true, Doc: docModel,
		Example: `{model: {max_prompt_tokens: 8000}}`,
		read:    readTokens, schema: maxPromptTokensSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { maxPromptTokens(r, p.(Limit).Ms, s) }},
	{Kind: KindModelMinCalls, Category: CategoryProcess, Needs: needs(capability.ModelCalls), Role: Requirement, Single: true, Doc: docModel,
		Example: `{model: {min_calls: 2}}`,
		read:    readMinModelCalls, schema: minModelCallsSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { minModelCalls(r, p.(Limit).Ms, s) }},
	{Kind: KindModelAllowed, Category: CategoryProcess, Needs: needs(capability.ModelCalls), Role: Prohibition, Doc: docModel,
		Example: `{model: {allowed: ["gpt-4o-mini*", "gpt-4.1-nano"]}}`,
		read:    readModelGlobs, schema: modelGlobsSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { allowedModels(r, p.(ModelGlobs), s) }},
	{Kind: KindModelNoCallAfter, Category: CategoryProcess, Needs: needs(capability.ModelCalls), Role: Prohibition, Doc: docModel,
		Example: `{model: {no_call_after: [confirm_order]}}`,
		read:    readNames, schema: noCallAfterSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { noModelCallAfter(r, p.(Tool).Name.Value, s) }},
	{Kind: KindSpansForbid, Category: CategoryProcess, Needs: needs(capability.Spans), Role: Prohibition, Doc: docSpans,
		Example: `{spans: {forbid: [{name_match: "${SPAN}", operation: execute_tool, service: shop, status: error, attributes: {gen_ai.tool.name: "${TOOL}", gen_ai.request.model: {match: "${MODEL}"}}, under: {name: agent, name_match: "${AGENT}", attributes: {gen_ai.agent.name: {equals: "${NAME}"}, x: {match: "${X}"}, y: {exists: false}}}}]}}`,
		read:    readSpanForbid, schema: spansForbidSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { spansForbid(r, p.(*SpanEntry), s) }},
	{Kind: KindSpansRequire, Category: CategoryProcess, Needs: needs(capability.Spans), Role: Requirement, Doc: docSpans,
		Example: `{spans: {require: [{name_match: "${SPAN}", operation: execute_tool, attributes: {gen_ai.tool.name: "${TOOL}", gen_ai.request.model: {match: "${MODEL}"}}, under: {operation: invoke_agent, name_match: "${AGENT}", attributes: {gen_ai.agent.name: "${NAME}", x: {match: "${X}"}}}, count: {min: 1, max: 3}, max_duration_ms: 2000, status: ok, severity: warning}]}}`,
		read:    readSpanRequire, schema: spansRequireSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { spansRequire(r, p.(*SpanEntry), s) }},
	{Kind: KindMaxIdle, Category: CategoryTiming, Needs: needs(timingTrace), Role: TurnLimit, Single: true, Doc: docAssert,
		Example: `{timing: {max_idle_ms: 10000}}`,
		read:    readMs, schema: limitSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { maxIdle(r, p.(Limit).Ms, s) }},
	{Kind: KindMaxFirstEvent, Category: CategoryTiming, Needs: needs(timingTrace), Role: TurnLimit, Single: true, Doc: docMore,
		Example: `{timing: {max_first_event_ms: 2000}}`,
		read:    readMs, schema: limitSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { maxFirstEvent(r, p.(Limit).Ms, s) }},
	{Kind: KindMaxFirstText, Category: CategoryTiming, Needs: needs(timingTrace), Role: TurnLimit, Single: true, Doc: docMore,
		Example: `{timing: {max_first_text_ms: 3000}}`,
		read:    readMs, schema: limitSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { maxFirstText(r, p.(Limit).Ms, s) }},
	{Kind: KindMustMatch, Category: CategoryOutcome, Role: Requirement, Doc: docAssert,
		Example: `{text: {must_match: ["(?i)refund ${ORDER}"]}}`,
		read:    readPatterns, schema: regexesSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { mustMatch(r, p.(Pattern).Regex, s) }},
	{Kind: KindMustNotMatch, Category: CategoryOutcome, Role: Prohibition, Doc: docAssert,
		Example: `{text: {must_not_match: "${SECRET}"}}`,
		read:    readPatterns, schema: regexesSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { mustNotMatch(r, p.(Pattern).Regex, s) }},
	{Kind: KindContains, Category: CategoryOutcome, Role: Requirement, Doc: docMore,
		Example: `{text: {contains: ["order ${ORDER}"], case_sensitive: true}}`,
		read:    readLiterals, schema: literalsSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { contains(r, p.(*TextCheck), s) }},
	{Kind: KindOmits, Category: CategoryOutcome, Role: Prohibition, Doc: docMore,
		Example: `{text: {omits: "${SECRET}"}}`,
		read:    readLiterals, schema: literalsSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { omits(r, p.(*TextCheck), s) }},
	{Kind: KindReasoningMustMatch, Category: CategoryOutcome, Needs: needs(capability.Reasoning), Role: Requirement, Doc: docAgents,
		Example: `{reasoning: {must_match: ["(?i)order ${ORDER}"]}}`,
		read:    readPatterns, schema: regexesSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { reasoningMustMatch(r, p.(Pattern).Regex, s) }},
	{Kind: KindReasoningMustNotMatch, Category: CategoryOutcome, Needs: needs(capability.Reasoning), Role: Prohibition, Doc: docAgents,
		Example: `{reasoning: {must_not_match: "${SECRET}"}}`,
		read:    readPatterns, schema: regexesSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { reasoningMustNotMatch(r, p.(Pattern).Regex, s) }},
	{Kind: KindStopAfterSuccess, Category: CategoryProcess, Needs: needs(toolTrace), Role: Prohibition, Single: true, Doc: docMore,
		Example: `{tools: {stop_after_success: {name: charge_card, args_match: {order: "${ORDER}"}, result_match: "${OK}"}}}`,
		read:    readStopAfterSuccess, schema: stopAfterSuccessSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { stopAfterSuccess(r, p.(*CallFilter), s) }},
	{Kind: KindEquals, Category: CategoryOutcome, Role: Requirement, Single: true, Doc: docMore,
		Example: `{text: {equals: "OK ${ORDER}"}}`,
		read:    readEquals, schema: equalsSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { equals(r, p.(*TextCheck), s) }},
	{Kind: KindJSONSchema, Category: CategoryFormat, Role: Requirement, Single: true, Doc: docMore,
		Example: `{text: {json_schema: {type: object}}}`,
		read:    readJSONSchema, schema: jsonSchemaSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { jsonSchema(r, p.(*JSONSchema), s) }},
	{Kind: KindJSONPath, Category: CategoryFormat, Role: Requirement, Doc: docMore,
		Example: `{text: {json_path: [{path: "$.order", equals: "${ORDER}", match: "${PATTERN}"}]}}`,
		read:    readJSONPaths, schema: textJSONPathSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { c := p.(*JSONPathCheck); jsonPath(r, c, c.Want, s) }},
	{Kind: KindGrounded, Category: CategoryGroundedness, Needs: needs(toolTrace), Role: Prohibition, Single: true, Doc: docMore,
		Example: `{grounded: {numbers: true, ignore: ["^${YEAR}$"]}}`,
		read:    readGrounded, schema: groundedSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { grounded(r, p.(*Grounded), s) }},
	{Kind: KindState, Category: CategoryState, Needs: needs(capability.State), Role: Requirement, Doc: docMore,
		Example: `{state: {/order/id: {equals: "${ORDER}"}, /order/status: {match: "^${STATUS}$"}}}`,
		read:    readState, schema: stateSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { c := p.(*StateCheck); state(r, c, c.Want, s) }},
	{Kind: KindInterruptsRequire, Category: CategoryProcess, Needs: needs(capability.Interrupts), Role: Requirement, Doc: docHITL,
		Example: `{interrupts: {require: [{reason: tool_approval, tool: charge_card, message_match: "${AMOUNT} EUR"}]}}`,
		read:    readInterrupts, schema: interruptsRequireSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { interruptsRequire(r, p.(*InterruptEntry), s) }},
	{Kind: KindInterruptsForbid, Category: CategoryProcess, Needs: needs(capability.Interrupts), Role: Prohibition, Doc: docHITL,
		Example: `{interrupts: {forbid: [{tool: get_weather, message_match: "${CITY}"}]}}`,
		read:    readInterrupts, schema: interruptsForbidSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { interruptsForbid(r, p.(*InterruptEntry), s) }},
	{Kind: KindBeforeTool, Category: CategoryProcess, Needs: needs(capability.Interrupts), Role: Prohibition, Doc: docHITL,
		Example: `{interrupts: {before_tool: [charge_card, refund]}}`,
		read:    readNames, schema: beforeToolSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { beforeTool(r, p.(Tool).Name.Value, s) }},
	{Kind: KindMemoryReads, Category: CategoryMemory, Needs: needs(capability.MemoryEvents), Role: Requirement, Doc: docMemory,
		Example: `{memory: {reads: [{path_match: "${FILE}", content_match: "${FACT}"}]}}`,
		read:    readMemory, schema: memoryReadsSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { memoryRequire(r, p.(*MemoryEntry), trace.MemoryRead, s) }},
	{Kind: KindMemoryWrites, Category: CategoryMemory, Needs: needs(capability.MemoryEvents), Role: Requirement, Doc: docMemory,
		Example: `{memory: {writes: [{path_match: "${FILE}", content_match: "${FACT}"}]}}`,
		read:    readMemory, schema: memoryWritesSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { memoryRequire(r, p.(*MemoryEntry), trace.MemoryWrite, s) }},
	{Kind: KindMemoryForbid, Category: CategoryMemory, Needs: needs(capability.MemoryEvents), Role: Prohibition, Doc: docMemory,
		Example: `{memory: {forbid: [{group: other, op: read, path_match: "${FILE}", content_match: "${FACT}"}]}}`,
		read:    readMemoryForbid, schema: memoryForbidSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { memoryForbid(r, p.(*MemoryEntry), s) }},
	{Kind: KindTaskRuns, Category: CategoryScheduler, Needs: needs(capability.SchedulerContext), Role: Requirement, Single: true, Doc: docMemory,
		Example: `{scheduler: {task_runs: {count: 1, status: success}}}`,
		read:    readTaskRuns, schema: taskRunsSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { taskRuns(r, p.(*Counted), s) }},
	{Kind: KindOutbound, Category: CategoryScheduler, Needs: needs(capability.SchedulerContext), Role: Requirement, Single: true, Doc: docMemory,
		Example: `{scheduler: {outbound: {count: 1, match: "${DIGEST}"}}}`,
		read:    readOutbound, schema: outboundSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { outbound(r, p.(*Counted), s) }},
	{Kind: KindSnapshot, Category: CategoryProcess, Needs: needs(toolTrace), Role: Requirement, Single: true, Doc: docSnapshots,
		Example: `{snapshot: {text: structure, ignore: [search.request_id, "*.items[*].id"], replace: [{pattern: "A-\\d+", with: "<order>"}], tolerance: 0.01}}`,
		read:    readSnapshot, schema: snapshotSchema,
		eval: func(r *Result, p Payload, _ trace.Scope) { unavailableSnapshot(r, p.(*SnapshotCheck)) }},
	{Kind: KindJudge, Category: CategoryJudgment, Role: Requirement, Single: true, Doc: docMore,
		Example: `{judge: {criteria: ["asks before charging ${AMOUNT}", "names order ${ORDER}"]}}`,
		read:    readJudge, schema: judgeSchema},
	{Kind: KindScript, Category: CategoryScript, Role: Requirement, Doc: docMore,
		Example: `{script: [{cmd: ["scripts/check.sh", "${ORDER}"]}, {cmd: ["${CHECKER}"]}]}`,
		read:    readScripts, schema: scriptsSchema},
	{Kind: KindResultMatch, Category: CategoryOutcome, Needs: needs(toolTrace), Role: Requirement, Single: true, Doc: docResults,
		Example: `{result: {match: "Echo: ${WORD}"}}`,
		read:    readPattern, schema: regexSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { resultMatch(r, p.(Pattern).Regex, true, s) }},
	{Kind: KindResultNotMatch, Category: CategoryOutcome, Needs: needs(toolTrace), Role: Requirement, Single: true, Doc: docResults,
		Example: `{result: {not_match: "${ERROR}"}}`,
		read:    readPattern, schema: regexSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { resultMatch(r, p.(Pattern).Regex, false, s) }},
	{Kind: KindResultJSONPath, Category: CategoryFormat, Needs: needs(toolTrace), Role: Requirement, Doc: docResults,
		Example: `{result: {json_path: [{path: "$.total", equals: "${TOTAL}", match: "${PATTERN}"}]}}`,
		read:    readJSONPaths, schema: resultJSONPathSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { c := p.(*JSONPathCheck); resultJSONPath(r, c, c.Want, s) }},
	{Kind: KindResultIsError, Category: CategoryOutcome, Needs: needs(toolTrace), Role: Requirement, Single: true, Doc: docResults,
		Example: `{result: {is_error: false}}`,
		read:    readIsError, schema: isErrorSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { resultIsError(r, p.(Flag).Value, s) }},
	{Kind: KindResultMaxDuration, Category: CategoryTiming, Needs: needs(toolTrace), Role: Requirement, Single: true, Doc: docResults,
		Example: `{result: {max_duration_ms: 2000}}`,
		read:    readCallDuration, schema: callDurationSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { resultMaxDuration(r, p.(Limit).Ms, s) }},
	{Kind: KindToolsListInclude, Category: CategoryOutcome, Needs: needs(toolTrace), Role: Requirement, Doc: docResults,
		Example: `{tools_list: {include: [echo, add]}}`,
		read:    readNames, schema: includeSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { toolsListInclude(r, p.(Tool).Name.Value, true, s) }},
	{Kind: KindToolsListExclude, Category: CategoryOutcome, Needs: needs(toolTrace), Role: Requirement, Doc: docResults,
		Example: `{tools_list: {exclude: delete_everything}}`,
		read:    readNames, schema: excludeSchema,
		eval: func(r *Result, p Payload, s trace.Scope) { toolsListInclude(r, p.(Tool).Name.Value, false, s) }},
	{Kind: KindToolsListValidSchemas, Category: CategoryFormat, Needs: needs(toolTrace), Role: Requirement, Single: true, Doc: docResults,
		Example: `{tools_list: {valid_schemas: true}}`,
		read:    readValidSchemas, schema: validSchemasSchema,
		eval: func(r *Result, _ Payload, s trace.Scope) { toolsListValidSchemas(r, s) }},
}

// sections are the keys of an assert block that hold checks, in the order
// messages list them.
var sections = []*section{
	{name: "tools", fields: []string{"forbid", "require", "forbid_calls", "order", "max_calls", "stop_after_success"}},
	{name: "timing", fields: []string{"max_duration_ms", "max_idle_ms", "max_first_event_ms", "max_first_text_ms"}},
	{name: "budget", fields: []string{"max_input_tokens", "max_output_tokens", "max_total_tokens", "max_cost_usd"},
		empty: "max_input_tokens, max_output_tokens, max_total_tokens or max_cost_usd",
		desc:  "Bounds on the tokens the agent's model calls used in scope, and their cost (needs supports_usage; docs/cost.md)."},
	{name: "text", fields: []string{"must_match", "must_not_match", "contains", "omits", "equals", "case_sensitive", "json_schema", "json_path"},
		options: textOptions, optionSchemas: textOptionSchemas},
	{name: "reasoning", fields: []string{"must_match", "must_not_match"},
		empty: "must_match or must_not_match",
		desc:  "Regexes over the reasoning the agent made visible, which its text never includes (needs supports_reasoning)."},
	{name: "grounded"},
	{name: "state"},
	{name: "interrupts", fields: []string{"require", "forbid", "before_tool"}, empty: "require, forbid or before_tool",
		desc: "The interrupts the agent's runs ended with and the resumes that answered them (needs supports_interrupts)."},
	{name: "memory", fields: []string{"reads", "writes", "forbid"},
		desc: "Memory reads and writes (needs supports_memory_events)."},
	{name: "scheduler", fields: []string{"task_runs", "outbound"},
		desc: "The scheduled task's runs and the messages sent out (needs supports_scheduler_context)."},
	{name: "model", fields: []string{"max_calls", "min_calls", "allowed", "max_prompt_tokens", "no_call_after"},
		empty: "max_calls, min_calls, allowed, max_prompt_tokens or no_call_after",
		desc:  "The agent's requests to its model through Ananke's model gateway (needs supports_model_calls; docs/gateway.md)."},
	{name: "spans", fields: []string{"require", "forbid"}, empty: "require or forbid",
		desc: "The agent's OpenTelemetry spans in scope (needs supports_spans; docs/opentelemetry.md)."},
	{name: "snapshot"},
	{name: "judge"},
	{name: "script"},
	{name: "result", fields: []string{"match", "not_match", "json_path", "is_error", "max_duration_ms"}, since: decode.MinorMCP,
		empty: "match, not_match, json_path, is_error or max_duration_ms",
		desc:  "The results of the tool calls in scope (an mcp:call turn's call); every call must pass each check. Version 1.2."},
	{name: "tools_list", fields: []string{"include", "exclude", "valid_schemas"}, since: decode.MinorMCP,
		empty: "include, exclude or valid_schemas", check: checkToolsList,
		desc: "The tools/list results in scope (an mcp:list_tools turn's listing). Version 1.2."},
}

func needs(caps ...string) []string { return caps }

// byKind is the registry by kind.
var byKind = sync.OnceValue(func() map[Kind]*Def {
	m := make(map[Kind]*Def, len(defs))
	for _, d := range defs {
		m[d.Kind] = d
	}
	return m
})
