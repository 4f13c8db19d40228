package agui

import (
	"encoding/json"
	"strings"

	jsonpatch "github.com/evanphx/json-patch/v5"

	"github.com/ananke/action/internal/textbuf"
)

// reducer rebuilds the conversation from the events, as the official
// client's default reducer does (agui-protocol.md §4), and keeps the state.
// Streamed text and arguments go into builders so assembly stays linear in
// the size of the stream.
type reducer struct {
	msgs  []*entry
	byID  map[string]*entry
	calls map[string]*call // tool calls by id
	// order lists the tool calls started in this response.
	order    []string
	answered map[string]bool // tool call ids that have a tool message
	state    json.RawMessage
	// streamed holds the text and reasoning messages this response
	// streamed, by id in the order they started: a MESSAGES_SNAPSHOT
	// replaces the conversation, not what the agent streamed.
	streamed      map[string]*entry
	streamedOrder []string
}

type entry struct {
	Message
	text *textbuf.Buffer // streamed content, when the content is text
}

type call struct {
	owner *entry
	index int // in owner.ToolCalls
	args  strings.Builder
	name  string
}

func newReducer(history []Message, state json.RawMessage) *reducer {
	r := &reducer{byID: map[string]*entry{}, calls: map[string]*call{}, answered: map[string]bool{}, state: state, streamed: map[string]*entry{}}
	for _, m := range history {
		r.push(m)
	}
	return r
}

func (r *reducer) push(m Message) *entry {
	e := &entry{Message: m}
	r.msgs = append(r.msgs, e)
	r.byID[m.ID] = e
	if m.Role == RoleTool {
		r.answered[m.ToolCallID] = true
	}
	return e
}

func (r *reducer) apply(ev *Event, ps *problems) {
	switch ev.Type {
	case TextMessageStart:
		r.textEntry(ev.MessageID, orDefault(ev.Role, RoleAssistant), ev.Name)
	case ReasoningMessageStart:
		r.textEntry(ev.MessageID, RoleReasoning, "")
	case TextMessageContent, ReasoningMessageContent:
		if e := r.byID[ev.MessageID]; e != nil && e.text != nil {
			e.text.WriteString(ev.Delta)
		}
	case ToolCallStart:
		r.toolStart(ev)
	case ToolCallArgs:
		if c := r.calls[ev.ToolCallID]; c != nil {
			c.args.WriteString(ev.Delta)
		}
	case ToolCallEnd:
		if c := r.calls[ev.ToolCallID]; c != nil {
			if a := c.args.String(); a != "" && !json.Valid([]byte(a)) {
				ps.warnf(RuleToolArgs, "the arguments of tool call '%s' (%s) are not valid JSON: %s", ev.ToolCallID, c.name, excerpt([]byte(a)))
			}
		}
	case ToolCallResult:
		r.toolResult(ev)
	case MessagesSnapshot:
		var msgs []Message
		if err := json.Unmarshal(ev.Messages, &msgs); err != nil {
			ps.errorf(RuleSchema, "MESSAGES_SNAPSHOT.messages is malformed: %s", jsonErr(err))
			return
		}
		r.msgs, r.byID, r.calls, r.answered = nil, map[string]*entry{}, map[string]*call{}, map[string]bool{}
		for _, m := range msgs {
			r.push(m)
		}
	case StateSnapshot:
		r.state = ev.Snapshot
	case StateDelta:
		if next, err := patch(r.state, ev.Patch); err != nil {
			ps.warnf(RuleState, "STATE_DELTA does not apply to the current state: %v", err)
		} else {
			r.state = next
		}
	case ActivitySnapshot:
		r.activitySnapshot(ev)
	case ActivityDelta:
		r.activityDelta(ev, ps)
	}
}

func (r *reducer) textEntry(id, role, name string) {
	e := r.byID[id]
	if e == nil {
		e = r.push(Message{ID: id, Role: role, Name: name})
	}
	if e.text == nil {
		e.text = &textbuf.Buffer{}
		if s, ok := e.TextContent(); ok {
			e.text.WriteString(s) // a reopened message appends
		}
	}
	if _, ok := r.streamed[id]; !ok {
		r.streamedOrder = append(r.streamedOrder, id)
	}
	r.streamed[id] = e
}

func (r *reducer) toolStart(ev *Event) {
	if r.calls[ev.ToolCallID] != nil {
		return // a replayed start of a known call (the reducer is idempotent)
	}
	owner := r.byID[ev.ParentMessageID]
	if !ev.has.is(hasParentMessageID) || owner == nil || owner.Role != RoleAssistant {
		id := ev.ToolCallID
		if ev.has.is(hasParentMessageID) {
			id = ev.ParentMessageID
		}
		if owner = r.byID[id]; owner == nil || owner.Role != RoleAssistant {
			owner = r.push(Message{ID: id, Role: RoleAssistant})
		}
	}
	owner.ToolCalls = append(owner.ToolCalls, ToolCall{ID: ev.ToolCallID, Type: "function", Function: FunctionCall{Name: ev.ToolCallName}})
	r.calls[ev.ToolCallID] = &call{owner: owner, index: len(owner.ToolCalls) - 1, name: ev.ToolCallName}
	r.order = append(r.order, ev.ToolCallID)
}

