package trace_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ananke/action/internal/agui"
	"github.com/ananke/action/internal/trace"
)

// playTurns records two turns of the same stream through rec.
func playTurns(t *testing.T, rec *trace.Recorder, body string) *trace.Trace {
	t.Helper()
	at := time.UnixMilli(1_000_000)
	c := &agui.Client{Now: func() time.Time { at = at.Add(time.Millisecond); return at }}
	for i := range 2 {
		rec.StartTurn(i, "user", "hi", at)
		rec.StartRun(fmt.Sprint("r", i), at)
		w := agui.NewRecording(rec)
		res, err := c.ReadStream(context.Background(), strings.NewReader(body), agui.RunAgentInput{ThreadID: "t1", RunID: "r1"}, w.Observe)
		if err != nil {
			t.Fatal(err)
		}
		w.EndRun(res.Frames, nil, res.Streamed, at)
		rec.EndTurn(at, res.State)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	return rec.Trace()
}

// TestSpill: a recorder that moves its events to a spool once they pass its
// limit reads back exactly what one keeping them in memory holds — the
// turn that crossed the limit and the turns after it — and makes no file
// while under it.
func TestSpill(t *testing.T) {
	var deltas []string
	for i := range 200 {
		deltas = append(deltas, fmt.Sprintf(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"part %d "}`, i))
	}
	body := frames(append(append([]string{`{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}`}, deltas...),
		`{"type":"TEXT_MESSAGE_END","messageId":"m1"}`, `{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}`)...)
	want := playTurns(t, trace.NewRecorder(), body)

	for _, tc := range []struct {
		name  string
		limit int
		files int
	}{
		{"under the limit", 1 << 20, 0},
		{"past the limit in the first turn", 2000, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			got := playTurns(t, trace.NewSpillingRecorder(dir, tc.limit), body)
			if files, _ := os.ReadDir(dir); len(files) != tc.files {
				t.Fatalf("%d spool files, want %d", len(files), tc.files)
			}
			for i := range want.Turns {
				w, g := &want.Turns[i], &got.Turns[i]
				if w.Text() != g.Text() {
					t.Errorf("turn %d text differs: %d bytes, want %d", i, len(g.Text()), len(w.Text()))
				}
				if we, ge := events(t, w), events(t, g); !slices.Equal(we, ge) {
					t.Errorf("turn %d: %d events read back, want %d; first %q, want %q", i, len(ge), len(we), ge[:1], we[:1])
				}
				var wt, gt []string
				w.EachEvent(func(seq int64, typ string) { wt = append(wt, fmt.Sprint(seq, typ)) })
				g.EachEvent(func(seq int64, typ string) { gt = append(gt, fmt.Sprint(seq, typ)) })
				if !slices.Equal(wt, gt) {
					t.Errorf("turn %d: event types differ", i)
				}
			}
		})
	}
}

// events is every event of a turn as "seq at run type raw".
func events(t *testing.T, turn *trace.Turn) []string {
	t.Helper()
	var out []string
	err := turn.ReadEvents(func(e *trace.Event) error {
		out = append(out, fmt.Sprint(e.Seq, " ", e.ReceivedMs, " ", e.Run, " ", e.Type, " ", string(e.Raw)))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSpoolGone: a spool file removed under the recorder is an error when
// its events are read, never an empty trace.
func TestSpoolGone(t *testing.T) {
	dir := t.TempDir()
	tr := playTurns(t, trace.NewSpillingRecorder(dir, 10), frames(`{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}`,
		`{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}`))
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, f := range files {
		os.Remove(f)
	}
	if err := tr.Turns[0].ReadEvents(func(*trace.Event) error { return nil }); err == nil {
		t.Fatal("events read from a removed spool")
	}
}
