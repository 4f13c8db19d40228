package engine_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ananke/action/internal/agui/aguitest"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/target/registry"
)

// manyTests writes n one-turn tests against endpoint and loads them.
func manyTests(b *testing.B, endpoint string, n, turns int) *spec.Suite {
	b.Helper()
	dir := b.TempDir()
	cfg := fmt.Sprintf("version: \"1.0\"\ntarget:\n  type: agui\n  endpoint: %q\n  agentId: bench\n", endpoint)
	os.WriteFile(filepath.Join(dir, "ananke.config.yaml"), []byte(cfg), 0o644)
	body := "version: \"1.0\"\nname: t\nturns:\n"
	for range turns {
		body += "  - user: hi\n    assert: {text: {must_match: ok}, tools: {forbid: [x]}}\n"
	}
	for i := range n {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("t%04d.ananke.yaml", i)), []byte(body), 0o644)
	}
	s, err := spec.Load(spec.Options{ConfigPath: filepath.Join(dir, "ananke.config.yaml")})
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkTurnOverhead measures what Ananke adds to each turn on loopback
// against an agent that answers at once: building the request, the HTTP
// exchange, reading, verifying and capturing the stream, and evaluating
// the turn's assertions. Budget (docs/performance.md): < 1 ms median.
func BenchmarkTurnOverhead(b *testing.B) {
	srv := aguitest.New(b, func(r *aguitest.Request) aguitest.Response {
		return aguitest.Response{Events: aguitest.Run(r.Input, aguitest.Text("m", "ok")...)}
	})
	const turns = 20
	s := manyTests(b, srv.Endpoint(), 1, turns)
	b.ResetTimer()
	for range b.N {
		out := engine.Run(context.Background(), engine.Options{Protocols: registry.Lookup, Suite: s})
		if out.Tests[0].Status != status.Pass || len(out.Tests[0].Shown().Trace.Turns) != turns {
			b.Fatalf("status %s %s", out.Tests[0].Status, out.Tests[0].Reason)
		}
	}
	// Per turn, the agent's own (immediate) answer included: an upper bound
	// on Ananke's overhead.
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*turns), "µs/turn")
}

// BenchmarkParallel runs 1000 one-turn tests against an agent answering in
// 100 ms with --parallel N. Budget (docs/performance.md): within 1.2× of the ideal
// ceil(1000/N) × 100 ms.
func BenchmarkParallel(b *testing.B) {
	srv := aguitest.New(b, func(r *aguitest.Request) aguitest.Response {
		return aguitest.Response{Events: aguitest.Run(r.Input, aguitest.Text("m", "ok")...), Delay: 20 * time.Millisecond} // 5 events: 100 ms
	})
	s := manyTests(b, srv.Endpoint(), 1000, 1)
	for _, n := range []int{10, 50, 100} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			for range b.N {
				out := engine.Run(context.Background(), engine.Options{Protocols: registry.Lookup, Suite: s, Parallel: n})
				for _, r := range out.Tests {
					if r.Status != status.Pass {
						b.Fatalf("%s: %s %s", r.Test.Name.Value, r.Status, r.Reason)
					}
				}
			}
			ideal := time.Duration((1000+n-1)/n) * 100 * time.Millisecond
			b.ReportMetric(float64(b.Elapsed())/float64(b.N)/float64(ideal), "x-ideal")
		})
	}
}
