package trace_test

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/ananke/action/internal/agui"
	"github.com/ananke/action/internal/trace"
)

// The stream pipeline's budgets, held in CI as counts, never as time
// (docs/performance.md, "Budgets CI holds"). Each is set about a quarter
// above what was measured, so that a change that costs more per event
// fails its own submission; lower it when the pipeline gets cheaper.
const (
	// budgetAllocsPerDelta bounds the allocations per event of reading a
	// stream of text deltas into a recorder that spools: SSE, decoding,
	// verification, the conversation, the trace. Measured 2026-11-25:
	// 1.32 (10.0 before; docs/performance.md has both).
	budgetAllocsPerDelta = 1.6
	// budgetAllocsPerMixedEvent is the same for the recorded agent run
	// (tool calls with arguments and results, text, state), repeated.
	// Measured 2026-11-25: 4.43 (12.95 before).
	budgetAllocsPerMixedEvent = 5.5
	// budgetLiveHeap bounds the live heap while a 100k-delta stream is
	// read, beyond the 2 MB of text the conversation keeps: what the
	// recorder holds in memory (1 MiB of events, then a byte per event),
	// sampled after a collection every 1,000 events. Measured
	// 2026-11-25: 1.05 MiB (2.68 MiB before).
	budgetLiveHeap = 13 << 20 / 10 // 1.3 MiB
	// budgetShortRunBytes bounds the bytes a run of 20 deltas allocates,
	// the unit of a suite of many short tests: what a run costs whatever
	// its length. Measured 2026-11-25: 15.0 KiB (79 KiB with a 64 KiB
	// read buffer per stream).
	budgetShortRunBytes = 19 << 10
)

// deltaStream is n TEXT_MESSAGE_CONTENT events of 20 bytes in one run,
// framed as bench/streamserver frames them.
func deltaStream(n int) []byte {
	var b bytes.Buffer
	b.WriteString("data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t1\",\"runId\":\"r1\"}\n\n")
	b.WriteString("data: {\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}\n\n")
	for range n {
		b.WriteString("data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"abcdefghijklmnopqrst\"}\n\n")
	}
	b.WriteString("data: {\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}\n\n")
	b.WriteString("data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t1\",\"runId\":\"r1\"}\n\n")
	return b.Bytes()
}

// readInto reads body as one turn into a recorder that spools into dir
// past 1 MiB, as the engine's do; observe, when set, also sees each frame.
func readInto(tb testing.TB, dir string, body []byte, observe agui.Observer) *trace.Recorder {
	now := time.Unix(0, 0)
	c := &agui.Client{Now: func() time.Time { return now }}
	rec := trace.NewSpillingRecorder(dir, 1<<20)
	rec.StartTurn(0, "user", "go", now)
	rec.StartRun("r1", now)
	w := agui.NewRecording(rec)
	obs := w.Observe
	if observe != nil {
		obs = func(f agui.Frame, evs []agui.Event, ps []agui.Problem) {
			w.Observe(f, evs, ps)
			observe(f, evs, ps)
		}
	}
	res, err := c.ReadStream(context.Background(), bytes.NewReader(body), agui.RunAgentInput{ThreadID: "t1", RunID: "r1"}, obs)
	if err != nil || res.Failed() {
		tb.Fatal(err, res.Problems)
	}
	w.EndRun(res.Frames, nil, res.Streamed, now)
	rec.EndTurn(now, res.State)
	if err := rec.Close(); err != nil {
		tb.Fatal(err)
	}
	return rec
}

// TestBudgetAllocsPerEvent: reading a stream costs at most the budgeted
// allocations per event.
func TestBudgetAllocsPerEvent(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector changes allocation counts (sync.Pool drops items); .ci/test holds this budget in a run without it")
	}
	mixed, mixedEvents := bigRun(t, 20_000)
	for _, tc := range []struct {
		name   string
		body   []byte
		events int
		budget float64
	}{
		{"20k text deltas", deltaStream(20_000), 20_004, budgetAllocsPerDelta},
		{"the agent run repeated to 20k events", mixed, mixedEvents, budgetAllocsPerMixedEvent},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			allocs := testing.AllocsPerRun(3, func() { readInto(t, dir, tc.body, nil) })
			per := allocs / float64(tc.events)
			t.Logf("%.2f allocations per event (budget %.1f)", per, tc.budget)
			if per > tc.budget {
				t.Errorf("the stream pipeline makes %.2f allocations per event, over its budget of %.1f: what grew? (go test ./internal/trace -run '^$' -bench StreamPipeline -memprofile mem.prof)", per, tc.budget)
			}
		})
	}
}

// TestBudgetShortRun: a short run costs a few kilobytes, not a buffer
// sized for long streams.
func TestBudgetShortRun(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector drops pooled buffers at random; .ci/test holds this budget in a run without it")
	}
	body := deltaStream(20)
	dir := t.TempDir()
	const runs = 200
	readInto(t, dir, body, nil) // warm: pools, first-use values
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		readInto(t, dir, body, nil)
	}
	runtime.ReadMemStats(&after)
	per := int64(after.TotalAlloc-before.TotalAlloc) / runs
	t.Logf("a 20-delta run allocates %.1f KiB (budget %.1f KiB)", float64(per)/1024, float64(budgetShortRunBytes)/1024)
	if per > budgetShortRunBytes {
		t.Errorf("a 20-delta run allocates %.1f KiB, over its budget of %.1f KiB: what does a stream allocate whatever its length?", float64(per)/1024, float64(budgetShortRunBytes)/1024)
	}
}

// TestBudgetLiveHeap: the memory a long stream takes while it is read is
// what the trace keeps in memory — the assembled text, 1 MiB of events,
// then a byte per event — not a multiple of the stream.
func TestBudgetLiveHeap(t *testing.T) {
	const n = 100_000
	body := deltaStream(n)
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base := int64(ms.HeapAlloc)
	var held int64
	frames := 0
	// sample is the live heap beyond the text streamed so far, which the
	// conversation keeps (20 bytes a delta).
	sample := func() {
		runtime.GC()
		runtime.ReadMemStats(&ms)
		held = max(held, int64(ms.HeapAlloc)-base-int64(max(frames-2, 0)*20))
	}
	rec := readInto(t, t.TempDir(), body, func(agui.Frame, []agui.Event, []agui.Problem) {
		if frames++; frames%1000 == 0 {
			sample()
		}
	})
	sample()
	runtime.KeepAlive(body)
	runtime.KeepAlive(rec)
	t.Logf("live heap beyond the text: %s at most (budget %s); stream %s", mib(held), mib(budgetLiveHeap), mib(int64(len(body))))
	if held > budgetLiveHeap {
		t.Errorf("reading %d deltas held %s beyond their text, over the budget of %s: what does the pipeline keep per event?", n, mib(held), mib(budgetLiveHeap))
	}
}

func mib(n int64) string { return fmt.Sprintf("%.2f MiB", float64(n)/(1<<20)) }
