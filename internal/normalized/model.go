package normalized

import (
	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// SchemaVersion identifies the normalized trace format
// (schema/ananke.normalized-trace.schema.json).
const SchemaVersion = "ananke.normalized-trace/v1"

// Statuses of a normalized trace (docs/traces.md).
const (
	StatusSuccess = "success"
	StatusPartial = "partial"
	StatusFailed  = "failed"
	StatusBlocked = "blocked"
)

// Event types. MessageSent is an extension of the normalized list: a message
// the agent sent out of the conversation (to a chat, by a tool or as a
// scheduled task's output).
const (
	TypeMessageReceived = "message_received"
	TypeToolCall        = "tool_call"
	TypeToolResult      = "tool_result"
	TypeMemoryRead      = "memory_read"
	TypeMemoryWrite     = "memory_write"
	TypeMessageSent     = "message_sent"
	TypeError           = "error"
	TypeFinalOutput     = "final_output"
	// TypeModelCall is an extension too: a request the agent made to its
	// model through Ananke's model gateway (docs/gateway.md).
	TypeModelCall = "model_call"
)

// Actors of events.
const (
	ActorUser    = "user"
	ActorAgent   = "agent"
	ActorTool    = "tool"
	ActorRuntime = "runtime"
)

// Trace is one test attempt as a normalized trace.
type Trace struct {
	SchemaVersion string `json:"schema_version"`
	TraceID       string `json:"trace_id"`
	TestCaseID    string `json:"test_case_id"`
	// TestCaseName and TestCaseFile are the test's name and file
	// (extensions).
	TestCaseName string `json:"test_case_name,omitempty"`
	TestCaseFile string `json:"test_case_file,omitempty"`
	TestRunID    string `json:"test_run_id"`
	// Attempt is which execution of the test this is, and its Ananke
	// status (an extension).
	Attempt Attempt `json:"attempt"`
	Adapter Adapter `json:"adapter"`
	// Capabilities holds every capability flag, true when the adapter
	// observes what it names.
	Capabilities  map[string]bool `json:"capabilities"`
	Scenario      Scenario        `json:"scenario"`
	InputMessages []Message       `json:"input_messages"`
	Events        []Event         `json:"events"`
	FinalOutput   string          `json:"final_output"`
	Status        string          `json:"status"`
	Metrics       Metrics         `json:"metrics"`
	Artifacts     Artifacts       `json:"artifacts"`
}

// Attempt names one execution of a test: Run counts from 1, Retry counts
// the retries of that run before it; both are 0 for a test that never ran.
type Attempt struct {
	Run   int `json:"run"`
	Retry int `json:"retry"`
	// Status is Ananke's verdict: pass, fail, error or skipped.
	Status status.Status `json:"status"`
}

// Adapter is what produced the trace.
type Adapter struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	// Mode is "live", "replay" or "import".
	Mode string `json:"mode"`
}

// Scenario is the runtime context the trace preserved.
type Scenario struct {
	GroupID   string `json:"group_id,omitempty"`
	SessionID string `json:"session_id,omitempty"`
	TaskID    string `json:"task_id,omitempty"`
	// Trigger is how the run started: "user_message" or "scheduler".
	Trigger string `json:"trigger"`
	// SchedulerContext is the scheduled task the run served.
	SchedulerContext *trace.Scheduler `json:"scheduler_context,omitempty"`
}

// Message is an input message: the test's history, then each turn's user
// message.
type Message struct {
	Role        string             `json:"role"`
	Content     string             `json:"content"`
	Attachments []trace.Attachment `json:"attachments,omitempty"`
}

// Event is one normalized event. Data is one of the *Data types below,
// according to Type.
type Event struct {
	EventID       string `json:"event_id"`
	Seq           int    `json:"seq"`
	TS            string `json:"ts"`
	Type          string `json:"type"`
	Actor         string `json:"actor"`
	GroupID       string `json:"group_id,omitempty"`
	SessionID     string `json:"session_id,omitempty"`
	TaskID        string `json:"task_id,omitempty"`
	AgentID       string `json:"agent_id,omitempty"`
	ParentEventID string `json:"parent_event_id,omitempty"`
	Data          any    `json:"data"`
}

// Ref ties an event's data to the trace it came from: the sequence
// number of its trace event (what a report's event_refs name) and, for an
// imported event, where it was read ("session.jsonl:14").
type Ref struct {
	TraceSeq int64  `json:"trace_seq,omitempty"`
	Origin   string `json:"origin,omitempty"`
}

// MessageReceivedData is a turn's user message.
type MessageReceivedData struct {
	Text        string             `json:"text"`
	Turn        int                `json:"turn"`
	Attachments []trace.Attachment `json:"attachments,omitempty"`
	Ref
}

