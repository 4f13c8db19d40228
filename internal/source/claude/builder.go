package claude

import (
	"encoding/json"
	"fmt"
	"github.com/ananke/action/internal/capability"
	"strings"

	"github.com/ananke/action/internal/trace"
)

// interrupted starts the text of the user lines Claude Code writes when the
// user interrupts a request; they are not prompts.
const interrupted = "[Request interrupted by user"

// builder makes the trace out of the lines, in order.
type builder struct {
	display string
	tr      trace.Trace
	seq     int64
	lastMs  int64
	session string // the first session id seen
	// calls finds a tool call by its id, in any turn.
	calls map[string]callRef

	// The current turn (cur is -1 before the first line).
	cur      int
	prompted bool   // it has its prompt: lines before the first prompt join the first turn
	runID    string // its prompt's session id
	answered bool   // an assistant line arrived; firstMs is when
	firstMs  int64
	msgs     []*apiMessage // its assistant messages, in the order they started
	byID     map[string]*apiMessage
}

// apiMessage is an assistant message merged from the lines that share its id.
type apiMessage struct {
	texts   []string
	hasText bool
}

type callRef struct{ turn, i int }

func newBuilder(display string) *builder {
	return &builder{display: display, cur: -1, calls: map[string]callRef{}}
}

func (b *builder) errorf(l *line, format string, args ...any) error {
	return fmt.Errorf("%s:%d: "+format, append([]any{b.display, l.n}, args...)...)
}

// add makes l the next event and applies it.
func (b *builder) add(l *line) error {
	if b.session == "" {
		b.session = l.session
	}
	var e entry
	var m message
	var bs []block
	if l.typ == "user" || l.typ == "assistant" {
		if err := json.Unmarshal(l.raw, &e); err != nil {
			return b.errorf(l, "%s line: %w", l.typ, err)
		}
		if !isNull(e.Message) {
			if err := json.Unmarshal(e.Message, &m); err != nil {
				return b.errorf(l, "%s message: %w", l.typ, err)
			}
		}
		var err error
		if bs, err = blocks(m.Content); err != nil {
			return b.errorf(l, "%s message: %w", l.typ, err)
		}
	}
	if l.typ == "user" && !e.IsSidechain && !e.IsMeta && !e.IsCompactSummary {
		if text, ok := promptOf(bs); ok {
			b.startTurn(l, text)
		}
	}
	if b.cur < 0 {
		b.openTurn()
	}
	b.seq++
	t := &b.tr.Turns[b.cur]
	t.Events = append(t.Events, trace.Event{Seq: b.seq, ReceivedMs: l.ms, Type: l.typ,
		Raw: json.RawMessage(l.raw), Origin: fmt.Sprintf("%s:%d", b.display, l.n)})
	b.lastMs = l.ms
	if e.IsSidechain {
		return nil // a subagent's line
	}
	switch l.typ {
	case "user":
		b.results(bs, l.ms)
	case "assistant":
		b.assistant(&e, m.ID, bs, l.ms)
	}
	return nil
}

// promptOf is the text of a user message that is a prompt: text or images,
// and no tool results.
func promptOf(bs []block) (string, bool) {
	prompt := false
	for i := range bs {
		switch bs[i].Type {
		case "tool_result":
			return "", false
		case "text", "image":
			prompt = true
		}
	}
	if !prompt {
		return "", false
	}
	text, _ := texts(bs, "\n")
	if strings.HasPrefix(strings.TrimSpace(text), interrupted) {
		return "", false
	}
	return text, true
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

// assistant applies an assistant line: part of the message id, or an API
// error.
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
		case "tool_use":
			if _, seen := b.calls[bk.ID]; seen && bk.ID != "" {
				continue // written again, e.g. by a resumed session
			}
			args := compactArgs(bk.Input)
			t.ToolCalls = append(t.ToolCalls, trace.ToolCall{ID: bk.ID, Name: bk.Name, Turn: t.Index,
				Args: args, ArgsJSON: json.Valid([]byte(args)), StartedMs: ms, EndedMs: ms, TimestampMs: ms,
				StartSeq: b.seq, EndSeq: b.seq})
			if bk.ID != "" {
				b.calls[bk.ID] = callRef{turn: b.cur, i: len(t.ToolCalls) - 1}
			}
		}
	}
}

// finish closes the last turn and returns the trace.
func (b *builder) finish() (*trace.Trace, error) {
	if !b.prompted {
		return nil, fmt.Errorf("no user prompt in %s", b.display)
	}
	b.closeTurn()
	b.tr.TestStartMs, b.tr.TestEndMs = b.tr.Turns[0].StartMs, b.lastMs
	b.tr.Source = &trace.Source{Adapter: Adapter, Version: Version, Mode: "import",
		Capabilities: []string{capability.ToolTrace, capability.Replay}, Path: b.display, SessionID: b.session}
	return &b.tr, nil
}
