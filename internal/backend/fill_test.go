package backend_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/ananke/action/internal/backend"
	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/trace"
)

func streamed(id, name, args string, at int64, result string) trace.ToolCall {
	c := trace.ToolCall{ID: id, Name: name, Args: args, ArgsJSON: json.Valid([]byte(args)), StartedMs: at, TimestampMs: at + 1}
	if result != "" {
		c.Result = &trace.Result{Content: result, JSON: json.Valid([]byte(result))}
	}
	return c
}

func served(tool, args string, at int64, result string) trace.ToolCall {
	c := streamed("", tool, args, at, result)
	c.TimestampMs = 0
	c.EndedMs = at + 5
	c.Served = &trace.Served{By: "doubles", Tool: tool, Answer: "result"}
	return c
}

// summary is each call's name, id, whether it was served and its result.
func summary(calls []trace.ToolCall) []string {
	var out []string
	for _, c := range calls {
		s := c.Name + " " + c.ID
		if c.Served != nil {
			s += " served"
		}
		if c.Result != nil {
			s += " -> " + c.Result.Content
		}
		out = append(out, s)
	}
	return out
}

func TestFillCalls(t *testing.T) {
	for _, tc := range []struct {
		name     string
		streamed []trace.ToolCall
		served   []trace.ToolCall
		want     []string
	}{
		{"not streamed: added in start order",
			[]trace.ToolCall{streamed("c1", "search", `{}`, 10, "x")},
			[]trace.ToolCall{served("check_stock", `{"sku":"A"}`, 5, `{"n":4}`), served("check_stock", `{"sku":"B"}`, 20, `{"n":0}`)},
			[]string{`check_stock  served -> {"n":4}`, "search c1 -> x", `check_stock  served -> {"n":0}`}},
		{"streamed under the same name: marked, the streamed result kept",
			[]trace.ToolCall{streamed("c1", "check_stock", `{"sku": "A"}`, 10, "streamed")},
			[]trace.ToolCall{served("check_stock", `{"sku":"A"}`, 11, `{"n":4}`)},
			[]string{"check_stock c1 served -> streamed"}},
		{"streamed with a server prefix and no result: gains the served result",
			[]trace.ToolCall{streamed("c1", "inventory_check_stock", `{"sku":"A","n":1.0}`, 10, "")},
			[]trace.ToolCall{served("check_stock", `{"n":1,"sku":"A"}`, 11, `{"n":4}`)},
			[]string{`inventory_check_stock c1 served -> {"n":4}`}},
		{"other prefixes",
			[]trace.ToolCall{streamed("c1", "inv__check_stock", `{}`, 1, ""), streamed("c2", "inv.check_stock", ``, 2, ""), streamed("c3", "inv/check_stock", `{}`, 3, "")},
			[]trace.ToolCall{served("check_stock", `{}`, 4, "a"), served("check_stock", `{}`, 5, "b"), served("check_stock", `{}`, 6, "c")},
			[]string{"inv__check_stock c1 served -> a", "inv.check_stock c2 served -> b", "inv/check_stock c3 served -> c"}},
		{"different arguments: not the same call",
			[]trace.ToolCall{streamed("c1", "check_stock", `{"sku":"A"}`, 10, "")},
			[]trace.ToolCall{served("check_stock", `{"sku":"B"}`, 11, "b")},
			[]string{"check_stock c1", "check_stock  served -> b"}},
		{"a name that only ends like the tool: not the same",
			[]trace.ToolCall{streamed("c1", "restock", `{}`, 10, "")},
			[]trace.ToolCall{served("stock", `{}`, 11, "b")},
			[]string{"restock c1", "stock  served -> b"}},
		{"two equal calls: each served call marks one",
			[]trace.ToolCall{streamed("c1", "ping", `{}`, 10, ""), streamed("c2", "ping", `{}`, 12, "")},
			[]trace.ToolCall{served("ping", `{}`, 11, "1"), served("ping", `{}`, 13, "2"), served("ping", `{}`, 14, "3")},
			[]string{"ping c1 served -> 1", "ping c2 served -> 2", "ping  served -> 3"}},
		{"arguments that are not JSON compare as text",
			[]trace.ToolCall{streamed("c1", "echo", `not json`, 10, "")},
			[]trace.ToolCall{served("echo", ` not json `, 11, "e")},
			[]string{"echo c1 served -> e"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			turn := &trace.Turn{Index: 2, ToolCalls: tc.streamed}
			backend.Fill(turn, tc.served, nil)
			if got := summary(turn.ToolCalls); !slices.Equal(got, tc.want) {
				t.Errorf("calls\n%q\nwant\n%q", got, tc.want)
			}
			for _, c := range turn.ToolCalls {
				if c.ID == "" && c.Turn != 2 { // an added call
					t.Errorf("call %s in turn %d; want 2", c.Name, c.Turn)
				}
				if c.TimestampMs == 0 {
					t.Errorf("call %s has no completion time", c.Name)
				}
			}
		})
	}
}

