package claude

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/trace"
)

// item is a line read for what it says.
type item struct {
	*line
	e    entry
	m    message
	bs   []block
	kind int    // a user line's: kindPrompt, kindCommand or kindOther
	text string // a prompt's text
}

// builder makes the trace out of the lines, in order.
type builder struct {
	display string
	strict  bool
	// alone is set for a subagent's transcript read alone: its sidechain
	// lines are the conversation, and agent the subagent.
	alone bool
	agent string
	tr    trace.Trace
	seq   int64
	// lastMs is the last event's time; session the first session id seen.
	lastMs  int64
	session string
	// calls finds a tool call by its id, in any turn; spawnedBy maps a
	// subagent to the id of the call that started it.
	calls     map[string]callRef
	spawnedBy map[string]string

	// The current turn (cur is -1 before the first line).
	cur      int
	prompted bool   // it has its prompt: lines before the first prompt join the first turn
	runID    string // its prompt's session id
	answered bool   // an assistant line arrived; firstMs is when
	firstMs  int64
	msgs     []*apiMessage // its assistant messages, in the order they started
	byID     map[string]*apiMessage

	// What the model calls used (usage.go): each turn's API messages and
	// result lines; each message by its id, in any turn; the turns with
	// messages since the last result line.
	spend     []*turnSpend
	byMessage map[string]*apiUsage
	span      map[int]bool
}

// apiMessage is an assistant message merged from the lines that share its id.
type apiMessage struct {
	texts   []string
	hasText bool
	// thinking are its thinking blocks' texts: the turn's reasoning.
	thinking []string
}

type callRef struct{ turn, i int }

func newBuilder(display string, strict bool) *builder {
	return &builder{display: display, strict: strict, cur: -1, calls: map[string]callRef{}, spawnedBy: map[string]string{},
		byMessage: map[string]*apiUsage{}, span: map[int]bool{}}
}

// read reads each line for what it says: a line that is not what its type
// promises is an error when strict, else left out with a notice. A slash
// command is a prompt when the agent answered it.
func (b *builder) read(lines []line) ([]item, error) {
	items := make([]item, len(lines))
	for i := range lines {
		it := &items[i]
		it.line = &lines[i]
		if it.bad != "" || (it.typ != "user" && it.typ != "assistant") {
			continue
		}
		bad := ""
		if err := json.Unmarshal(it.raw, &it.e); err != nil {
			bad = fmt.Sprintf("%s line: %v", it.typ, err)
		} else if !isNull(it.e.Message) {
			if err := json.Unmarshal(it.e.Message, &it.m); err != nil {
				bad = fmt.Sprintf("%s message: %v", it.typ, err)
			}
		}
		if bad == "" {
			var err error
			if it.bs, err = blocks(it.m.Content); err != nil {
				bad = fmt.Sprintf("%s message: %v", it.typ, err)
			}
		}
		if bad != "" {
			if b.strict {
				return nil, fmt.Errorf("%s: %s", it.where(), bad)
			}
			it.bad, it.raw = bad, nil
			continue
		}
		if it.typ == "user" {
			it.kind, it.text = classify(&it.e, it.bs, b.alone)
			if agent := it.e.spawned(); agent != "" && !it.e.IsSidechain {
				for _, bk := range it.bs {
					if bk.Type == "tool_result" && bk.ToolUseID != "" {
						b.spawnedBy[agent] = bk.ToolUseID
					}
				}
			}
		}
	}
	// Backwards: a command is a prompt when the agent answered before the
	// next prompt or command.
	answered := false
	for i := len(items) - 1; i >= 0; i-- {
		it := &items[i]
		switch {
		case it.bad != "":
		case it.typ == "assistant" && b.conversation(it) && (!it.m.synthetic() || it.e.IsAPIErrorMessage):
			answered = true
		case it.kind == kindCommand:
			if answered {
				it.kind = kindPrompt
			}
			answered = false
		case it.kind == kindPrompt:
			answered = false
		}
	}
	return items, nil
}

