package tracefile_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/tracefile"
)

// TestUsageRoundTrip: a trace file keeps each run's and each turn's usage
// — per provider and model, unknown counts unknown, a cost the source
// reported as reported, a partial turn partial — and a turn without usage
// reads back without it.
func TestUsageRoundTrip(t *testing.T) {
	usd := 0.0125
	var full, part cost.Tokens
	full.Set(cost.Input, 1200)
	full.Set(cost.Output, 80)
	full.Set(cost.CachedInput, 1000)
	full.Set(cost.CacheWrite, 100)
	full.Set(cost.Reasoning, 20)
	part.Set(cost.Output, 7) // input unknown: no total either
	run0 := &cost.Spend{}
	run0.Add(cost.Usage{Provider: "anthropic", Model: "claude-sonnet-4-5", Tokens: full, CostUSD: &usd, CostFrom: cost.FromSource},
		cost.Usage{Model: "local", Tokens: part})
	turn0 := &cost.Spend{}
	turn0.Merge(run0, 0)
	turn0.Missing()
	tr := &trace.Trace{TestStartMs: 1000, TestEndMs: 3000, Source: &trace.Source{Adapter: "ag-ui", Mode: "live"}, Turns: []trace.Turn{
		{Index: 0, Kind: "user", StartMs: 1000, EndMs: 2000, ToolCalls: []trace.ToolCall{}, Runs: []trace.Run{{RunID: "r1", Usage: run0}, {RunID: "r2"}}, Usage: turn0},
		{Index: 1, Kind: "user", StartMs: 2000, EndMs: 3000, ToolCalls: []trace.ToolCall{}, Runs: []trace.Run{{RunID: "r3"}}},
	}}
	tt := &report.Test{ID: "t", Attempts: []report.Attempt{{Trace: tr}}}
	var b bytes.Buffer
	if err := tracefile.Write(&b, tt, &tt.Attempts[0]); err != nil {
		t.Fatal(err)
	}
	back, err := tracefile.Read(&b)
	if err != nil {
		t.Fatal(err)
	}
	spends := func(tr *trace.Trace) []*cost.Spend {
		var out []*cost.Spend
		for _, turn := range tr.Turns {
			out = append(out, turn.Usage)
			for _, r := range turn.Runs {
				out = append(out, r.Usage)
			}
		}
		return out
	}
	want, got := spends(tr), spends(back)
	if len(got) != len(want) {
		t.Fatalf("%d usages read back; want %d", len(got), len(want))
	}
	for i := range want {
		if !sameSpend(got[i], want[i]) {
			g, _ := json.Marshal(got[i])
			w, _ := json.Marshal(want[i])
			t.Errorf("usage %d read back as\n%s\nwant\n%s", i, g, w)
		}
	}
	if !back.UsageReported() || back.Turns[1].Usage != nil {
		t.Errorf("read back: usage reported %v, turn 1's %v; want reported, and none in turn 1", back.UsageReported(), back.Turns[1].Usage)
	}
}

// sameSpend compares spends by what they say: parts, models, costs and
// every count (a total derived from input and output is written, so it
// reads back as reported — the same number).
func sameSpend(a, b *cost.Spend) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Reported != b.Reported || a.Unreported != b.Unreported || len(a.Models) != len(b.Models) {
		return false
	}
	for i, m := range a.Models {
		o := b.Models[i]
		if m.Provider != o.Provider || m.Model != o.Model || m.CostFrom != o.CostFrom || (m.CostUSD == nil) != (o.CostUSD == nil) ||
			(m.CostUSD != nil && *m.CostUSD != *o.CostUSD) {
			return false
		}
		for f := range cost.CacheWrite + 1 {
			x, okX := m.Tokens.Get(f)
			y, okY := o.Tokens.Get(f)
			if f == cost.Total {
				x, okX = m.Tokens.TotalTokens()
				y, okY = o.Tokens.TotalTokens()
			}
			if x != y || okX != okY {
				return false
			}
		}
	}
	return true
}
