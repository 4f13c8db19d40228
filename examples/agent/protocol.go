package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// RunAgentInput is the JSON body of an AG-UI request. Only the fields this
// agent reads are declared; encoding/json ignores the rest (protocolVersion,
// context, forwardedProps, ...), which is what the protocol asks of a producer.
type RunAgentInput struct {
	ThreadID string    `json:"threadId"`
	RunID    string    `json:"runId"`
	Messages []Message `json:"messages"`
	Tools    []Tool    `json:"tools"`
	// State is the shared state the client holds: the agent keeps no memory,
	// so it starts each run from it (see stream.start).
	State json.RawMessage `json:"state,omitempty"`
}

// Message is one entry of the conversation history. The role decides which
// fields are set: user and assistant messages carry content, assistant
// messages may carry toolCalls, and tool messages answer one call by
// toolCallId.
type Message struct {
	ID         string          `json:"id"`
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content,omitempty"`
	ToolCalls  []ToolCall      `json:"toolCalls,omitempty"`
	ToolCallID string          `json:"toolCallId,omitempty"`
	// Error is set by the client when a client-side tool failed.
	Error string `json:"error,omitempty"`
}

// ToolCall is a call recorded in an assistant message. Arguments is a JSON
// document encoded as a string, exactly as the TOOL_CALL_ARGS deltas spelled it.
type ToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function FunctionCall `json:"function"`
}

// FunctionCall names the tool and holds its arguments.
type FunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Tool is a client-side (frontend) tool the caller offers. Backend tools live
// in the agent and are never listed here.
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

// Text returns the message content as plain text. Content is a string in
// most messages, but AG-UI 1.0 also allows an array of content parts; the
// text parts are joined and images and other parts are skipped.
func (m Message) Text() string {
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(m.Content, &parts) != nil {
		return ""
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Type == "text" {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// Event is one AG-UI event. A single struct covers every event this agent
// sends; fields an event does not use stay empty and are omitted, because the
// protocol wants absent optional fields left out rather than sent as null.
// The omitempty tags are safe only because this agent never sends an empty
// delta or content; an agent that might should use one type per event.
type Event struct {
	Type            string   `json:"type"`
	ThreadID        string   `json:"threadId,omitempty"`
	RunID           string   `json:"runId,omitempty"`
	StepName        string   `json:"stepName,omitempty"`
	MessageID       string   `json:"messageId,omitempty"`
	Role            string   `json:"role,omitempty"`
	ToolCallID      string   `json:"toolCallId,omitempty"`
	ToolCallName    string   `json:"toolCallName,omitempty"`
	ParentMessageID string   `json:"parentMessageId,omitempty"`
	Delta           string   `json:"delta,omitempty"`
	Content         string   `json:"content,omitempty"`
	Snapshot        any      `json:"snapshot,omitempty"`
	Outcome         *Outcome `json:"outcome,omitempty"`
	Message         string   `json:"message,omitempty"`
	Code            string   `json:"code,omitempty"`
	// Usage is what the run's model calls used, on RUN_FINISHED and
	// RUN_ERROR (AG-UI 1.0 TokenUsage[]).
	Usage []TokenUsage `json:"usage,omitempty"`
}

// TokenUsage is one model's token counts for a run. This agent has no
// model: it counts about four bytes of text per token, so the numbers are
// the same on every run of the same conversation and a test can put a
// budget on them.
type TokenUsage struct {
	Provider     string `json:"provider"`
	Model        string `json:"model"`
	InputTokens  int    `json:"inputTokens"`
	OutputTokens int    `json:"outputTokens"`
	TotalTokens  int    `json:"totalTokens"`
}

// Outcome tells the client how a run ended. This agent sends it only when it
// leaves client tool calls pending, as AG-UI 1.0 recommends, so the client
// knows which calls it must answer in the follow-up run.
type Outcome struct {
	Type               string   `json:"type"`
	PendingToolCallIDs []string `json:"pendingToolCallIds,omitempty"`
}

// eventWriter writes events as Server-Sent Events in the format of the
// official encoders, "data: <json>\n\n", and flushes each one so the client
// sees it at once rather than when a buffer fills.
type eventWriter struct {
	ctx   context.Context
	w     http.ResponseWriter
	rc    *http.ResponseController
	delay time.Duration // pause before every event but the first
	sent  int
	err   error // first write error; later writes are skipped
}

func newEventWriter(ctx context.Context, w http.ResponseWriter, delay time.Duration) *eventWriter {
	return &eventWriter{ctx: ctx, w: w, rc: http.NewResponseController(w), delay: delay}
}

// write sends one event. Errors are kept rather than returned so that scripts
// read as a plain list of events; once the client has gone, the rest of the
// script becomes a no-op.
func (ew *eventWriter) write(e Event) { ew.send(e.Type, e) }

// StateDelta is a STATE_DELTA event: its delta is a JSON Patch (RFC 6902),
// not text, so it has a type of its own.
type StateDelta struct {
	Type  string    `json:"type"`
	Delta []PatchOp `json:"delta"`
}

// PatchOp is one JSON Patch operation.
type PatchOp struct {
	Op    string `json:"op"`
	Path  string `json:"path"`
	Value any    `json:"value,omitempty"`
}

// send writes any event value whose type is typ.
func (ew *eventWriter) send(typ string, e any) {
	data, err := json.Marshal(e)
	if err != nil {
		if ew.err == nil {
			ew.err = fmt.Errorf("encode %s: %w", typ, err)
		}
		return
	}
	ew.frame("", typ, data)
}

// sendNamed writes v as an event with an "event:" line naming it, as the
// OpenAI Responses API sends its events (openai.go).
func (ew *eventWriter) sendNamed(name string, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		if ew.err == nil {
			ew.err = fmt.Errorf("encode %s: %w", name, err)
		}
		return
	}
	ew.frame(name, name, data)
}

// frame writes one event whose data is data, after the pause between
// events; event, when set, is written as its "event:" line.
func (ew *eventWriter) frame(event, typ string, data []byte) {
	if ew.err != nil {
		return
	}
	if ew.sent > 0 {
		ew.err = sleep(ew.ctx, ew.delay)
		if ew.err != nil {
			return
		}
	}
	ew.sent++
	if event != "" {
		if _, err := fmt.Fprintf(ew.w, "event: %s\n", event); err != nil {
			ew.err = fmt.Errorf("write %s: %w", typ, err)
			return
		}
	}
	if _, err := fmt.Fprintf(ew.w, "data: %s\n\n", data); err != nil {
		ew.err = fmt.Errorf("write %s: %w", typ, err)
		return
	}
	if err := ew.rc.Flush(); err != nil {
		ew.err = fmt.Errorf("flush %s: %w", typ, err)
	}
}

// sleep waits for d or until ctx ends, whichever comes first.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