// conversation reports whether the line is the conversation's: not a
// subagent's, unless the transcript is a subagent's.
func (b *builder) conversation(it *item) bool { return b.alone || !it.e.IsSidechain }

// add makes it the next event and applies it.
func (b *builder) add(it *item) {
	if it.bad != "" {
		b.tr.Notices = append(b.tr.Notices, trace.Notice{Turn: max(b.cur, 0),
			Message: fmt.Sprintf("%s: %s; the line is left out", it.where(), it.bad)})
		return
	}
	if b.session == "" {
		b.session = it.session
	}
	if it.typ == "user" && it.kind == kindPrompt {
		b.startTurn(it.line, it.text)
	}
	if b.cur < 0 {
		b.openTurn()
	}
	b.seq++
	t := &b.tr.Turns[b.cur]
	t.Events = append(t.Events, trace.Event{Seq: b.seq, ReceivedMs: it.ms, Type: it.typ,
		Raw: json.RawMessage(it.raw), Origin: it.where()})
	b.lastMs = it.ms
	switch {
	case it.typ == "user":
		b.results(it.bs, it.ms)
	case it.typ == "assistant" && !b.conversation(it):
		b.subagentCalls(it, it.ms)
		b.countUsage(b.subagentTurn(it), it)
	case it.typ == "assistant":
		b.assistant(&it.e, it.m.ID, it.bs, it.ms)
		b.countUsage(b.cur, it)
	case it.typ == "result":
		b.result(it)
	}
}

// startTurn opens the turn that l's prompt starts (or gives the first turn,
// opened by the lines before it, its prompt).
func (b *builder) startTurn(l *line, text string) {
	if b.cur < 0 || b.prompted {
		if b.cur >= 0 {
			b.closeTurn()
		}
		b.openTurn()
	}
	t := &b.tr.Turns[b.cur]
	t.UserText, t.UserSeq, t.StartMs = text, b.seq+1, l.ms // l is the next event
	b.prompted, b.runID = true, l.session
}

func (b *builder) openTurn() {
	b.tr.Turns = append(b.tr.Turns, trace.Turn{Index: len(b.tr.Turns), Kind: "user",
		ToolCalls: []trace.ToolCall{}, Texts: []string{}, Events: []trace.Event{}})
	b.cur = len(b.tr.Turns) - 1
	b.prompted, b.runID, b.answered, b.firstMs = false, "", false, 0
	b.msgs, b.byID = nil, map[string]*apiMessage{}
}

// closeTurn gives the current turn (which has an event) its texts and run.
func (b *builder) closeTurn() {
	t := &b.tr.Turns[b.cur]
	for _, m := range b.msgs {
		if m.hasText {
			t.Texts = append(t.Texts, strings.Join(m.texts, ""))
		}
		t.Reasoning = append(t.Reasoning, m.thinking...)
	}
	t.EndMs = t.Events[len(t.Events)-1].ReceivedMs
	runID := b.runID
	if runID == "" {
		runID = b.session
	}
	t.Runs = []trace.Run{{RunID: runID, StartMs: t.StartMs, EndMs: t.EndMs, FirstSeq: t.Events[0].Seq,
		Frames: len(t.Events), FirstEventMs: b.firstMs}}
}

// results completes the tool calls whose results a user line carries.
func (b *builder) results(bs []block, ms int64) {
	for i := range bs {
		if bs[i].Type != "tool_result" || bs[i].ToolUseID == "" {
			continue
		}
		ref, ok := b.calls[bs[i].ToolUseID]
		if !ok {
			continue // a result for a call this transcript does not have
		}
		tc := &b.tr.Turns[ref.turn].ToolCalls[ref.i]
		tc.Result = resultOf(&bs[i])
		tc.ResultSeq, tc.TimestampMs = b.seq, ms
	}
}

