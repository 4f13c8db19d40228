package normalized

import (
	"strings"

	"github.com/ananke/action/internal/agui"
	"github.com/ananke/action/internal/trace"
)

// rawEvents is what Build needs of a trace's raw events: the receive time
// and origin of the events its normalized events come from, and each
// turn's assistant texts.
type rawEvents struct {
	received map[int64]int64
	origin   map[int64]string
	texts    [][]string
	// ran is true when any raw event was received.
	ran bool
}

// at is when event seq was received, or def when unknown.
func (r *rawEvents) at(seq int64, def int64) int64 {
	if ms, ok := r.received[seq]; ok && ms != 0 {
		return ms
	}
	return def
}

// scan reads the raw events of every turn once. An AG-UI turn read back
// from a trace file has no texts (the file holds them as events), so they
// are rebuilt from the text events; other turns keep the texts the file
// recorded. A spooled turn that cannot be read keeps
// what was read before the failure.
func scan(t *trace.Trace) *rawEvents {
	r := &rawEvents{received: map[int64]int64{}, origin: map[int64]string{}, texts: make([][]string, len(t.Turns))}
	want := map[int64]bool{}
	for i := range t.Turns {
		tt := &t.Turns[i]
		want[tt.UserSeq] = true
		for _, c := range tt.ToolCalls {
			want[c.StartSeq], want[c.ResultSeq] = true, true
		}
		for _, m := range tt.Memory {
			want[m.Seq] = true
		}
		for _, o := range tt.Outbound {
			want[o.Seq] = true
		}
		for _, e := range tt.RunErrors {
			want[e.Seq] = true
		}
	}
	delete(want, 0)
	for i := range t.Turns {
		tt := &t.Turns[i]
		r.texts[i] = tt.Texts
		var tb *texts
		if len(tt.Texts) == 0 {
			tb = &texts{byID: map[string]int{}}
		}
		_ = tt.ReadEvents(func(e *trace.Event) error {
			r.ran = true
			if want[e.Seq] {
				r.received[e.Seq] = e.ReceivedMs
				if e.Origin != "" {
					r.origin[e.Seq] = e.Origin
				}
			}
			if tb != nil && strings.HasPrefix(e.Type, "TEXT_MESSAGE_") {
				tb.add(e.Raw)
			}
			return nil
		})
		if tb != nil {
			r.texts[i] = tb.strings()
		}
	}
	return r
}

// Texts is a turn's assistant messages: those it holds or, for an AG-UI
// turn read back from a trace file (which keeps them as events only),
// those its text events make, as scan rebuilds them.
func Texts(tt *trace.Turn) []string {
	if len(tt.Texts) > 0 {
		return tt.Texts
	}
	tb := &texts{byID: map[string]int{}}
	_ = tt.ReadEvents(func(e *trace.Event) error {
		if strings.HasPrefix(e.Type, "TEXT_MESSAGE_") {
			tb.add(e.Raw)
		}
		return nil
	})
	return tb.strings()
}

// texts rebuilds the assistant messages of a turn from its text events,
// in the order they started, as the recorder does: TEXT_MESSAGE_START
// opens one (the assistant's, unless another role is given),
// TEXT_MESSAGE_CONTENT appends to it, and TEXT_MESSAGE_CHUNK does both,
// continuing the open chunk message when it names none.
type texts struct {
	out  []*strings.Builder
	byID map[string]int // assistant message id → index in out
	open string         // the message the last chunk added to
}

func (x *texts) add(raw []byte) {
	ev, _ := agui.Decode(raw) // problems were reported when the run was judged
	switch ev.Type {
	case agui.TextMessageStart:
		x.start(ev.MessageID, ev.Role)
	case agui.TextMessageContent:
		x.append(ev.MessageID, ev.Delta)
	case agui.TextMessageChunk:
		id := ev.MessageID
		if id == "" {
			id = x.open
		} else if _, ok := x.byID[id]; !ok {
			x.start(id, ev.Role)
		}
		x.open = id
		x.append(id, ev.Delta)
	}
}

func (x *texts) start(id, role string) {
	if role != "" && role != agui.RoleAssistant {
		return
	}
	if _, ok := x.byID[id]; !ok {
		x.byID[id] = len(x.out)
		x.out = append(x.out, new(strings.Builder))
	}
}

func (x *texts) append(id, delta string) {
	if i, ok := x.byID[id]; ok {
		x.out[i].WriteString(delta)
	}
}

func (x *texts) strings() []string {
	out := make([]string, len(x.out))
	for i, b := range x.out {
		out[i] = b.String()
	}
	return out
}

// joinTexts is a turn's text: its messages joined by "\n", as
// trace.Turn.Text.
func joinTexts(ts []string) string { return strings.Join(ts, "\n") }
