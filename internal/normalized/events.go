package normalized

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/ananke/action/internal/trace"
)

// Ranks order events of one trace sequence number: a call before what it
// did, its result after.
const (
	rankCall = iota + 1
	rankEffect
	rankResult
	rankError
)

// item is an event before it is numbered: key and rank order it in its
// turn, ms is its time, parent the event it answers.
type item struct {
	ev     Event
	key    int64
	rank   int
	ms     int64
	parent *item
	// agent is the subagent that acted, when it was not the trace's agent.
	agent string
}

// ids are the runtime context every event carries.
type ids struct{ group, session, task, agent string }

func runtimeContext(s *trace.Source, agentID string) ids {
	if s == nil {
		return ids{agent: agentID}
	}
	c := ids{group: s.GroupID, session: s.SessionID, task: s.TaskID, agent: s.AgentID}
	if c.task == "" && s.Scheduler != nil {
		c.task = s.Scheduler.TaskID
	}
	if c.agent == "" {
		c.agent = agentID
	}
	return c
}

type builder struct {
	ctx ids
	raw *rawEvents
	// calls maps a call id to its tool_call, the latest turn's winning.
	calls map[string]*item
}

// turn returns a turn's events in order: its user message, then what
// happened, by trace sequence number.
func (b *builder) turn(t *trace.Turn) []*item {
	var its []*item
	for i := range t.ToolCalls {
		c := &t.ToolCalls[i]
		call := &item{ev: Event{Type: TypeToolCall, Actor: ActorAgent,
			Data: ToolCallData{CallID: c.ID, Name: c.Name, Args: args(c), Client: c.Client, Ref: b.ref(c.StartSeq)}},
			key: c.StartSeq, rank: rankCall, ms: c.StartedMs, agent: c.Agent}
		b.calls[c.ID] = call
		its = append(its, call)
		if c.Result == nil {
			continue
		}
		at := c.ResultSeq
		if at == 0 { // a client call's result, answered by Ananke
			at = max(c.EndSeq, c.StartSeq)
		}
		r := c.Result
		its = append(its, &item{ev: Event{Type: TypeToolResult, Actor: ActorTool,
			Data: ToolResultData{CallID: c.ID, Content: r.Content, Success: r.Error == "", Error: r.Error, Ref: b.ref(c.ResultSeq)}},
			key: at, rank: rankResult, ms: c.TimestampMs, parent: call, agent: c.Agent})
		if r.Error != "" {
			its = append(its, &item{ev: Event{Type: TypeError, Actor: ActorTool,
				Data: ErrorData{Message: r.Error, CallID: c.ID, Ref: b.ref(c.ResultSeq)}},
				key: at, rank: rankError, ms: c.TimestampMs, parent: call, agent: c.Agent})
		}
	}
	for _, m := range t.Memory {
		typ := TypeMemoryRead
		if m.Op == trace.MemoryWrite {
			typ = TypeMemoryWrite
		}
		its = append(its, &item{ev: Event{Type: typ, Actor: actorOf(m.CallID),
			Data: MemoryData{Group: m.Group, Path: m.Path, Content: m.Content, CallID: m.CallID, Ref: b.ref(m.Seq)}},
			key: m.Seq, rank: rankEffect, ms: m.TimestampMs, parent: b.calls[m.CallID]})
	}
	for _, o := range t.Outbound {
		its = append(its, &item{ev: Event{Type: TypeMessageSent, Actor: actorOf(o.CallID),
			Data: MessageSentData{To: o.To, Text: o.Text, CallID: o.CallID, Ref: b.ref(o.Seq)}},
			key: o.Seq, rank: rankEffect, ms: o.TimestampMs, parent: b.calls[o.CallID]})
	}
	for _, e := range t.RunErrors {
		its = append(its, &item{ev: Event{Type: TypeError, Actor: ActorRuntime,
			Data: ErrorData{Message: e.Message, Code: e.Code, Ref: b.ref(e.Seq)}},
			key: e.Seq, rank: rankError, ms: b.raw.at(e.Seq, t.EndMs)})
	}
	for _, it := range its {
		if it.ms == 0 {
			it.ms = b.raw.at(it.key, t.StartMs)
		}
	}
	slices.SortStableFunc(its, func(x, y *item) int {
		return cmp.Or(cmp.Compare(x.key, y.key), cmp.Compare(x.rank, y.rank))
	})
	if hasUser(t) {
		msg := &item{ev: Event{Type: TypeMessageReceived, Actor: ActorUser,
			Data: MessageReceivedData{Text: t.UserText, Turn: t.Index, Attachments: t.Attachments, Ref: b.ref(t.UserSeq)}}, ms: t.StartMs}
		its = append([]*item{msg}, its...)
	}
	return its
}

// actorOf is who read, wrote or sent something: the agent through a tool
// call, else the runtime by itself.
func actorOf(callID string) string {
	if callID == "" {
		return ActorRuntime
	}
	return ActorAgent
}

// ref points at trace event seq, with its origin when it was imported.
func (b *builder) ref(seq int64) Ref {
	if seq <= 0 {
		return Ref{}
	}
	return Ref{TraceSeq: seq, Origin: b.raw.origin[seq]}
}

// number gives the events their places: seq from 1, event ids, times,
// context and links to their parents.
func (b *builder) number(its []*item) []Event {
	out := make([]Event, len(its))
	for i, it := range its {
		it.ev.Seq = i + 1
		it.ev.EventID = "e" + strconv.Itoa(i+1)
	}
	for i, it := range its {
		e := it.ev
		e.TS = ts(it.ms)
		e.GroupID, e.SessionID, e.TaskID, e.AgentID = b.ctx.group, b.ctx.session, b.ctx.task, cmp.Or(it.agent, b.ctx.agent)
		if it.parent != nil {
			e.ParentEventID = it.parent.ev.EventID
		}
		out[i] = e
	}
	return out
}
