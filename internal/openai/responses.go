package openai

import (
	"encoding/json"
	"strconv"

	"github.com/ananke/action/internal/oaiwire"
	"github.com/ananke/action/internal/target"
)

// The Responses API: each request sends the input items since the last
// response, and names it (previous_response_id), so the API holds the
// conversation; the answer is a response, or a stream of events ending
// with response.completed (or response.incomplete, response.failed).

// responses is the conversation of a Responses session.
type responses struct {
	o *Options
	// items are the conversation's items: what was sent, and what the
	// responses gave (for a server that names no response); sent counts
	// those the last response covers.
	items []any
	sent  int
	// previous is the id of the last response ("": none yet).
	previous string
}

// message is an input message item.
type message struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// functionCall and functionOutput are a call the API asked for and
// Ananke's answer to it.
type functionCall struct {
	Type      string `json:"type"`
	CallID    string `json:"call_id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type functionOutput struct {
	Type   string `json:"type"`
	CallID string `json:"call_id"`
	Output string `json:"output"`
}

// responsesTool is a function tool as the Responses API declares one.
type responsesTool struct {
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
	// Strict is sent false: the API's default (true) refuses a schema
	// that does not list every property as required.
	Strict bool `json:"strict"`
}

func newResponses(o *Options) *responses {
	c := &responses{o: o}
	for _, m := range o.History {
		content := jsonString(m.Text)
		if m.Parts != nil && m.Role == "user" {
			content = responsesParts(m.Parts)
		} else if m.Parts != nil {
			content = jsonString(partsText(m.Parts, m.Text))
		}
		c.items = append(c.items, message{Role: m.Role, Content: content})
	}
	return c
}

func (c *responses) path() string { return "responses" }

func (c *responses) user(text string, parts []target.Part) {
	content := jsonString(text)
	if parts != nil {
		content = responsesParts(parts)
	}
	c.items = append(c.items, message{Role: "user", Content: content})
}

func (c *responses) request() map[string]any {
	input := c.items
	req := map[string]any{"model": c.o.Model}
	if c.previous != "" {
		input = c.items[c.sent:]
		req["previous_response_id"] = c.previous
	}
	req["input"] = input
	if c.o.Instructions != "" {
		req["instructions"] = c.o.Instructions
	}
	if c.o.Stream {
		req["stream"] = true
	}
	if len(c.o.Tools) > 0 {
		tools := make([]responsesTool, len(c.o.Tools))
		for i, t := range c.o.Tools {
			tools[i] = responsesTool{Type: "function", Name: t.Name, Description: t.Description, Parameters: t.Parameters}
		}
		req["tools"] = tools
	}
	return req
}

// answered adds the response to the conversation: the next request
// follows it.
func (c *responses) answered(r *reply) {
	if r.text.Len() > 0 {
		c.items = append(c.items, message{Role: "assistant", Content: jsonString(r.text.String())})
	}
	for _, call := range r.calls {
		c.items = append(c.items, functionCall{Type: "function_call", CallID: call.id, Name: call.name, Arguments: call.arguments()})
	}
	if r.id != "" {
		c.previous, c.sent = r.id, len(c.items)
	}
}

func (c *responses) result(id, content string) {
	c.items = append(c.items, functionOutput{Type: "function_call_output", CallID: id, Output: content})
}

// responseJSON is what is read of a response.
type responseJSON struct {
	ID                string                   `json:"id"`
	Model             string                   `json:"model"`
	Status            string                   `json:"status"`
	Error             json.RawMessage          `json:"error"`
	IncompleteDetails *struct{ Reason string } `json:"incomplete_details"`
	Output            []itemJSON               `json:"output"`
	Usage             *oaiwire.ResponsesUsage  `json:"usage"`
}

// itemJSON is an output item: a message or a function call (others are
// kept as events, not read).
type itemJSON struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	CallID    string          `json:"call_id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Content   []struct {
		Type    string `json:"type"`
		Text    string `json:"text"`
		Refusal string `json:"refusal"`
	} `json:"content"`
}

