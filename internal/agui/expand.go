package agui

import "strconv"

// expander rewrites the stream into its explicit form, as the official
// client does before verification (agui-protocol.md §5.2):
// TEXT_MESSAGE_CHUNK, TOOL_CALL_CHUNK and REASONING_MESSAGE_CHUNK become
// START / CONTENT (ARGS) / END events, and the retired THINKING_* events
// become REASONING_* events.
type expander struct {
	text, tool, reasoning *lane
	// thinking tracks the ids made up for retired THINKING_* events, which
	// carry none.
	thinking struct {
		n         int
		span, msg string
	}
	warnedRetired map[string]bool
}

// lane is an open chunk stream.
type lane struct {
	id, role, name, parent string
}

// Lanes closed by an explicit event of each type. Events not listed close
// nothing (RAW, ACTIVITY_*, REASONING_ENCRYPTED_VALUE, SUBAGENT_*).
const (
	laneText = 1 << iota
	laneTool
	laneReasoning
	laneAll = laneText | laneTool | laneReasoning
)

var closes = map[string]int{
	TextMessageStart: laneText, TextMessageContent: laneText, TextMessageEnd: laneText,
	ToolCallStart: laneTool, ToolCallArgs: laneTool, ToolCallEnd: laneTool, ToolCallResult: laneTool,
	ReasoningStart: laneReasoning, ReasoningMessageStart: laneReasoning, ReasoningMessageContent: laneReasoning,
	ReasoningMessageEnd: laneReasoning, ReasoningEnd: laneReasoning,
	StepStarted: laneAll, StepFinished: laneAll, StateSnapshot: laneAll, StateDelta: laneAll, Custom: laneAll,
	RunStarted: laneAll, RunFinished: laneAll, RunError: laneAll, MessagesSnapshot: laneAll,
}

// expand appends ev's explicit form to out.
func (x *expander) expand(ev Event, ps *problems, out []Event) []Event {
	switch ev.Type {
	case TextMessageChunk:
		return x.textChunk(ev, ps, out)
	case ToolCallChunk:
		return x.toolChunk(ev, ps, out)
	case ReasoningMessageChunk:
		return x.reasoningChunk(ev, ps, out)
	}
	if t, ok := x.translate(ev, ps); ok {
		ev = t
	}
	out = x.close(closes[ev.Type], out)
	return append(out, ev)
}

// flush closes every open chunk stream at the end of the stream.
func (x *expander) flush(out []Event) []Event { return x.close(laneAll, out) }

func (x *expander) close(lanes int, out []Event) []Event {
	if lanes&laneText != 0 && x.text != nil {
		out = append(out, Event{Type: TextMessageEnd, MessageID: x.text.id, Synthetic: true, has: hasMessageID})
		x.text = nil
	}
	if lanes&laneTool != 0 && x.tool != nil {
		out = append(out, Event{Type: ToolCallEnd, ToolCallID: x.tool.id, Synthetic: true, has: hasToolCallID})
		x.tool = nil
	}
	if lanes&laneReasoning != 0 && x.reasoning != nil {
		out = append(out, Event{Type: ReasoningMessageEnd, MessageID: x.reasoning.id, Synthetic: true, has: hasMessageID})
		x.reasoning = nil
	}
	return out
}

func (x *expander) textChunk(ev Event, ps *problems, out []Event) []Event {
	if l := x.text; l != nil && (!ev.has.is(hasMessageID) || ev.MessageID == l.id) {
		if conflict(ps, "text message", l.id, "role", ev.Role, l.role, ev.has.is(hasRole)) ||
			conflict(ps, "text message", l.id, "name", ev.Name, l.name, ev.has.is(hasName)) {
			return out
		}
		return x.content(ev, TextMessageContent, l.id, out)
	}
	out = x.close(laneText, out)
	if !ev.has.is(hasMessageID) {
		ps.errorf(RuleChunk, "First TEXT_MESSAGE_CHUNK must have a messageId")
		return out
	}
	role := RoleAssistant
	if ev.has.is(hasRole) {
		role = ev.Role
	}
	x.text = &lane{id: ev.MessageID, role: role, name: ev.Name}
	start := Event{Type: TextMessageStart, MessageID: ev.MessageID, Role: role, Name: ev.Name, Synthetic: true,
		has: hasMessageID | hasRole | (ev.has & hasName)}
	return x.content(ev, TextMessageContent, ev.MessageID, append(out, start))
}

