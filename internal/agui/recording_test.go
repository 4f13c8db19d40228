package agui_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ananke/action/internal/agui"
	"github.com/ananke/action/internal/trace"
)

// record replays an SSE body through the real client into a Recording
// whose recorder's clock advances 10 ms per reading.
func record(t *testing.T, body string) (*trace.Turn, *trace.Recorder) {
	t.Helper()
	clock := time.UnixMilli(1_000_000)
	now := func() time.Time { clock = clock.Add(10 * time.Millisecond); return clock }
	rec := trace.NewRecorder()
	rec.StartTurn(0, "user", "hi", now())
	rec.StartRun("r1", now())
	w := agui.NewRecording(rec)
	c := &agui.Client{Now: now}
	res, err := c.ReadStream(context.Background(), strings.NewReader(body), agui.RunAgentInput{ThreadID: "t1", RunID: "r1"}, w.Observe)
	if err != nil {
		t.Fatal(err)
	}
	w.EndRun(res.Frames, []byte(`{"runId":"r1"}`), res.Streamed, now())
	if len(res.Pending) > 0 && !res.Failed() { // as the engine: only a clean run is followed up
		rec.ClientResult(res.Pending[0].ID, "yes", now())
	}
	return rec.EndTurn(now(), res.State), rec
}

func frames(events ...string) string {
	var b strings.Builder
	for _, e := range events {
		b.WriteString("data: " + e + "\n\n")
	}
	return b.String()
}

func TestRecorder(t *testing.T) {
	turn, rec := record(t, frames(
		`{"type":"RUN_STARTED","threadId":"t1","runId":"r1","timestamp":42}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"sys","role":"developer"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"sys","delta":"not the assistant"}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"sys"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"a","toolCallName":"search"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"a","delta":"{\"q\":"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"a","delta":"\"x\"}"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"a"}`,
		`{"type":"TOOL_CALL_RESULT","messageId":"ra","toolCallId":"a","content":[{"type":"text","text":"parts"}]}`,
		`{"type":"TOOL_CALL_START","toolCallId":"b","toolCallName":"broken"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"b","delta":"{not json"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"b"}`,
		`{"type":"TOOL_CALL_RESULT","messageId":"rb","toolCallId":"b","content":"plain text"}`,
		`{"type":"TEXT_MESSAGE_CHUNK","messageId":"m1","delta":"Hello"}`,
		`{"type":"TEXT_MESSAGE_CHUNK","delta":" world"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"confirm"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"m2"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m2","delta":"Second"}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"m2"}`,
		`{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}`,
	))
	if got := turn.Text(); got != "Hello world\nSecond" {
		t.Errorf("text = %q; want the assistant messages joined by newline", got)
	}
	if n := len(turn.Events); n != 21 || turn.Events[0].Seq != 1 || turn.Events[20].Seq != 21 || turn.Events[0].Timestamp != 42 || turn.Events[0].Type != "RUN_STARTED" {
		t.Errorf("events = %d, first %+v", n, turn.Events[0])
	}
	calls := turn.ToolCalls
	if len(calls) != 3 {
		t.Fatalf("calls = %+v", calls)
	}
	a, b, c := calls[0], calls[1], calls[2]
	if a.Args != `{"q":"x"}` || !a.ArgsJSON || a.Result.Content != `[{"type":"text","text":"parts"}]` || !a.Result.JSON {
		t.Errorf("call a = %+v %+v", a, a.Result)
	}
	if a.StartSeq != 5 || a.EndSeq != 8 || a.ResultSeq != 9 || a.TimestampMs != turn.Events[8].ReceivedMs || a.EndedMs != turn.Events[7].ReceivedMs {
		t.Errorf("call a timing = %+v", a)
	}
	if b.Args != "{not json" || b.ArgsJSON || b.Result.Content != "plain text" || b.Result.JSON {
		t.Errorf("call b = %+v", b)
	}
	if !c.Client || c.Result.Content != "yes" || c.TimestampMs <= c.EndedMs {
		t.Errorf("client call c = %+v", c)
	}
	if len(turn.Runs) != 1 || string(turn.Runs[0].Request) != `{"runId":"r1"}` || turn.Runs[0].Frames != 21 || rec.Seq(5) != 5 {
		t.Errorf("runs = %+v", turn.Runs)
	}
}

// TestRecorderTruncated: a call that never ended counts at its start, and
// chunk streams closed by the end of the stream still reach the trace.
func TestRecorderTruncated(t *testing.T) {
	turn, _ := record(t, frames(
		`{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"a","toolCallName":"slow"}`,
		`{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","delta":"partial"}`,
	))
	if c := turn.ToolCalls[0]; c.TimestampMs != c.StartedMs || c.EndedMs != 0 {
		t.Errorf("unfinished call = %+v", c)
	}
	if turn.Text() != "partial" {
		t.Errorf("text = %q", turn.Text())
	}
}

// TestTextsOfAReusedMessageID: a producer that reuses a message id in a
// later turn appends to it in the conversation; the turn's text is what it
// added.
func TestTextsOfAReusedMessageID(t *testing.T) {
	at := time.Unix(0, 0)
	rec := trace.NewRecorder()
	w := agui.NewRecording(rec)
	for i, full := range []string{"Hi there!", "Hi there!Hi there!"} {
		rec.StartTurn(i, "user", "hello", at)
		rec.StartRun(fmt.Sprintf("r%d", i), at)
		w.Observe(agui.Frame{Index: 1, Received: at, Type: agui.TextMessageStart, Data: []byte(`{}`)},
			[]agui.Event{{Type: agui.TextMessageStart, MessageID: "m1", Role: "assistant"}}, nil)
		w.EndRun(1, nil, []agui.Message{agui.TextMessage("m1", agui.RoleAssistant, full)}, at)
		if got := rec.EndTurn(at, nil).Text(); got != "Hi there!" {
			t.Errorf("turn %d text = %q, want %q", i, got, "Hi there!")
		}
	}
}

// TestInvalidFrameKeptAsString: a frame that is not JSON is kept as a JSON
// string, so a trace file stays JSON whether or not anything is masked.
func TestInvalidFrameKeptAsString(t *testing.T) {
	at := time.Unix(0, 0)
	rec := trace.NewRecorder()
	rec.StartTurn(0, "user", "hello", at)
	rec.StartRun("r0", at)
	w := agui.NewRecording(rec)
	w.Observe(agui.Frame{Index: 1, Received: at, Data: []byte(`{"type":`)}, nil, nil)
	w.Observe(agui.Frame{Index: 2, Received: at, Type: agui.TextMessageStart, Data: []byte(`{"type":"TEXT_MESSAGE_START"}`)},
		[]agui.Event{{Type: agui.TextMessageStart, MessageID: "m1", Role: "assistant"}}, nil)
	w.EndRun(2, nil, nil, at)
	turn := rec.EndTurn(at, nil)
	var got []string
	if err := turn.ReadEvents(func(e *trace.Event) error { got = append(got, string(e.Raw)); return nil }); err != nil {
		t.Fatal(err)
	}
	want := []string{`"{\"type\":"`, `{"type":"TEXT_MESSAGE_START"}`}
	if !slices.Equal(got, want) {
		t.Errorf("raw events = %q, want %q", got, want)
	}
}