// toolResult inserts the tool message right after the owning assistant
// message and the tool results already answering it.
func (r *reducer) toolResult(ev *Event) {
	m := Message{ID: ev.MessageID, Role: RoleTool, ToolCallID: ev.ToolCallID, Content: ev.Content}
	r.answered[ev.ToolCallID] = true
	at := len(r.msgs)
	if c := r.calls[ev.ToolCallID]; c != nil {
		// The owner is usually among the last messages: look from the end.
		for i := len(r.msgs) - 1; i >= 0; i-- {
			if e := r.msgs[i]; e == c.owner {
				at = i + 1
				for at < len(r.msgs) && r.msgs[at].Role == RoleTool && r.owns(c.owner, r.msgs[at].ToolCallID) {
					at++
				}
				break
			}
		}
	}
	e := &entry{Message: m}
	r.msgs = append(r.msgs[:at], append([]*entry{e}, r.msgs[at:]...)...)
	r.byID[m.ID] = e
}

func (r *reducer) owns(owner *entry, toolCallID string) bool {
	c := r.calls[toolCallID]
	return c != nil && c.owner == owner
}

func (r *reducer) activitySnapshot(ev *Event) {
	e := r.byID[ev.MessageID]
	switch {
	case e == nil:
		r.push(Message{ID: ev.MessageID, Role: RoleActivity, ActivityType: ev.ActivityType, Content: ev.Content})
	case ev.Replace == nil || *ev.Replace:
		e.ActivityType, e.Content = ev.ActivityType, ev.Content
	}
}

func (r *reducer) activityDelta(ev *Event, ps *problems) {
	e := r.byID[ev.MessageID]
	if e == nil || e.Role != RoleActivity {
		ps.warnf(RuleState, "ACTIVITY_DELTA for message '%s', which was never created; skipped", ev.MessageID)
		return
	}
	next, err := patch(e.Content, ev.Patch)
	if err != nil {
		ps.warnf(RuleState, "ACTIVITY_DELTA does not apply to activity '%s': %v", ev.MessageID, err)
		return
	}
	e.Content = next
}

// patch applies an RFC 6902 JSON Patch; an absent document is {}.
func patch(doc, ops json.RawMessage) (json.RawMessage, error) {
	if len(doc) == 0 {
		doc = json.RawMessage("{}")
	}
	p, err := jsonpatch.DecodePatch(ops)
	if err != nil {
		return nil, err
	}
	return p.Apply(doc)
}

// messages returns the rebuilt history, text and arguments materialized.
func (r *reducer) messages() []Message {
	out := make([]Message, len(r.msgs))
	for i, e := range r.msgs {
		m := e.Message
		if e.text != nil {
			s := e.text.String()
			m.Content, m.text = nil, &s
		}
		if len(m.ToolCalls) > 0 {
			m.ToolCalls = append([]ToolCall(nil), m.ToolCalls...)
			for j := range m.ToolCalls {
				if c := r.calls[m.ToolCalls[j].ID]; c != nil && c.owner == e {
					m.ToolCalls[j].Function.Arguments = c.args.String()
				}
			}
		}
		out[i] = m
	}
	return out
}

// streamedMessages returns the text and reasoning messages the response
// streamed, in the order they started, each with its whole text (what an
// earlier response put in a reopened message included), whether or not a
// MESSAGES_SNAPSHOT kept them in the conversation.
func (r *reducer) streamedMessages() []Message {
	out := make([]Message, 0, len(r.streamedOrder))
	for _, id := range r.streamedOrder {
		e := r.streamed[id]
		out = append(out, TextMessage(id, e.Role, e.text.String()))
	}
	return out
}

// pending lists the calls started in this response that no tool message
// answers, in start order: the client tools the caller must now run.
// outcome.pendingToolCallIds wins when the producer sent it.
func (r *reducer) pending(o *Outcome) []ToolCall {
	ids := r.order
	if o != nil && len(o.PendingToolCallIDs) > 0 {
		ids = o.PendingToolCallIDs
	}
	var out []ToolCall
	for _, id := range ids {
		c := r.calls[id]
		if c == nil || r.answered[id] {
			continue
		}
		out = append(out, ToolCall{ID: id, Type: "function", Function: FunctionCall{Name: c.name, Arguments: c.args.String()}})
	}
	return out
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// ForInput returns the messages to send back to the agent: activity
// messages are client-side only and must not be sent.
func ForInput(msgs []Message) []Message {
	out := make([]Message, 0, len(msgs))
	for _, m := range msgs {
		if m.Role != RoleActivity {
			out = append(out, m)
		}
	}
	return out
}
