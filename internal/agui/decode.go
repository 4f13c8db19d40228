package agui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// kind is the JSON shape a field must have.
type kind uint8

const (
	kString kind = iota
	kInt
	kObject
	kArray
	kAny        // any JSON, null included
	kAnyNotNull // any JSON but null
	kContent    // a string or a list of content parts
	kBool
)

type fieldSpec struct {
	name     string
	kind     kind
	required bool
}

func req(name string, k kind) fieldSpec { return fieldSpec{name, k, true} }
func opt(name string, k kind) fieldSpec { return fieldSpec{name, k, false} }

// common fields every event may carry. subagentRunId is added per type: it
// is not allowed on run boundaries and MESSAGES_SNAPSHOT.
var common = []fieldSpec{req("type", kString), opt("timestamp", kInt), opt("rawEvent", kAnyNotNull), opt("metadata", kObject)}

var subagent = opt("subagentRunId", kString)

// schemas lists the fields of every 1.0 event type (agui-protocol.md §2).
var schemas = map[string][]fieldSpec{
	RunStarted:              {req("threadId", kString), req("runId", kString), opt("protocolVersion", kString), opt("parentRunId", kString), opt("input", kObject)},
	RunFinished:             {req("threadId", kString), req("runId", kString), opt("result", kAny), opt("outcome", kObject), opt("usage", kArray)},
	RunError:                {req("message", kString), opt("code", kString), opt("usage", kArray)},
	StepStarted:             {req("stepName", kString), subagent},
	StepFinished:            {req("stepName", kString), subagent},
	TextMessageStart:        {req("messageId", kString), opt("role", kString), opt("name", kString), subagent},
	TextMessageContent:      {req("messageId", kString), req("delta", kString), subagent},
	TextMessageEnd:          {req("messageId", kString), subagent},
	TextMessageChunk:        {opt("messageId", kString), opt("role", kString), opt("delta", kString), opt("name", kString), subagent},
	ToolCallStart:           {req("toolCallId", kString), req("toolCallName", kString), opt("parentMessageId", kString), subagent},
	ToolCallArgs:            {req("toolCallId", kString), req("delta", kString), subagent},
	ToolCallEnd:             {req("toolCallId", kString), subagent},
	ToolCallChunk:           {opt("toolCallId", kString), opt("toolCallName", kString), opt("parentMessageId", kString), opt("delta", kString), subagent},
	ToolCallResult:          {req("messageId", kString), req("toolCallId", kString), req("content", kContent), opt("role", kString), subagent},
	StateSnapshot:           {req("snapshot", kAny), subagent},
	StateDelta:              {req("delta", kArray), subagent},
	MessagesSnapshot:        {req("messages", kArray)},
	ActivitySnapshot:        {req("messageId", kString), req("activityType", kString), req("content", kObject), opt("replace", kBool), subagent},
	ActivityDelta:           {req("messageId", kString), req("activityType", kString), req("patch", kArray), subagent},
	Raw:                     {req("event", kAny), opt("source", kString), subagent},
	Custom:                  {req("name", kString), req("value", kAny), subagent},
	ReasoningStart:          {req("messageId", kString), subagent},
	ReasoningMessageStart:   {req("messageId", kString), req("role", kString), subagent},
	ReasoningMessageContent: {req("messageId", kString), req("delta", kString), subagent},
	ReasoningMessageEnd:     {req("messageId", kString), subagent},
	ReasoningMessageChunk:   {opt("messageId", kString), opt("delta", kString), subagent},
	ReasoningEnd:            {req("messageId", kString), subagent},
	ReasoningEncryptedValue: {req("subtype", kString), req("entityId", kString), req("encryptedValue", kString), opt("encryptedValueType", kString), subagent},
	SubagentStarted: {req("subagentRunId", kString), req("name", kString), opt("description", kString),
		opt("parentSubagentRunId", kString), opt("parentToolCallId", kString), opt("parentMessageId", kString)},
	SubagentFinished: {req("subagentRunId", kString), opt("result", kAny), opt("outcome", kObject)},
	SubagentError:    {req("subagentRunId", kString), req("message", kString), opt("code", kString)},
}

