package agui

import "encoding/json"

// RunAgentInput is the body of a run request. Every field the protocol
// lists is always sent, because older servers answer 422 without tools,
// context or forwardedProps; ProtocolVersion is omitted when empty.
type RunAgentInput struct {
	ThreadID        string          `json:"threadId"`
	RunID           string          `json:"runId"`
	ProtocolVersion string          `json:"protocolVersion,omitempty"`
	ParentRunID     string          `json:"parentRunId,omitempty"`
	State           json.RawMessage `json:"state"`
	Messages        []Message       `json:"messages"`
	Tools           []Tool          `json:"tools"`
	Context         []Context       `json:"context"`
	ForwardedProps  json.RawMessage `json:"forwardedProps"`
	// Resume answers the interrupts the thread's last run ended with.
	Resume []ResumeEntry `json:"resume,omitempty"`
}

// ResumeEntry answers one pending interrupt: status "resolved" (with a
// payload) or "cancelled".
type ResumeEntry struct {
	InterruptID string          `json:"interruptId"`
	Status      string          `json:"status"`
	Payload     json.RawMessage `json:"payload,omitempty"`
}

// Roles of messages.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleSystem    = "system"
	RoleDeveloper = "developer"
	RoleTool      = "tool"
	RoleActivity  = "activity"
	RoleReasoning = "reasoning"
)

// Message is one message of the conversation. Content is kept as raw JSON
// because it is a string for most roles but a list of content parts for
// user and tool messages in 1.0 (and an object for activity messages).
type Message struct {
	ID           string          `json:"id"`
	Role         string          `json:"role"`
	Content      json.RawMessage `json:"content,omitempty"`
	Name         string          `json:"name,omitempty"`
	ToolCalls    []ToolCall      `json:"toolCalls,omitempty"`
	ToolCallID   string          `json:"toolCallId,omitempty"`
	Error        string          `json:"error,omitempty"`
	ActivityType string          `json:"activityType,omitempty"`

	// text, when set, is the content as text, encoded as JSON only when
	// the message is (a streamed reply of megabytes is not encoded unless
	// it is sent back).
	text *string
}

// TextMessage is a message whose content is the text s.
func TextMessage(id, role, s string) Message {
	return Message{ID: id, Role: role, text: &s}
}

// MarshalJSON writes the message, its text content encoded now.
func (m Message) MarshalJSON() ([]byte, error) {
	type plain Message
	if m.text != nil && m.Content == nil {
		m.Content = StringContent(*m.text)
	}
	return json.Marshal(plain(m))
}

// TextContent returns the content when it is a JSON string.
func (m *Message) TextContent() (string, bool) {
	if m.text != nil && m.Content == nil {
		return *m.text, true
	}
	var s string
	if len(m.Content) == 0 || json.Unmarshal(m.Content, &s) != nil {
		return "", false
	}
	return s, true
}

// StringContent encodes s as a message content.
func StringContent(s string) json.RawMessage {
	b, _ := json.Marshal(s) // a string always encodes
	return b
}

// ToolCall is a call inside an assistant message.
type ToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"` // always "function"
	Function FunctionCall `json:"function"`
}

// FunctionCall names the tool and carries its arguments as a JSON string,
// not validated by the protocol.
type FunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Tool is a client (frontend) tool the agent may call.
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

// Context is one piece of context sent with a run.
type Context struct {
	Description string `json:"description"`
	Value       string `json:"value"`
}