// ToolCallData is a call the agent made. Args is the parsed JSON when the
// arguments were JSON, else their text.
type ToolCallData struct {
	CallID string `json:"call_id"`
	Name   string `json:"name"`
	Args   any    `json:"args"`
	// Client is true for a client tool Ananke answered itself.
	Client bool `json:"client,omitempty"`
	// Served is the record of Ananke's tool doubles when they answered
	// the call (docs/doubles.md): the double's tool, the answer chosen or
	// the fault played, whether the test gave it no answer, its latency.
	Served *trace.Served `json:"served,omitempty"`
	// Source is "spans" for a call found only in the agent's
	// OpenTelemetry spans (docs/opentelemetry.md).
	Source string `json:"source,omitempty"`
	Ref
}

// ToolResultData is a call's result as received.
type ToolResultData struct {
	CallID  string `json:"call_id"`
	Content string `json:"content"`
	Success bool   `json:"success"`
	Error   string `json:"error,omitempty"`
	Ref
}

// MemoryData is a read or write of the agent's memory.
type MemoryData struct {
	Group   string `json:"group,omitempty"`
	Path    string `json:"path"`
	Content string `json:"content,omitempty"`
	CallID  string `json:"call_id,omitempty"`
	Ref
}

// MessageSentData is a message the agent sent out of the conversation.
type MessageSentData struct {
	To     string `json:"to,omitempty"`
	Text   string `json:"text"`
	CallID string `json:"call_id,omitempty"`
	Ref
}

// ErrorData is a run error the agent reported (RUN_ERROR), or a tool
// call's failure (with CallID).
type ErrorData struct {
	Message string `json:"message"`
	Code    string `json:"code,omitempty"`
	CallID  string `json:"call_id,omitempty"`
	Ref
}

// ModelCallData is a request the agent made to its model through Ananke's
// model gateway, as the trace's model call says (docs/gateway.md); the
// event's ts is when it started.
type ModelCallData struct {
	// Turn is the turn it was made in.
	Turn int `json:"turn"`
	// Model is the model asked for; ResponseModel the one that answered,
	// when it differs.
	Model         string `json:"model"`
	ResponseModel string `json:"response_model,omitempty"`
	Stream        bool   `json:"stream,omitempty"`
	// Messages is how many messages the request carried, Tools the
	// tools it offered.
	Messages int      `json:"messages"`
	Tools    []string `json:"tools,omitempty"`
	// Mode is how the gateway answered: record, replay or passthrough.
	Mode string `json:"mode"`
	// Status is the HTTP status the agent got (0: none, the connection
	// was dropped or the agent gave up); Fault the fault Ananke injected,
	// Error why the gateway could not answer as the test meant, Note
	// what happened that the agent is judged on.
	Status int    `json:"status"`
	Fault  string `json:"fault,omitempty"`
	Error  string `json:"error,omitempty"`
	Note   string `json:"note,omitempty"`
	// FinishReason is the answer's finish_reason, ToolCalls the tools it
	// called.
	FinishReason string   `json:"finish_reason,omitempty"`
	ToolCalls    []string `json:"tool_calls,omitempty"`
	// Usage is the token counts the answer reported, only those it
	// reported; absent when it reported none.
	Usage *cost.Tokens `json:"usage,omitempty"`
	// DurationMs is from its start to its end.
	DurationMs int64 `json:"duration_ms"`
}

// FinalOutputData is the assistant's text at the end of the last turn.
type FinalOutputData struct {
	Text string `json:"text"`
	Ref
}

// Metrics measure the attempt.
type Metrics struct {
	TimingMsTotal int64 `json:"timing_ms_total"`
	ToolCallCount int   `json:"tool_call_count"`
	// RetryCount is the attempt's retry index: how many times its run was
	// retried before it.
	RetryCount int         `json:"retry_count"`
	TokenUsage *TokenUsage `json:"token_usage,omitempty"`
	// ModelCallCount is how many requests the agent made to its model
	// through Ananke's model gateway; absent when the attempt was not
	// bound to it, since then nothing counted them.
	ModelCallCount *int `json:"model_call_count,omitempty"`
}

// TokenUsage is what the agent's model used, when the source reports it.
type TokenUsage struct {
	InputTokens  int64 `json:"input_tokens"`
	OutputTokens int64 `json:"output_tokens"`
	TotalTokens  int64 `json:"total_tokens"`
}

// Artifacts are the files the trace came from.
type Artifacts struct {
	// TraceFile is the Ananke trace file, relative to the report
	// directory.
	TraceFile string `json:"trace_file,omitempty"`
}