// eventJSON is what is read of a streamed event.
type eventJSON struct {
	Type      string          `json:"type"`
	ItemID    string          `json:"item_id"`
	Delta     json.RawMessage `json:"delta"`
	Arguments *string         `json:"arguments"`
	Item      *itemJSON       `json:"item"`
	Response  *responseJSON   `json:"response"`
	// An error event's: its code and message, or an error object.
	Code    json.RawMessage `json:"code"`
	Message string          `json:"message"`
	Error   json.RawMessage `json:"error"`
}

// responsesReader reads Responses answers.
type responsesReader struct{}

func (responsesReader) unended() string { return "response.completed" }

func (responsesReader) event(r *reply, data []byte) {
	var ev eventJSON
	_ = json.Unmarshal(data, &ev) // valid JSON; a shape it is not reads as nothing
	typ := ev.Type
	if typ == "" {
		typ = "event"
	}
	seq := r.event(typ, data)
	switch ev.Type {
	case "response.created", "response.in_progress":
		if ev.Response != nil {
			r.id, r.model = ev.Response.ID, ev.Response.Model
		}
	case "response.output_text.delta":
		r.addText(ev.ItemID, argumentsText(ev.Delta), seq)
	case "response.refusal.delta":
		r.addRefusal(ev.ItemID, argumentsText(ev.Delta), seq)
	case "response.output_item.added":
		if it := ev.Item; it != nil && it.Type == "function_call" {
			r.startCall(it.ID, it.CallID, it.Name, seq)
		}
	case "response.function_call_arguments.delta":
		if c := r.byKey[ev.ItemID]; c != nil {
			c.args.WriteString(argumentsText(ev.Delta))
		}
	case "response.function_call_arguments.done":
		if c := r.byKey[ev.ItemID]; c != nil && ev.Arguments != nil {
			r.endCall(c, ev.Arguments, seq)
		}
	case "response.output_item.done":
		if ev.Item != nil {
			readItem(r, *ev.Item, ev.Item.ID, seq)
		}
	case "response.completed", "response.incomplete", "response.failed":
		r.done = true
		if ev.Response != nil {
			readResponse(r, ev.Response, seq)
		}
	case "error":
		r.done = true
		msg, code := ev.Message, codeText(ev.Code)
		if hasError(ev.Error) {
			msg, code = errorMessage(ev.Error), objectCode(ev.Error)
		}
		if msg == "" {
			msg = excerpt(data)
		}
		r.runError(msg, code, seq)
	}
}

func (responsesReader) body(r *reply, data []byte) {
	var res responseJSON
	_ = json.Unmarshal(data, &res)
	seq := r.event("response", data)
	readResponse(r, &res, seq)
}

// readResponse reads a whole response, in event seq: its items not read
// yet, its usage, and how it ended.
func readResponse(r *reply, res *responseJSON, seq int64) {
	if res.ID != "" {
		r.id = res.ID
	}
	if res.Model != "" {
		r.model = res.Model
	}
	for i, it := range res.Output {
		key := it.ID
		if key == "" {
			key = "output-" + strconv.Itoa(i)
		}
		readItem(r, it, key, seq)
	}
	if res.Usage != nil {
		r.usage = res.Usage.Usage(r.model)
	}
	switch {
	case res.Status == "failed" || hasError(res.Error):
		msg := "the response failed"
		if hasError(res.Error) {
			msg = errorMessage(res.Error)
		}
		r.runError(msg, objectCode(res.Error), seq)
	case res.Status == "incomplete":
		reason := "no reason given"
		if d := res.IncompleteDetails; d != nil && d.Reason != "" {
			reason = d.Reason
		}
		r.warn(seq, "incomplete", "the response is incomplete: %s", reason)
	}
}

// readItem reads a whole output item, key, in event seq: a message's text
// when none of it streamed, a function call.
func readItem(r *reply, it itemJSON, key string, seq int64) {
	switch it.Type {
	case "message":
		if r.texts[key] {
			return
		}
		for _, p := range it.Content {
			switch p.Type {
			case "output_text":
				r.addText(key, p.Text, seq)
			case "refusal":
				r.addRefusal(key, p.Refusal, seq)
			}
		}
	case "function_call":
		c := r.startCall(key, it.CallID, it.Name, seq)
		args := argumentsText(it.Arguments)
		r.endCall(c, &args, seq)
	}
}

// codeText is an error event's code as text.
func codeText(raw json.RawMessage) string {
	if !hasError(raw) {
		return ""
	}
	return argumentsText(raw)
}
