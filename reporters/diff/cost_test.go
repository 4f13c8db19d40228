package diff_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/diff"
)

// TestCostCompare: a test is compared in its cost when both runs priced
// it, else in its tokens; a test whose usage one run does not know is not
// compared, and one that neither knows is only counted.
func TestCostCompare(t *testing.T) {
	none := func(*report.Test) {}
	for _, c := range []struct {
		name       string
		base, head func(*report.Test)
		measure    diff.Measure
		increase   float64 // when measured
		lead, why  string
		unknown    bool // counted in Unknown
	}{
		{"twice the cost", used(1200, 0.012), used(2400, 0.024), diff.ByCost, 100, "+$0.012 (+100%)", "", false},
		{"cost over tokens", used(1000, 0.010), used(900, 0.015), diff.ByCost, 50, "+$0.005 (+50%)", "", false},
		{"tokens without price", used(1000, -1), used(1380, -1), diff.ByTokens, 38, "+38% tokens", "", false},
		{"price in one run", used(1000, 0.01), used(500, -1), diff.ByTokens, -50, "-50% tokens", "", false},
		{"from nothing", used(0, 0), used(150, 0.0015), diff.ByCost, math.Inf(1), "+$0.0015 (from $0)", "", false},
		{"tokens from nothing", used(0, -1), used(2500, -1), diff.ByTokens, math.Inf(1), "+2.5k tokens (from 0)", "", false},
		{"unchanged", used(500, 0.005), used(500, 0.005), diff.ByCost, 0, "", "", false},
		{"unknown in base", none, used(500, 0.005), diff.Unmeasured, 0, "", "usage unknown in base", false},
		{"unknown in head", used(500, -1), none, diff.Unmeasured, 0, "", "usage unknown in head", false},
		{"unknown in both", none, none, diff.Unmeasured, 0, "", "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			c, tc := diff.Compare(rep(1, tc("x", status.Pass, 1, c.base)), rep(1, tc("x", status.Pass, 1, c.head))), c
			cost := c.Cost
			if got := cost.Unknown == 1; got != tc.unknown {
				t.Errorf("unknown %d", cost.Unknown)
			}
			if tc.why != "" {
				if len(cost.NotCompared) != 1 || cost.NotCompared[0].Why() != tc.why || len(cost.Changes) != 0 || cost.Compared != 0 {
					t.Errorf("not compared %+v, changes %+v; want %q alone", cost.NotCompared, cost.Changes, tc.why)
				}
				if len(c.CostOver(0)) != 0 {
					t.Error("an unknown usage gates")
				}
				return
			}
			if tc.measure == diff.Unmeasured {
				if len(cost.Changes)+len(cost.NotCompared) != 0 || cost.Measured {
					t.Errorf("cost %+v; want nothing", cost)
				}
				return
			}
			if cost.Compared != 1 || len(cost.NotCompared) != 0 {
				t.Fatalf("compared %d, not compared %+v", cost.Compared, cost.NotCompared)
			}
			if tc.increase == 0 {
				if len(cost.Changes) != 0 {
					t.Errorf("changes %+v; want none", cost.Changes)
				}
				return
			}
			if len(cost.Changes) != 1 {
				t.Fatalf("changes %+v", cost.Changes)
			}
			e := cost.Changes[0]
			if e.Measure() != tc.measure || math.Abs(e.Increase()-tc.increase) > 1e-9 && !math.IsInf(tc.increase, 1) ||
				math.IsInf(tc.increase, 1) != math.IsInf(e.Increase(), 1) || e.Lead() != tc.lead {
				t.Errorf("measure %d, increase %v, lead %q; want %d, %v, %q", e.Measure(), e.Increase(), e.Lead(), tc.measure, tc.increase, tc.lead)
			}
		})
	}
}

