package tracefile_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ananke/action/internal/agui"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/tracefile"
)

// TestSpooledTrace: events a run spooled to disk are written masked, one
// per line, and read back as they were received.
func TestSpooledTrace(t *testing.T) {
	const secret = "sk-spooled-secret"
	var body strings.Builder
	events := []string{`{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}`, `{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}`}
	for range 50 {
		events = append(events, `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"key `+secret+` "}`)
	}
	events = append(events, `{"type":"TEXT_MESSAGE_END","messageId":"m1"}`, `{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}`)
	for _, e := range events {
		body.WriteString("data: " + e + "\n\n")
	}
	at := time.UnixMilli(5000)
	rec := trace.NewSpillingRecorder(t.TempDir(), 500)
	rec.StartTurn(0, "user", "hi", at)
	rec.StartRun("r1", at)
	w := agui.NewRecording(rec)
	c := &agui.Client{Now: func() time.Time { return at }}
	res, err := c.ReadStream(context.Background(), strings.NewReader(body.String()), agui.RunAgentInput{ThreadID: "t1", RunID: "r1"}, w.Observe)
	if err != nil {
		t.Fatal(err)
	}
	w.EndRun(res.Frames, nil, res.Streamed, at)
	rec.EndTurn(at, nil)
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	tr := rec.Trace()
	tr.Mask = report.NewRedactor([]string{secret}, nil).JSON
	tt := &report.Test{ID: "t", Attempts: []report.Attempt{{Trace: tr}}}

	var b bytes.Buffer
	if err := tracefile.Write(&b, tt, &tt.Attempts[0]); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), secret) {
		t.Fatal("the spooled events were written unmasked")
	}
	if n := strings.Count(b.String(), "\n["); n != len(events) {
		t.Errorf("%d event lines, want %d", n, len(events))
	}
	back, err := tracefile.Read(&b)
	if err != nil {
		t.Fatal(err)
	}
	got := back.Turns[0].Events
	if len(got) != len(events) || got[2].Type != "TEXT_MESSAGE_CONTENT" || got[2].Seq != 3 || got[2].ReceivedMs != 5000 {
		t.Fatalf("read back %d events, the third %+v", len(got), got[min(2, len(got)-1)])
	}
	var delta struct{ Delta string }
	if err := json.Unmarshal(got[2].Raw, &delta); err != nil || delta.Delta != "key *** " {
		t.Errorf("third event's delta = %q (%v)", delta.Delta, err)
	}
}