// retired lists the 0.x events the 1.0 client still translates.
var retired = map[string][]fieldSpec{
	"THINKING_START":                {opt("title", kString)},
	"THINKING_END":                  {},
	"THINKING_TEXT_MESSAGE_START":   {},
	"THINKING_TEXT_MESSAGE_CONTENT": {req("delta", kString)},
	"THINKING_TEXT_MESSAGE_END":     {},
}

// enums lists the closed string sets; an unknown member is stripped with a
// warning, as the specification asks of a runtime consumer.
var enums = map[string]map[string][]string{
	TextMessageStart:      {"role": {RoleDeveloper, RoleSystem, RoleAssistant, RoleUser}},
	TextMessageChunk:      {"role": {RoleDeveloper, RoleSystem, RoleAssistant, RoleUser}},
	ToolCallResult:        {"role": {RoleTool}},
	ReasoningMessageStart: {"role": {RoleReasoning}},
}

// Known reports whether t is an event type of protocol 1.0.
func Known(t string) bool { _, ok := schemas[t]; return ok }

func isRetired(t string) bool { _, ok := retired[t]; return ok }

// Decode decodes one SSE data payload. Problems of Error severity mean the
// event is malformed and must not be applied; the returned event then still
// carries Type (when readable) and Raw. An unknown type is returned with a
// warning and must be ignored by the caller (see Known).
func Decode(data []byte) (Event, []Problem) {
	var ps problems
	ev := decode(data, &ps, nil)
	return ev, ps.list
}