func TestFillSetsWhatTheServerLeftOut(t *testing.T) {
	turn := &trace.Turn{Index: 1}
	c := trace.ToolCall{Args: `{"a":1}`, StartedMs: 7, EndedMs: 9, Served: &trace.Served{By: "doubles", Tool: "t", Unanswered: true}}
	backend.Fill(turn, []trace.ToolCall{c}, nil)
	got := turn.ToolCalls[0]
	if got.Name != "t" || got.Turn != 1 || !got.ArgsJSON || got.TimestampMs != 9 {
		t.Errorf("call = %+v; want named t, turn 1, args JSON, completed at 9", got)
	}
}

func usage(model string, in, out int64) *cost.Usage {
	u := &cost.Usage{Model: model}
	u.Tokens.Set(cost.Input, in)
	u.Tokens.Set(cost.Output, out)
	return u
}

// spend is what an agent reports: one part holding us.
func spend(us ...cost.Usage) *cost.Spend {
	s := &cost.Spend{}
	s.Add(us...)
	return s
}

func TestFillModelCalls(t *testing.T) {
	reported := spend(*usage("agent-said", 1, 1))
	zeroTotal := cost.Usage{}
	zeroTotal.Tokens.Set(cost.Total, 0)
	zeroCost, someCost := 0.0, 0.002
	costOnly := cost.Usage{Model: "agent-said", CostUSD: &someCost, CostFrom: cost.FromSource}
	costOnly.Tokens.Set(cost.Total, 0)
	for _, tc := range []struct {
		name   string
		usage  *cost.Spend // the turn's, as the agent reported it
		models []trace.ModelCall
		// want is the turn's usage: its summary per model, and its parts.
		want                 map[string]int64
		reported, unreported int
		none                 bool
	}{
		{name: "usage from the calls, summed per model",
			models: []trace.ModelCall{
				{Model: "gpt-4o-mini", Status: 200, Usage: usage("", 100, 10), StartedMs: 3},
				{Model: "gpt-4o-mini", Status: 429, Fault: "429", StartedMs: 1},
				{Model: "gpt-4o-mini", ResponseModel: "gpt-4o-mini-2024", Status: 200, Usage: usage("", 50, 5), StartedMs: 2},
				{Model: "x", Status: 200, Usage: usage("gpt-4o-mini", 1, 1), StartedMs: 4},
			},
			want: map[string]int64{"gpt-4o-mini": 112, "gpt-4o-mini-2024": 55}, reported: 3},
		{name: "an answered call without usage is a part unreported",
			models: []trace.ModelCall{{Model: "m", Status: 200, Usage: usage("", 1, 2)}, {Model: "m", Status: 200, Stream: true}},
			want:   map[string]int64{"m": 3}, reported: 1, unreported: 1},
		{name: "no call reported usage: unknown",
			models: []trace.ModelCall{{Model: "m", Status: 200}}, none: true},
		{name: "the agent's own usage wins",
			usage:  reported,
			models: []trace.ModelCall{{Model: "m", Status: 200, Usage: usage("", 1, 2)}},
			want:   map[string]int64{"agent-said": 2}, reported: 1},
		{name: "the agent's usage all zero: the calls' replaces it",
			usage:  spend(zeroTotal),
			models: []trace.ModelCall{{Model: "m", Status: 200, Usage: usage("", 1, 2)}},
			want:   map[string]int64{"m": 3}, reported: 1},
		{name: "the agent's zeros over several parts and models, a zero cost: replaced",
			usage: func() *cost.Spend {
				s := spend(zeroTotal, *usage("a", 0, 0))
				z := cost.Usage{Model: "b", CostUSD: &zeroCost, CostFrom: cost.FromSource}
				z.Tokens.Set(cost.Input, 0)
				s.Add(z)
				s.Missing()
				return s
			}(),
			models: []trace.ModelCall{{Model: "m", Status: 200, Usage: usage("", 4, 2)}},
			want:   map[string]int64{"m": 6}, reported: 1},
		{name: "the agent's parts that reported nothing but that they ran: replaced",
			usage:  spend(),
			models: []trace.ModelCall{{Model: "m", Status: 200, Usage: usage("", 1, 1)}},
			want:   map[string]int64{"m": 2}, reported: 1},
		{name: "the agent's zeros, and no call reported usage: the agent's kept",
			usage:  spend(zeroTotal),
			models: []trace.ModelCall{{Model: "m", Status: 200}},
			want:   map[string]int64{"": 0}, reported: 1},
		{name: "one count above zero: the agent's kept",
			usage: func() *cost.Spend {
				u := cost.Usage{Model: "agent-said"}
				u.Tokens.Set(cost.Total, 0)
				u.Tokens.Set(cost.Output, 7)
				return spend(zeroTotal, u)
			}(),
			models: []trace.ModelCall{{Model: "m", Status: 200, Usage: usage("", 1, 2)}},
			want:   map[string]int64{"": 0, "agent-said": 0}, reported: 1},
		{name: "zero tokens but a cost reported: the agent's kept",
			usage:  spend(costOnly),
			models: []trace.ModelCall{{Model: "m", Status: 200, Usage: usage("", 1, 2)}},
			want:   map[string]int64{"agent-said": 0}, reported: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			turn := &trace.Turn{Usage: tc.usage}
			backend.Fill(turn, nil, tc.models)
			if len(turn.ModelCalls) != len(tc.models) {
				t.Fatalf("%d model calls; want %d", len(turn.ModelCalls), len(tc.models))
			}
			for i := 1; i < len(turn.ModelCalls); i++ {
				if turn.ModelCalls[i].StartedMs < turn.ModelCalls[i-1].StartedMs {
					t.Errorf("model calls not in start order: %+v", turn.ModelCalls)
				}
			}
			if tc.none {
				if turn.Usage != nil {
					t.Errorf("usage %+v; want none (unknown)", turn.Usage)
				}
				return
			}
			if turn.Usage == nil {
				t.Fatal("no usage")
			}
			got := map[string]int64{}
			for _, m := range turn.Usage.Models {
				got[m.Model], _ = m.Tokens.TotalTokens()
			}
			if len(got) != len(tc.want) {
				t.Errorf("usage %v; want %v", got, tc.want)
			}
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("usage %v; want %v", got, tc.want)
				}
			}
			if turn.Usage.Reported != tc.reported || turn.Usage.Unreported != tc.unreported {
				t.Errorf("parts %d reported, %d unreported; want %d, %d", turn.Usage.Reported, turn.Usage.Unreported, tc.reported, tc.unreported)
			}
		})
	}
}
