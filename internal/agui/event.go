package agui

import (
	"bytes"
	"encoding/json"

	"github.com/ananke/action/internal/cost"
)

// Event types of protocol 1.0.
const (
	RunStarted              = "RUN_STARTED"
	RunFinished             = "RUN_FINISHED"
	RunError                = "RUN_ERROR"
	StepStarted             = "STEP_STARTED"
	StepFinished            = "STEP_FINISHED"
	TextMessageStart        = "TEXT_MESSAGE_START"
	TextMessageContent      = "TEXT_MESSAGE_CONTENT"
	TextMessageEnd          = "TEXT_MESSAGE_END"
	TextMessageChunk        = "TEXT_MESSAGE_CHUNK"
	ToolCallStart           = "TOOL_CALL_START"
	ToolCallArgs            = "TOOL_CALL_ARGS"
	ToolCallEnd             = "TOOL_CALL_END"
	ToolCallChunk           = "TOOL_CALL_CHUNK"
	ToolCallResult          = "TOOL_CALL_RESULT"
	StateSnapshot           = "STATE_SNAPSHOT"
	StateDelta              = "STATE_DELTA"
	MessagesSnapshot        = "MESSAGES_SNAPSHOT"
	ActivitySnapshot        = "ACTIVITY_SNAPSHOT"
	ActivityDelta           = "ACTIVITY_DELTA"
	Raw                     = "RAW"
	Custom                  = "CUSTOM"
	ReasoningStart          = "REASONING_START"
	ReasoningMessageStart   = "REASONING_MESSAGE_START"
	ReasoningMessageContent = "REASONING_MESSAGE_CONTENT"
	ReasoningMessageEnd     = "REASONING_MESSAGE_END"
	ReasoningMessageChunk   = "REASONING_MESSAGE_CHUNK"
	ReasoningEnd            = "REASONING_END"
	ReasoningEncryptedValue = "REASONING_ENCRYPTED_VALUE"
	SubagentStarted         = "SUBAGENT_STARTED"
	SubagentFinished        = "SUBAGENT_FINISHED"
	SubagentError           = "SUBAGENT_ERROR"
)

// Event is one decoded event. It is a flat union: only the fields of its
// Type are set. Raw holds the frame exactly as received (nil for events the
// client synthesized while expanding chunks); an Observer sees it only
// until it returns.
type Event struct {
	Type string
	Raw  json.RawMessage
	// Synthetic is true for events made by chunk expansion or by the
	// translation of retired events.
	Synthetic bool

	Timestamp int64 // producer timestamp (ms), when HasTimestamp
	has       field // which optional fields were present

	ThreadID, RunID, ParentRunID, ProtocolVersion string

	MessageID, Role, Name, Delta              string
	ToolCallID, ToolCallName, ParentMessageID string
	StepName                                  string
	Message, Code                             string // RUN_ERROR, SUBAGENT_ERROR
	ActivityType                              string
	SubagentRunID                             string
	// SUBAGENT_STARTED's description and parents.
	Description, ParentSubagentRunID, ParentToolCallID string

	// Content is TOOL_CALL_RESULT's content (a JSON string or a list of
	// content parts) or ACTIVITY_SNAPSHOT's content object.
	Content json.RawMessage
	// Snapshot is STATE_SNAPSHOT's snapshot (any JSON, may be null).
	Snapshot json.RawMessage
	// Patch is STATE_DELTA's delta or ACTIVITY_DELTA's patch (JSON Patch).
	Patch json.RawMessage
	// Messages is MESSAGES_SNAPSHOT's message list.
	Messages json.RawMessage
	// Value is CUSTOM's value or RAW's event.
	Value   json.RawMessage
	Result  json.RawMessage
	Outcome *Outcome
	Replace *bool // ACTIVITY_SNAPSHOT
	// Usage is RUN_FINISHED's or RUN_ERROR's usage, one entry per
	// TokenUsage, when the event carried it (HasUsage): an empty list is a
	// run that reported using nothing.
	Usage []cost.Usage

	// borrowed is set when a field above is a slice of the frame (Raw
	// aside): an event kept beyond its frame needs a copy (own).
	borrowed bool
}

// own gives the event a copy of the frame data it was decoded from, and
// returns it: its raw fields are re-sliced from the copy.
func (e *Event) own(data []byte) []byte {
	c := bytes.Clone(data)
	for _, f := range []*json.RawMessage{&e.Raw, &e.Content, &e.Snapshot, &e.Patch, &e.Messages, &e.Value, &e.Result} {
		*f = rebase(*f, data, c)
	}
	e.borrowed = false
	return c
}

// rebase returns the slice of to at field's place in from (field is a
// slice of from's array; anything else is copied).
func rebase(field json.RawMessage, from, to []byte) json.RawMessage {
	if field == nil {
		return nil
	}
	if i := cap(from) - cap(field); i >= 0 && i+len(field) <= len(to) && cap(field) > 0 && &from[:cap(from)][i] == &field[:1][0] {
		return json.RawMessage(to[i : i+len(field) : i+len(field)])
	}
	return bytes.Clone(field)
}

// field is a set of optional fields whose presence matters.
type field uint16

const (
	hasTimestamp field = 1 << iota
	hasMessageID
	hasRole
	hasName
	hasDelta
	hasToolCallID
	hasToolCallName
	hasParentMessageID
	hasUsage
)

// HasTimestamp reports whether the producer sent a timestamp.
func (e *Event) HasTimestamp() bool { return e.has&hasTimestamp != 0 }

// HasUsage reports whether the event carried usage (RUN_FINISHED and
// RUN_ERROR only).
func (e *Event) HasUsage() bool { return e.has&hasUsage != 0 }

// Outcome is RUN_FINISHED's outcome: absent means success.
type Outcome struct {
	Type               string      `json:"type"` // success | interrupt | cancelled
	PendingToolCallIDs []string    `json:"pendingToolCallIds,omitempty"`
	Interrupts         []Interrupt `json:"interrupts,omitempty"`
}

// Interrupt asks the client to resume the run later.
type Interrupt struct {
	ID         string `json:"id"`
	Reason     string `json:"reason"`
	Message    string `json:"message,omitempty"`
	ToolCallID string `json:"toolCallId,omitempty"`
}