// decode decodes one event; ids, when set, interns its identifiers and
// names across the events of a stream.
func decode(data []byte, ps *problems, ids *interner) Event {
	ev := Event{Raw: json.RawMessage(data)}
	var buf [16]member
	ms, isObject := []member(nil), false
	if json.Valid(data) {
		ms, isObject = members(data, buf[:0])
	}
	if !isObject {
		if t := bytes.TrimSpace(data); len(t) > 0 && json.Valid(t) {
			ps.errorf(RuleFrame, "the event is not a JSON object: %s", excerpt(data))
		} else {
			var v any
			ps.errorf(RuleFrame, "the event is not valid JSON (%s): %s", jsonErr(json.Unmarshal(data, &v)), excerpt(data))
		}
		return ev
	}
	for _, m := range ms {
		if string(m.key) == "type" && !m.esc {
			ev.Type = typeName(m.val)
		}
	}
	if ev.Type == "" {
		ps.errorf(RuleFrame, "the event carries no event type: %s", excerpt(data))
		return ev
	}
	sc, known := schemaIndex[ev.Type]
	if !known {
		ps.warnf(RuleUnknown, "unknown event type %q ignored", ev.Type)
		return ev
	}
	var seen uint64 // bit i: sc.fields[i] was present
	var unknown []string
	for _, m := range ms {
		i, ok := sc.index[string(m.key)] // no copy for the lookup
		if m.esc {
			i, ok = sc.index[m.keyString()]
		}
		if !ok {
			unknown = append(unknown, m.keyString())
			continue
		}
		seen |= 1 << i
		assign(&ev, sc.fields[i], m.val, ps, ids)
	}
	for i, f := range sc.fields {
		if f.required && seen&(1<<i) == 0 {
			ps.errorf(RuleSchema, "%s is missing required field %q", ev.Type, f.name)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		ps.warnf(RuleUnknown, "%s has unknown fields %s (ignored)", ev.Type, strings.Join(slices.Compact(unknown), ", "))
	}
	return ev
}

// schema is one event type's fields, indexed by name.
type schema struct {
	fields []fieldSpec
	index  map[string]int
}

// schemaIndex holds every known and retired type, common fields included.
var schemaIndex = func() map[string]schema {
	out := map[string]schema{}
	for _, table := range []map[string][]fieldSpec{schemas, retired} {
		for typ, fields := range table {
			sc := schema{fields: slices.Concat(common, fields), index: map[string]int{}}
			for i, f := range sc.fields {
				sc.index[f.name] = i
			}
			out[typ] = sc
		}
	}
	return out
}()

// typeName is an event's type: the schema's own string for a known or
// retired type (no copy per event), a new one for another.
func typeName(raw []byte) string {
	if len(raw) >= 2 && raw[0] == '"' {
		if t, ok := typeNames[string(raw[1:len(raw)-1])]; ok {
			return t
		}
	}
	t, _ := unquote(raw)
	return t
}

// typeNames maps every known and retired type to itself.
var typeNames = func() map[string]string {
	out := make(map[string]string, len(schemaIndex))
	for t := range schemaIndex {
		out[t] = t
	}
	return out
}()

// assign checks one field's shape and stores it in the event.
func assign(ev *Event, f fieldSpec, raw json.RawMessage, ps *problems, ids *interner) {
	null := string(raw) == "null"
	if null && f.kind != kAny {
		switch {
		case f.name == "parentMessageId" || f.name == "outcome":
			ps.warnf(RuleCompat, "%s.%s is null; producers must omit it (treated as absent)", ev.Type, f.name)
		case f.required:
			ps.errorf(RuleSchema, "%s.%s must not be null", ev.Type, f.name)
		default:
			ps.errorf(RuleSchema, "%s.%s is null; an optional field must be omitted, not null", ev.Type, f.name)
		}
		return
	}
	switch f.kind {
	case kString:
		var s string
		var ok bool
		if f.name == "delta" {
			s, ok = unquote(raw) // text: seldom repeated
		} else {
			s, ok = ids.unquote(raw)
		}
		if !ok {
			ps.errorf(RuleSchema, "%s.%s must be a string, got %s", ev.Type, f.name, excerpt(raw))
			return
		}
		if allowed, ok := enums[ev.Type][f.name]; ok && !slices.Contains(allowed, s) {
			ps.warnf(RuleSchema, "%s.%s %q is not one of %s (ignored)", ev.Type, f.name, s, strings.Join(allowed, ", "))
			return
		}
		setString(ev, f.name, s)
	case kInt:
		assignTimestamp(ev, raw, ps)
	case kObject, kArray, kBool, kContent:
		if !shapeOK(f.kind, raw) {
			ps.errorf(RuleSchema, "%s.%s must be %s, got %s", ev.Type, f.name, kindName(f.kind), excerpt(raw))
			return
		}
		setRaw(ev, f.name, raw, ps)
	default: // kAny, kAnyNotNull
		setRaw(ev, f.name, raw, ps)
	}
}

func shapeOK(k kind, raw json.RawMessage) bool {
	switch c := firstByte(raw); k {
	case kObject:
		return c == '{'
	case kArray:
		return c == '['
	case kBool:
		return c == 't' || c == 'f'
	case kContent:
		return c == '"' || c == '['
	}
	return true
}

func kindName(k kind) string {
	return [...]string{"a string", "an integer", "an object", "an array", "any value", "any value", "a string or a list of content parts", "a boolean"}[k]
}

// assignTimestamp accepts an integer; a float is a (strict-mode) warning
// because many producers send seconds with a fraction, another type is an
// error.
func assignTimestamp(ev *Event, raw json.RawMessage, ps *problems) {
	var n json.Number
	if json.Unmarshal(raw, &n) != nil {
		ps.errorf(RuleSchema, "%s.timestamp must be an integer (ms), got %s", ev.Type, excerpt(raw))
		return
	}
	if i, err := n.Int64(); err == nil {
		ev.Timestamp, ev.has = i, ev.has|hasTimestamp
		return
	}
	ps.mustf(RuleSchema, "%s.timestamp %s is not an integer number of milliseconds", ev.Type, n)
}

func setString(ev *Event, name, s string) {
	switch name {
	case "type":
	case "threadId":
		ev.ThreadID = s
	case "runId":
		ev.RunID = s
	case "parentRunId":
		ev.ParentRunID = s
	case "protocolVersion":
		ev.ProtocolVersion = s
	case "messageId", "entityId":
		ev.MessageID, ev.has = s, ev.has|hasMessageID
	case "role":
		ev.Role, ev.has = s, ev.has|hasRole
	case "name", "title":
		ev.Name, ev.has = s, ev.has|hasName
	case "delta":
		ev.Delta, ev.has = s, ev.has|hasDelta
	case "toolCallId":
		ev.ToolCallID, ev.has = s, ev.has|hasToolCallID
	case "toolCallName":
		ev.ToolCallName, ev.has = s, ev.has|hasToolCallName
	case "parentMessageId":
		ev.ParentMessageID, ev.has = s, ev.has|hasParentMessageID
	case "stepName":
		ev.StepName = s
	case "message":
		ev.Message = s
	case "code":
		ev.Code = s
	case "activityType":
		ev.ActivityType = s
	case "subagentRunId":
		ev.SubagentRunID = s
	case "description":
		ev.Description = s
	case "parentSubagentRunId":
		ev.ParentSubagentRunID = s
	case "parentToolCallId":
		ev.ParentToolCallID = s
	}
}

func setRaw(ev *Event, name string, raw json.RawMessage, ps *problems) {
	switch name {
	case "content", "snapshot", "delta", "patch", "messages", "value", "event", "result":
		ev.borrowed = true // kept as a slice of the frame
	}
	switch name {
	case "content":
		ev.Content = raw
	case "snapshot":
		ev.Snapshot = raw
	case "delta", "patch":
		ev.Patch = raw
	case "messages":
		ev.Messages = raw
	case "value", "event":
		ev.Value = raw
	case "result":
		ev.Result = raw
	case "replace":
		var b bool
		_ = json.Unmarshal(raw, &b) // shape checked
		ev.Replace = &b
	case "outcome":
		ev.Outcome = decodeOutcome(ev.Type, raw, ps)
	case "usage":
		ev.Usage, ev.has = decodeUsage(ev.Type, raw, ps), ev.has|hasUsage
	}
}

// decodeOutcome reads RUN_FINISHED's outcome. An unknown outcome type is
// stripped (the run reads as a success); a malformed known one is an error.
func decodeOutcome(typ string, raw json.RawMessage, ps *problems) *Outcome {
	var o Outcome
	if err := json.Unmarshal(raw, &o); err != nil {
		ps.errorf(RuleOutcome, "%s.outcome is malformed: %v", typ, jsonErr(err))
		return nil
	}
	switch o.Type {
	case "success", "cancelled":
	case "interrupt":
		if len(o.Interrupts) == 0 {
			ps.errorf(RuleOutcome, "%s.outcome of type interrupt carries no interrupts", typ)
		}
		seen := map[string]bool{}
		for _, in := range o.Interrupts {
			if seen[in.ID] {
				ps.errorf(RuleOutcome, "%s.outcome carries two interrupts carrying the id '%s'", typ, in.ID)
			}
			seen[in.ID] = true
		}
	case "suspended":
		if typ != SubagentFinished {
			ps.warnf(RuleOutcome, "%s.outcome type %q is unknown (read as success)", typ, o.Type)
			return nil
		}
	default:
		ps.warnf(RuleOutcome, "%s.outcome type %q is unknown (read as success)", typ, o.Type)
		return nil
	}
	return &o
}

func firstByte(raw []byte) byte {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	if len(raw) == 0 {
		return 0
	}
	return raw[0]
}

// excerptLen bounds how much of a bad payload a message quotes.
const excerptLen = 120

func excerpt(b []byte) string {
	s := string(b)
	if len(s) > excerptLen {
		s = s[:excerptLen] + "…"
	}
	return fmt.Sprintf("%q", s)
}

// jsonErr shortens encoding/json's messages.
func jsonErr(err error) string {
	return strings.TrimPrefix(err.Error(), "json: ")
}