func (x *expander) toolChunk(ev Event, ps *problems, out []Event) []Event {
	if l := x.tool; l != nil && (!ev.has.is(hasToolCallID) || ev.ToolCallID == l.id) {
		if conflict(ps, "tool call", l.id, "toolCallName", ev.ToolCallName, l.name, ev.has.is(hasToolCallName)) ||
			conflict(ps, "tool call", l.id, "parentMessageId", ev.ParentMessageID, l.parent, ev.has.is(hasParentMessageID)) {
			return out
		}
		return x.args(ev, l.id, out)
	}
	out = x.close(laneTool, out)
	switch {
	case !ev.has.is(hasToolCallID):
		ps.errorf(RuleChunk, "First TOOL_CALL_CHUNK must have a toolCallId")
		return out
	case !ev.has.is(hasToolCallName):
		ps.errorf(RuleChunk, "First TOOL_CALL_CHUNK must have a toolCallName")
		return out
	}
	x.tool = &lane{id: ev.ToolCallID, name: ev.ToolCallName, parent: ev.ParentMessageID}
	start := Event{Type: ToolCallStart, ToolCallID: ev.ToolCallID, ToolCallName: ev.ToolCallName, ParentMessageID: ev.ParentMessageID,
		Synthetic: true, has: hasToolCallID | hasToolCallName | (ev.has & hasParentMessageID)}
	return x.args(ev, ev.ToolCallID, append(out, start))
}

func (x *expander) reasoningChunk(ev Event, ps *problems, out []Event) []Event {
	if l := x.reasoning; l != nil && (!ev.has.is(hasMessageID) || ev.MessageID == l.id) {
		return x.content(ev, ReasoningMessageContent, l.id, out)
	}
	out = x.close(laneReasoning, out)
	if !ev.has.is(hasMessageID) {
		ps.errorf(RuleChunk, "First REASONING_MESSAGE_CHUNK must have a messageId")
		return out
	}
	x.reasoning = &lane{id: ev.MessageID}
	start := Event{Type: ReasoningMessageStart, MessageID: ev.MessageID, Role: RoleReasoning, Synthetic: true, has: hasMessageID | hasRole}
	return x.content(ev, ReasoningMessageContent, ev.MessageID, append(out, start))
}

// content appends the CONTENT event a chunk's delta makes.
func (x *expander) content(ev Event, typ, id string, out []Event) []Event {
	if !ev.has.is(hasDelta) {
		return out
	}
	return append(out, Event{Type: typ, MessageID: id, Delta: ev.Delta, Raw: ev.Raw, Synthetic: true, has: hasMessageID | hasDelta, Timestamp: ev.Timestamp})
}

func (x *expander) args(ev Event, id string, out []Event) []Event {
	if !ev.has.is(hasDelta) {
		return out
	}
	return append(out, Event{Type: ToolCallArgs, ToolCallID: id, Delta: ev.Delta, Raw: ev.Raw, Synthetic: true, has: hasToolCallID | hasDelta, Timestamp: ev.Timestamp})
}

// conflict reports a chunk that contradicts its open stream.
func conflict(ps *problems, what, id, field, got, open string, present bool) bool {
	if !present || got == open {
		return false
	}
	ps.errorf(RuleChunk, "Cannot continue %s '%s': chunk %s '%s' does not match the open stream's %s '%s'.", what, id, field, got, field, open)
	return true
}

// translate maps a retired THINKING_* event to its REASONING_* form.
func (x *expander) translate(ev Event, ps *problems) (Event, bool) {
	var t Event
	switch ev.Type {
	case "THINKING_START":
		x.thinking.n++
		x.thinking.span = "thinking-" + strconv.Itoa(x.thinking.n)
		t = Event{Type: ReasoningStart, MessageID: x.thinking.span}
	case "THINKING_END":
		t = Event{Type: ReasoningEnd, MessageID: x.thinking.span}
	case "THINKING_TEXT_MESSAGE_START":
		x.thinking.n++
		x.thinking.msg = "thinking-message-" + strconv.Itoa(x.thinking.n)
		t = Event{Type: ReasoningMessageStart, MessageID: x.thinking.msg, Role: RoleReasoning, has: hasRole}
	case "THINKING_TEXT_MESSAGE_CONTENT":
		t = Event{Type: ReasoningMessageContent, MessageID: x.thinking.msg, Delta: ev.Delta, has: hasDelta}
	case "THINKING_TEXT_MESSAGE_END":
		t = Event{Type: ReasoningMessageEnd, MessageID: x.thinking.msg}
	default:
		return ev, false
	}
	if x.warnedRetired == nil {
		x.warnedRetired = map[string]bool{}
	}
	if !x.warnedRetired[ev.Type] {
		x.warnedRetired[ev.Type] = true
		ps.warnf(RuleCompat, "retired event %s translated to %s", ev.Type, t.Type)
	}
	t.Raw, t.Synthetic, t.Timestamp, t.has = ev.Raw, true, ev.Timestamp, t.has|hasMessageID|(ev.has&hasTimestamp)
	return t, true
}

func (f field) is(g field) bool { return f&g != 0 }
