package scriptcheck

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/ananke/action/internal/trace"
)

// Schema names the transcript format (see the package comment).
const Schema = "ananke.transcript/v1"

// TestInfo is the test a transcript belongs to.
type TestInfo struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Transcript is the JSON document a script reads on stdin: scope s of test
// in the shape the package comment describes, followed by a newline.
func Transcript(test TestInfo, s trace.Scope) []byte {
	doc := transcript{
		Schema:    Schema,
		Test:      test,
		Scope:     s.Name,
		History:   make([]message, 0, len(s.History)),
		Turns:     make([]turn, 0, len(s.Turns)),
		Text:      s.Text(),
		ToolCalls: []toolCall{},
		State:     rawOrNull(s.State()),
	}
	for _, m := range s.History {
		doc.History = append(doc.History, message{Role: m.Role, Content: m.Content})
	}
	for i := range s.Turns {
		t := newTurn(&s.Turns[i])
		doc.Turns = append(doc.Turns, t)
		doc.ToolCalls = append(doc.ToolCalls, t.ToolCalls...)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	// "<", ">" and "&" stay as they are, so a script can grep for them.
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		// Unreachable: every json.RawMessage in doc was checked with
		// json.Valid, and nothing else can fail to encode.
		panic(fmt.Sprintf("scriptcheck: encode transcript: %v", err))
	}
	return b.Bytes()
}

// transcript is the document; field order is the JSON order.
type transcript struct {
	Schema    string          `json:"schema"`
	Test      TestInfo        `json:"test"`
	Scope     string          `json:"scope"`
	History   []message       `json:"history"`
	Turns     []turn          `json:"turns"`
	Text      string          `json:"text"`
	ToolCalls []toolCall      `json:"tool_calls"`
	State     json.RawMessage `json:"state"`
}

type message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type turn struct {
	Index int    `json:"index"`
	Type  string `json:"type"`
	User  string `json:"user"`
	// Attachments are the files the user's message carried: name,
	// mime_type, bytes.
	Attachments []trace.Attachment `json:"attachments"`
	Text        string             `json:"text"`
	ToolCalls   []toolCall         `json:"tool_calls"`
	RunErrors   []runError         `json:"run_errors"`
	State       json.RawMessage    `json:"state"`
	DurationMs  int64              `json:"duration_ms"`
}

type runError struct {
	Message string `json:"message"`
	Code    string `json:"code"`
}

type toolCall struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Turn int    `json:"turn"`
	// Args and Result are a json.RawMessage or a string.
	Args       any     `json:"args"`
	Result     any     `json:"result"`
	Error      *string `json:"error"`
	Client     bool    `json:"client"`
	DurationMs int64   `json:"duration_ms"`
}

func newTurn(t *trace.Turn) turn {
	out := turn{
		Index:       t.Index,
		Type:        t.Kind,
		User:        t.UserText,
		Attachments: append([]trace.Attachment{}, t.Attachments...),
		Text:        t.Text(),
		ToolCalls:   make([]toolCall, 0, len(t.ToolCalls)),
		RunErrors:   make([]runError, 0, len(t.RunErrors)),
		State:       rawOrNull(t.State),
		DurationMs:  max(0, t.DurationMs()),
	}
	for i := range t.ToolCalls {
		out.ToolCalls = append(out.ToolCalls, newToolCall(&t.ToolCalls[i]))
	}
	for _, e := range t.RunErrors {
		out.RunErrors = append(out.RunErrors, runError{Message: e.Message, Code: e.Code})
	}
	return out
}

func newToolCall(c *trace.ToolCall) toolCall {
	out := toolCall{
		ID: c.ID, Name: c.Name, Turn: c.Turn,
		Args:   jsonOrString(c.Args, c.ArgsJSON),
		Client: c.Client,
	}
	if c.TimestampMs > c.StartedMs {
		out.DurationMs = c.TimestampMs - c.StartedMs
	}
	if r := c.Result; r != nil {
		out.Result = jsonOrString(r.Content, r.JSON)
		if r.Error != "" {
			out.Error = &r.Error
		}
	}
	return out
}

// jsonOrString is s as a JSON value when isJSON says it is one (and it
// is), else s as a JSON string.
func jsonOrString(s string, isJSON bool) any {
	if isJSON && json.Valid([]byte(s)) {
		return json.RawMessage(s)
	}
	return s
}

// rawOrNull is raw when it is valid JSON, else null: an agent state the
// trace could not hold as JSON is absent, not a broken document.
func rawOrNull(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || !json.Valid(raw) {
		return json.RawMessage("null")
	}
	return raw
}
