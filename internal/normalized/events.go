package normalized

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/ananke/action/internal/trace"
)

// Ranks order events of one trace sequence number: a call before what it
// did, its result after. Among the events placed by time (timed), they
// order those of one millisecond, and a model call comes after the tool
// events of its millisecond: the agent asks its model once it has what
// it just received.
const (
	rankCall = iota + 1
	rankEffect
	rankResult
	rankError
	rankModel
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
// happened, by trace sequence number. What has no trace event — a call
// only Ananke's tool doubles saw or only the agent's spans showed, with
// its result, and the model calls through its gateway — is placed among
// the rest by time (byTime).
func (b *builder) turn(t *trace.Turn) []*item {
	var its, timed []*item
	for i := range t.ToolCalls {
		c := &t.ToolCalls[i]
		add := func(it *item) { its = append(its, it) }
		if c.StartSeq == 0 && (c.Served != nil || c.Source != "") { // the agent streamed no such call
			add = func(it *item) { timed = append(timed, it) }
		}
		call := &item{ev: Event{Type: TypeToolCall, Actor: ActorAgent,
			Data: ToolCallData{CallID: c.ID, Name: c.Name, Args: args(c), Client: c.Client, Served: c.Served, Source: c.Source, Ref: b.ref(c.StartSeq)}},
			key: c.StartSeq, rank: rankCall, ms: c.StartedMs, agent: c.Agent}
		b.calls[c.ID] = call
		add(call)
		if c.Result == nil {
			continue
		}
		at := c.ResultSeq
		if at == 0 { // a client call's result, answered by Ananke
			at = max(c.EndSeq, c.StartSeq)
		}
		r := c.Result
		add(&item{ev: Event{Type: TypeToolResult, Actor: ActorTool,
			Data: ToolResultData{CallID: c.ID, Content: r.Content, Success: r.Error == "", Error: r.Error, Ref: b.ref(c.ResultSeq)}},
			key: at, rank: rankResult, ms: c.TimestampMs, parent: call, agent: c.Agent})
		if r.Error != "" {
			add(&item{ev: Event{Type: TypeError, Actor: ActorTool,
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
	for i := range t.ModelCalls {
		m := &t.ModelCalls[i]
		timed = append(timed, &item{ev: Event{Type: TypeModelCall, Actor: ActorAgent, Data: modelCall(t.Index, m)},
			rank: rankModel, ms: m.StartedMs})
	}
	for _, it := range its {
		if it.ms == 0 {
			it.ms = b.raw.at(it.key, t.StartMs)
		}
	}
	for _, it := range timed {
		if it.ms == 0 {
			it.ms = t.StartMs
		}
	}
	slices.SortStableFunc(its, func(x, y *item) int {
		return cmp.Or(cmp.Compare(x.key, y.key), cmp.Compare(x.rank, y.rank))
	})
	slices.SortStableFunc(timed, func(x, y *item) int {
		return cmp.Or(cmp.Compare(x.ms, y.ms), cmp.Compare(x.rank, y.rank))
	})
	its = byTime(its, timed)
	if hasUser(t) {
		msg := &item{ev: Event{Type: TypeMessageReceived, Actor: ActorUser,
			Data: MessageReceivedData{Text: t.UserText, Turn: t.Index, Attachments: t.Attachments, Ref: b.ref(t.UserSeq)}}, ms: t.StartMs}
		its = append([]*item{msg}, its...)
	}
	return its
}

// byTime places the timed items, in their order, among the others: each
// before the first that happened after it, so after those of its
// millisecond.
func byTime(its, timed []*item) []*item {
	if len(timed) == 0 {
		return its
	}
	out := make([]*item, 0, len(its)+len(timed))
	j := 0
	for _, it := range its {
		for ; j < len(timed) && timed[j].ms < it.ms; j++ {
			out = append(out, timed[j])
		}
		out = append(out, it)
	}
	return append(out, timed[j:]...)
}

// modelCall is a model call's data in turn.
func modelCall(turn int, m *trace.ModelCall) ModelCallData {
	d := ModelCallData{Turn: turn, Model: m.Model, ResponseModel: m.ResponseModel, Stream: m.Stream, Messages: m.Messages, Tools: m.Tools,
		Mode: m.Mode, Status: m.Status, Fault: m.Fault, Error: m.Error, Note: m.Note, FinishReason: m.FinishReason, ToolCalls: m.ToolCalls,
		DurationMs: max(m.EndedMs-m.StartedMs, 0)}
	if d.ResponseModel == d.Model {
		d.ResponseModel = ""
	}
	if m.Usage != nil && !m.Usage.Tokens.Empty() {
		tok := m.Usage.Tokens
		d.Usage = &tok
	}
	return d
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
