package trace_test

import (
	"strings"
	"testing"
	"time"

	"github.com/ananke/action/internal/trace"
)

// frames is an SSE body of these event data lines.
func frames(events ...string) string {
	var b strings.Builder
	for _, e := range events {
		b.WriteString("data: " + e + "\n\n")
	}
	return b.String()
}

// ms is a time at Unix millisecond n.
func ms(n int64) time.Time { return time.UnixMilli(n) }

// TestRecorderEvents: events are numbered across runs, a frame index of
// the current run maps to its number, and a run's first event is timed.
func TestRecorderEvents(t *testing.T) {
	rec := trace.NewRecorder()
	rec.StartTurn(0, "user", "hi", ms(1000))
	rec.StartRun("r1", ms(1000))
	if s := rec.Event("A", 7, []byte(`{"a":1}`), ms(1010)); s != 1 {
		t.Errorf("first event = #%d; want #1", s)
	}
	rec.EndRun(1, []byte(`{}`), ms(1020))
	rec.StartRun("r2", ms(1030))
	buf := []byte(`{"b":2}`)
	rec.Event("B", 0, buf, ms(1040))
	copy(buf, `{"b":3}`) // the caller's buffer, reused
	if rec.LastSeq() != 2 || rec.Seq(1) != 2 || rec.Seq(0) != 0 {
		t.Errorf("LastSeq = %d, Seq(1) = %d, Seq(0) = %d; want 2, 2, 0", rec.LastSeq(), rec.Seq(1), rec.Seq(0))
	}
	rec.EndRun(1, nil, ms(1050))
	turn := rec.EndTurn(ms(1060), nil)
	if len(turn.Events) != 2 || string(turn.Events[1].Raw) != `{"b":2}` || turn.Events[1].Run != 1 || turn.Events[0].Timestamp != 7 {
		t.Errorf("events = %+v", turn.Events)
	}
	if r := turn.Runs[1]; r.FirstSeq != 2 || r.FirstEventMs != 1040 || r.EndMs != 1050 || r.Frames != 1 {
		t.Errorf("second run = %+v", r)
	}
}

// TestRecorderStreamedCalls: a call streamed in parts is one call; a
// second start is ignored, its arguments are joined at the turn's end, its
// end and result time it, and an answer from Ananke marks it a client
// call.
func TestRecorderStreamedCalls(t *testing.T) {
	rec := trace.NewRecorder()
	rec.StartTurn(2, "user", "hi", ms(1000))
	rec.StartRun("r1", ms(1000))
	rec.StartCall("a", "search", ms(1010), 1)
	rec.StartCall("a", "other", ms(1011), 2)
	rec.CallArgs("a", `{"q":`)
	rec.CallArgs("a", `"x"}`)
	rec.CallArgs("nope", "ignored")
	rec.EndCall("a", ms(1020), 3)
	rec.EndCall("a", ms(1021), 4)
	rec.CallResult("a", &trace.Result{Content: "found"}, ms(1030), 5)
	rec.StartCall("b", "open", ms(1040), 6)
	rec.StartCall("c", "confirm", ms(1050), 7)
	rec.EndCall("c", ms(1060), 8)
	rec.ClientResult("c", `{"ok":true}`, ms(1070))
	turn := rec.EndTurn(ms(1080), nil)
	if len(turn.ToolCalls) != 3 {
		t.Fatalf("calls = %+v", turn.ToolCalls)
	}
	a, b, c := turn.ToolCalls[0], turn.ToolCalls[1], turn.ToolCalls[2]
	if a.Name != "search" || a.Turn != 2 || a.Args != `{"q":"x"}` || !a.ArgsJSON || a.StartSeq != 1 || a.EndSeq != 3 || a.EndedMs != 1020 ||
		a.ResultSeq != 5 || a.TimestampMs != 1030 || a.Result.Content != "found" {
		t.Errorf("call a = %+v", a)
	}
	if b.TimestampMs != b.StartedMs || b.EndedMs != 0 || b.Result != nil {
		t.Errorf("unfinished call b = %+v; want it timed at its start", b)
	}
	if !c.Client || c.Result.Content != `{"ok":true}` || !c.Result.JSON || c.TimestampMs != 1070 || c.EndedMs != 1060 {
		t.Errorf("client call c = %+v", c)
	}
}

// TestRecorderWholeTexts: a text given whole replaces the message's text
// so far, and a message id reused in a later turn keeps only what the turn
// added; the first text arrived is the turn's first.
func TestRecorderWholeTexts(t *testing.T) {
	rec := trace.NewRecorder()
	for i, whole := range []string{"Hi", "Hi there"} {
		rec.StartTurn(i, "user", "hello", ms(1000))
		rec.StartRun("r", ms(1000))
		rec.StartText("m1")
		rec.TextArrived("m1", ms(1010+int64(i)), 1)
		rec.TextArrived("m1", ms(1020), 2)
		rec.TextArrived("other", ms(1005), 3)
		rec.SetText("m1", whole)
		rec.SetText("unstarted", "never")
		if !rec.TextStarted("m1") || rec.TextStarted("unstarted") {
			t.Errorf("turn %d: TextStarted(m1) = false or TextStarted(unstarted) = true", i)
		}
		rec.EndRun(1, nil, ms(1030))
		turn := rec.EndTurn(ms(1040), nil)
		want := []string{"Hi", " there"}[i]
		if turn.Text() != want || turn.FirstTextMs != 1010+int64(i) || turn.FirstTextSeq != 1 {
			t.Errorf("turn %d: text %q, first text at %d (#%d); want %q at %d (#1)", i, turn.Text(), turn.FirstTextMs, turn.FirstTextSeq, want, 1010+i)
		}
	}
}