// assistant applies an assistant line of the conversation: part of the
// message id, or an API error.
func (b *builder) assistant(e *entry, id string, bs []block, ms int64) {
	t := &b.tr.Turns[b.cur]
	if !b.answered {
		b.answered, b.firstMs = true, ms
	}
	if e.IsAPIErrorMessage {
		msg, _ := texts(bs, "\n")
		if msg == "" {
			msg = "API error"
		}
		var code string
		_ = json.Unmarshal(e.Error, &code) // a string, when there is one
		t.RunErrors = append(t.RunErrors, trace.RunError{Message: msg, Code: code, Seq: b.seq})
		return
	}
	m := b.byID[id]
	if m == nil {
		m = &apiMessage{}
		b.msgs = append(b.msgs, m)
		if id != "" {
			b.byID[id] = m
		}
	}
	for i := range bs {
		switch bk := &bs[i]; bk.Type {
		case "text":
			m.texts, m.hasText = append(m.texts, bk.Text), true
			if bk.Text != "" && t.FirstTextSeq == 0 {
				t.FirstTextMs, t.FirstTextSeq = ms, b.seq
			}
		case "thinking":
			if bk.Text != "" { // a redacted block holds only its signature
				m.thinking = append(m.thinking, bk.Text)
			}
		case "tool_use":
			b.call(b.cur, bk, ms, b.agent)
		}
	}
}

// subagentCalls adds the tool calls of a subagent's assistant line of a
// session, attributed to the subagent, in the turn whose call started it
// (else the current turn). Its texts are its reply to the main agent,
// which the main agent's tool result holds, not the conversation's.
func (b *builder) subagentCalls(it *item, ms int64) {
	agent, turn := subagentName(it), b.subagentTurn(it)
	for i := range it.bs {
		if bk := &it.bs[i]; bk.Type == "tool_use" {
			b.call(turn, bk, ms, agent)
		}
	}
}

// subagentName is the subagent whose line it is.
func subagentName(it *item) string {
	if it.agent == "" {
		return "subagent" // a sidechain line of an older transcript names none
	}
	return it.agent
}

// subagentTurn is the turn a subagent's line belongs to: the turn whose
// call started the subagent, else the current turn.
func (b *builder) subagentTurn(it *item) int {
	if ref, ok := b.calls[b.spawnedBy[subagentName(it)]]; ok {
		return ref.turn
	}
	return b.cur
}

// call adds a tool_use block as a call of turn (once: a resumed session
// writes a call again).
func (b *builder) call(turn int, bk *block, ms int64, agent string) {
	if _, seen := b.calls[bk.ID]; seen && bk.ID != "" {
		return
	}
	t := &b.tr.Turns[turn]
	args := compactArgs(bk.Input)
	t.ToolCalls = append(t.ToolCalls, trace.ToolCall{ID: bk.ID, Name: bk.Name, Turn: t.Index, Agent: agent,
		Args: args, ArgsJSON: json.Valid([]byte(args)), StartedMs: ms, EndedMs: ms, TimestampMs: ms,
		StartSeq: b.seq, EndSeq: b.seq})
	if bk.ID != "" {
		b.calls[bk.ID] = callRef{turn: turn, i: len(t.ToolCalls) - 1}
	}
}

// finish closes the last turn and returns the trace.
func (b *builder) finish() (*trace.Trace, error) {
	if !b.prompted {
		return nil, fmt.Errorf("no user prompt in %s", b.display)
	}
	b.closeTurn()
	for i := range b.tr.Turns {
		b.tr.Turns[i].Usage = b.usage(i)
	}
	b.tr.TestStartMs, b.tr.TestEndMs = b.tr.Turns[0].StartMs, b.lastMs
	b.tr.Source = &trace.Source{Adapter: Adapter, Version: Version, Mode: "import",
		Capabilities: []string{capability.ToolTrace, capability.Reasoning, capability.Replay}, Path: b.display, SessionID: b.session, AgentID: b.agent}
	return &b.tr, nil
}
