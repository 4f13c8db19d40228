// Package capability names what a trace's source can observe of a run
// (docs/imports.md). Assertion kinds declare the capabilities they need, test
// files may add more with `requires:`, and an assertion whose trace lacks
// one is skipped with the reason, or is an error by policy.
package capability

import (
	"slices"
	"strings"
)

// Capability flags.
const (
	// ToolTrace: tool calls with their arguments and results.
	ToolTrace = "supports_tool_trace"
	// StreamingTiming: when each event arrived (first event, first text,
	// idle gaps, call durations).
	StreamingTiming = "supports_streaming_timing"
	// State: the agent's shared state (AG-UI STATE_* events).
	State = "supports_state"
	// Reasoning: the reasoning the agent made visible beside its answer
	// (AG-UI REASONING_* events, a transcript's thinking blocks).
	Reasoning = "supports_reasoning"
	// MemoryEvents: reads and writes of the agent's memory.
	MemoryEvents = "supports_memory_events"
	// SchedulerContext: the scheduled task a run served, its runs and the
	// messages it sent out.
	SchedulerContext = "supports_scheduler_context"
	// ContainerMetadata: the container and mounts the agent ran in.
	ContainerMetadata = "supports_container_metadata"
	// LiveRun: the trace was taken from the agent as it ran.
	LiveRun = "supports_live_run"
	// Replay: the trace can be produced again without the agent.
	Replay = "supports_replay"
	// Interrupts: the interrupts a run ended with to ask the client
	// something, and the resumes that answered them (AG-UI's interrupt
	// outcome and RunAgentInput.resume).
	Interrupts = "supports_interrupts"
	// Usage: the tokens the agent's model calls used (docs/cost.md). A
	// trace has it when its source reported usage for some turn, whatever
	// its adapter: an AG-UI agent may or may not send usage.
	Usage = "supports_usage"
	// ModelCalls: every request the agent made to its model, each with
	// its model, tokens and status — what Ananke's model gateway sees of
	// an attempt bound to it (docs/gateway.md, docs/backend.md).
	ModelCalls = "supports_model_calls"
	// Spans: the agent's OpenTelemetry spans for the attempt, received
	// by Ananke's OTLP receiver or read from an OTLP file
	// (docs/opentelemetry.md).
	Spans = "supports_spans"
)

// All lists every capability flag, in the order reports show them.
var All = []string{ToolTrace, StreamingTiming, State, Reasoning, MemoryEvents, SchedulerContext, ContainerMetadata, LiveRun, Replay, Interrupts, Usage, ModelCalls, Spans}

// AGUI is what a run of an AG-UI agent observes, live or replayed.
var AGUI = []string{ToolTrace, StreamingTiming, State, Reasoning, LiveRun, Replay, Interrupts}

// Known reports whether name is a capability flag.
func Known(name string) bool { return slices.Contains(All, name) }

// Missing returns the capabilities of need that have lacks, in need's
// order.
func Missing(need, have []string) []string {
	var out []string
	for _, c := range need {
		if !slices.Contains(have, c) && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// Join lists capabilities for messages: "supports_state, supports_memory_events".
func Join(cs []string) string { return strings.Join(cs, ", ") }
