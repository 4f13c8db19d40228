package trace_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ananke/action/internal/agui"
	"github.com/ananke/action/internal/trace"
)

// bigRun builds a run of at least n events from the recorded agent run:
// its inner events (parallel tool calls, results, streamed text) are
// repeated with fresh ids between one RUN_STARTED and one RUN_FINISHED.
func bigRun(tb testing.TB, n int) ([]byte, int) {
	tb.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "agent-run.sse"))
	if err != nil {
		tb.Fatal(err)
	}
	frames := strings.Split(strings.TrimSpace(string(raw)), "\n\n")
	first, inner, last := frames[0], frames[1:len(frames)-1], frames[len(frames)-1]
	var b bytes.Buffer
	b.WriteString(first + "\n\n")
	events := 2
	for k := 0; events < n; k++ {
		prefix := fmt.Sprintf("r1-%d-", k)
		for _, f := range inner {
			b.WriteString(strings.ReplaceAll(f, "r1-", prefix))
			b.WriteString("\n\n")
			events++
		}
	}
	b.WriteString(last + "\n\n")
	return b.Bytes(), events
}

// BenchmarkStreamPipeline measures the whole stream path for one 100k-event
// run: SSE read, decode, chunk expansion, verification, history reduction
// and capture into a trace. Budget (docs/performance.md): >= 200k events/s on one core.
func BenchmarkStreamPipeline(b *testing.B) {
	body, events := bigRun(b, 100_000)
	now := time.Unix(0, 0)
	c := &agui.Client{Now: func() time.Time { return now }}
	in := agui.RunAgentInput{ThreadID: "t1", RunID: "r1"}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		rec := trace.NewRecorder()
		rec.StartTurn(0, "user", "compare", now)
		rec.StartRun("r1", now)
		w := agui.NewRecording(rec)
		res, err := c.ReadStream(context.Background(), bytes.NewReader(body), in, w.Observe)
		if err != nil || res.Failed() {
			b.Fatal(err, res.Problems[:min(3, len(res.Problems))])
		}
		w.EndRun(res.Frames, nil, res.Streamed, now)
		turn := rec.EndTurn(now, res.State)
		if len(turn.Events) != events {
			b.Fatalf("recorded %d events; want %d", len(turn.Events), events)
		}
	}
	b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}