// TestCostNotComparedElsewhere: tests in one run only, or skipped in
// one, are not compared; their usage alone still shows that the runs
// have usage.
func TestCostNotComparedElsewhere(t *testing.T) {
	base := rep(1, tc("gone", status.Pass, 1, used(100, 0.001)), tc("paused", status.Pass, 1, used(100, 0.001)))
	head := rep(1, tc("paused", status.Skipped, 0, used(100, 0.001)), tc("new", status.Pass, 1, used(900, 0.009)))
	c := diff.Compare(base, head).Cost
	if !c.Measured || c.Compared != 0 || len(c.Changes)+len(c.NotCompared) != 0 || c.Unknown != 0 {
		t.Errorf("cost %+v; want measured, nothing compared", c)
	}
	plain := rep(1, tc("a", status.Pass, 1))
	var out strings.Builder
	diff.WriteText(&out, diff.Compare(plain, plain), diff.TextOptions{})
	if strings.Contains(out.String(), "Cost") || diff.Compare(plain, plain).Cost.Measured {
		t.Errorf("runs without usage show cost:\n%s", out.String())
	}
}

// TestCostOrder: increases first, the biggest first (from 0 before any
// percentage), then decreases, the biggest first.
func TestCostOrder(t *testing.T) {
	var b, h []report.Test
	for _, x := range []struct {
		id       string
		base, hd float64
	}{{"down10", 100, 90}, {"up20", 100, 120}, {"down50", 100, 50}, {"zero", 0, 10}, {"up300", 100, 400}, {"same", 100, 100}} {
		b = append(b, tc(x.id, status.Pass, 1, used(x.base, -1)))
		h = append(h, tc(x.id, status.Pass, 1, used(x.hd, -1)))
	}
	c := diff.Compare(rep(1, b...), rep(1, h...))
	var got []string
	for _, e := range c.Cost.Changes {
		got = append(got, e.ID)
	}
	if want := []string{"zero", "up300", "up20", "down50", "down10"}; !slices.Equal(got, want) {
		t.Errorf("order %q; want %q", got, want)
	}
}

// TestCostOver is the gate of --fail-on-cost-increase: strictly over the
// percentage, the biggest first, never a test with unknown usage, and a
// line naming each test and its figures.
func TestCostOver(t *testing.T) {
	c := diff.Compare(costPair())
	var lines []string
	for _, e := range c.CostOver(50) {
		lines = append(lines, e.GateLine(50))
	}
	want := []string{
		"fresh +150 tokens (from 0) exceeds 50%",
		"checkout +100% cost (base $0.012 → $0.024) exceeds 50%",
		"repriced +100% tokens (base 100 → 200) exceeds 50%",
	}
	if !slices.Equal(lines, want) {
		t.Errorf("gate at 50%%:\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	if n := len(c.CostOver(100)); n != 1 {
		t.Errorf("gate at 100%%: %d tests; want 1 (only from 0: +100%% is not over 100%%)", n)
	}
	if n := len(c.CostOver(0)); n != 5 {
		t.Errorf("gate at 0%%: %d tests; want every increase (5)", n)
	}
	hostileLine := diff.CostEntry{Entry: diff.Entry{Name: "a\x1b[31mb"}, BaseTokens: ptr(1.0), HeadTokens: ptr(3.0)}.GateLine(12.5)
	if hostileLine != `a\x1b[31mb +200% tokens (base 1 → 3) exceeds 12.5%` {
		t.Errorf("gate line %q", hostileLine)
	}
}

// TestCostGateShown: with a gate, the changes over it say so.
func TestCostGateShown(t *testing.T) {
	gate := 50.0
	var out strings.Builder
	if err := diff.WriteText(&out, diff.Compare(costPair()), diff.TextOptions{CostGate: &gate}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), " · exceeds 50%)"); n != 3 {
		t.Errorf("%d changes say they exceed the gate; want 3:\n%s", n, out.String())
	}
	md := diff.Markdown(diff.Compare(costPair()), diff.MarkdownOptions{CostGate: &gate})
	if !strings.Contains(md, "- checkout · +\\$0.012 (+100%) · `checkout.ananke.yaml` · 1.2k → 2.4k tokens · \\$0.012 → \\$0.024 · exceeds 50%\n") {
		t.Errorf("markdown:\n%s", md)
	}
}

func ptr(f float64) *float64 { return &f }
