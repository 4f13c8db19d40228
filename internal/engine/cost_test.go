package engine_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
)

// usageSession plays each turn as one run that reports the usage of
// spend(turn index): as a source would, on the run and summed on the turn.
type usageSession struct {
	spend func(i int) *cost.Spend
}

func (s *usageSession) Turn(_ context.Context, in target.Turn, rec *trace.Recorder) (target.Outcome, error) {
	at := time.Unix(0, 0)
	rec.StartRun("run", at)
	rec.Event("RUN_STARTED", 0, []byte(`{"type":"RUN_STARTED"}`), at)
	rec.Event("RUN_FINISHED", 0, []byte(`{"type":"RUN_FINISHED"}`), at)
	rec.EndRun(2, nil, at)
	tr := rec.Trace()
	t := &tr.Turns[len(tr.Turns)-1]
	if sp := s.spend(in.Index); sp != nil {
		t.Runs[0].Usage = sp
		t.Usage = cost.Sum(sp.Clone())
	}
	return target.Outcome{}, nil
}

func (s *usageSession) State() json.RawMessage { return json.RawMessage(`{}`) }
func (s *usageSession) Source() *trace.Source  { return nil }
func (s *usageSession) Close() error           { return nil }

func usageProtocol(spend func(i int) *cost.Spend) func(string) (engine.Protocol, bool) {
	return func(string) (engine.Protocol, bool) {
		return engine.Protocol{Open: func(*engine.Setup) target.Session { return &usageSession{spend: spend} }}, true
	}
}

// miniSpend is 10,000 input and 1,000 output tokens of model, as
// reported: at gpt-4o-mini's built-in price, $0.0021.
func miniSpend(model string, reported *float64) *cost.Spend {
	u := cost.Usage{Provider: "openai", Model: model, CostUSD: reported}
	u.Tokens.Set(cost.Input, 10_000)
	u.Tokens.Set(cost.Output, 1_000)
	if reported != nil {
		u.CostFrom = cost.FromSource
	}
	s := &cost.Spend{}
	s.Add(u)
	return s
}

func resultOf(t *testing.T, a *engine.Attempt, id string) assertion.Result {
	t.Helper()
	for _, r := range a.Results {
		if r.ID == id {
			return r
		}
	}
	t.Fatalf("no result %s among %+v", id, a.Results)
	return assertion.Result{}
}

const usageConfig = `version: "1.0"
target: {type: agui, endpoint: "http://127.0.0.1:1/agent", agentId: a}
`

// TestPricedBeforeChecks: a turn's usage is priced when the turn ends,
// before its checks, by the config's prices and then the built-in ones;
// a cost the source reported is kept; without prices, cost is unknown.
func TestPricedBeforeChecks(t *testing.T) {
	test := `version: "1.0"
name: t
turns:
  - user: a
    assert: {budget: {max_cost_usd: 0.002}}
  - user: b
assert: {budget: {max_cost_usd: 0.005, max_total_tokens: 22000}}
`
	reported := 0.0001
	for _, tc := range []struct {
		name    string
		pricing string
		model   string
		cost    *float64
		prices  bool
		turn    status.Status
		msg     string
		test    status.Status
	}{
		{"built-in price", "", "gpt-4o-mini", nil, true, status.Fail, "turn[0] cost $0.0021, over the limit of $0.002", status.Skip},
		{"the config's price first", "pricing: {\"gpt-4o-*\": {input: 0.1, output: 0.1}}\n", "gpt-4o-mini", nil, true, status.Pass, "turn[0] cost $0.0011 (limit $0.002)", status.Pass},
		{"no price", "", "my-model", nil, true, status.Skip, "skipped: model openai/my-model has no price (add it under pricing: in the config)", status.Skip},
		{"no table", "", "gpt-4o-mini", nil, false, status.Skip, "skipped: model openai/gpt-4o-mini has no price (add it under pricing: in the config)", status.Skip},
		{"reported cost kept", "", "gpt-4o-mini", &reported, true, status.Pass, "turn[0] cost $0.0001 (limit $0.002)", status.Pass},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := writeSuite(t, map[string]string{"ananke.config.yaml": usageConfig + tc.pricing, "t.ananke.yaml": test})
			r := one(t, run(t, s, func(o *engine.Options) {
				o.Protocols = usageProtocol(func(int) *cost.Spend { return miniSpend(tc.model, tc.cost) })
				if tc.prices {
					o.Prices = cost.NewTable(s.Config.Pricing)
				}
			}))
			a := r.Attempts[0]
			got := resultOf(t, a, "turn[0].budget.max_cost_usd")
			if got.Status != tc.turn || got.Message != tc.msg {
				t.Errorf("turn[0]: %s %q\nwant %s %q", got.Status, got.Message, tc.turn, tc.msg)
			}
			if tc.turn == status.Fail {
				return // the test stopped at turn[0]
			}
			if got := resultOf(t, a, "test.budget.max_cost_usd"); got.Status != tc.test {
				t.Errorf("test: %s %q, want %s", got.Status, got.Message, tc.test)
			}
			total := resultOf(t, a, "test.budget.max_total_tokens")
			if total.Status != status.Pass || total.Observed != "22,000 total tokens" {
				t.Errorf("test tokens: %s %q (%s)", total.Status, total.Message, total.Observed)
			}
			// The trace keeps the priced usage: the report reads it.
			for i, turn := range a.Trace.Turns {
				c, ok := turn.Usage.CostUSD()
				rc, rok := turn.Runs[0].Usage.CostUSD()
				if ok != (tc.turn == status.Pass) || rok != ok || c != rc {
					t.Errorf("turn[%d]: cost %v, %v; run %v, %v", i, c, ok, rc, rok)
				}
			}
		})
	}
}

// TestBudgetWithoutUsage: an agent that reports no usage skips a budget
// with the reason, or errors it under on_missing_capability: error.
func TestBudgetWithoutUsage(t *testing.T) {
	for _, tc := range []struct {
		policy string
		want   status.Status
		test   status.Status
	}{
		{"", status.Skip, status.Pass},
		{"on_missing_capability: error\n", status.Error, status.Error},
	} {
		s := writeSuite(t, map[string]string{"ananke.config.yaml": usageConfig + tc.policy,
			"t.ananke.yaml": "version: \"1.0\"\nname: t\nturns: [{user: a}]\nassert: {budget: {max_total_tokens: 10}}\n"})
		r := one(t, run(t, s, func(o *engine.Options) {
			o.Protocols = usageProtocol(func(int) *cost.Spend { return nil })
			o.Prices = cost.NewTable(nil)
		}))
		got := resultOf(t, r.Attempts[0], "test.budget.max_total_tokens")
		if got.Status != tc.want || !strings.Contains(got.Message, "no turn of this ag-ui trace reported token usage: the agent reported none") {
			t.Errorf("%q: %s %q", tc.policy, got.Status, got.Message)
		}
		if r.Status != tc.test {
			t.Errorf("%q: test %s, want %s", tc.policy, r.Status, tc.test)
		}
	}
}

// TestImportedPriced: an imported trace is priced as a whole before its
// checks.
func TestImportedPriced(t *testing.T) {
	s := writeSuite(t, map[string]string{"ananke.config.yaml": usageConfig,
		"s.jsonl": "", "t.ananke.yaml": "version: \"1.0\"\nname: t\nsource: {format: claude-transcript, path: s.jsonl}\nassert: {budget: {max_cost_usd: 0.001}}\n"})
	imported := &trace.Trace{Turns: []trace.Turn{{Index: 0, Usage: miniSpend("gpt-4o-mini", nil)}, {Index: 1, Usage: miniSpend("gpt-4o-mini", nil)}}}
	r := one(t, run(t, s, func(o *engine.Options) {
		o.Import = func(context.Context, *spec.Source) (*trace.Trace, error) { return imported, nil }
		o.Prices = cost.NewTable(nil)
	}))
	got := resultOf(t, r.Attempts[0], "test.budget.max_cost_usd")
	if got.Status != status.Fail || got.Message != "test cost $0.0042, over the limit of $0.001" {
		t.Errorf("%s %q", got.Status, got.Message)
	}
	if c, ok := imported.Turns[1].Usage.CostUSD(); !ok || c < 0.0020 || c > 0.0022 {
		t.Errorf("turn[1] cost %v, %v", c, ok)
	}
}

// learningSession learns a secret as it plays its turn, as an A2A session
// does with the OAuth2 token it fetches.
type learningSession struct {
	usageSession
	learn func(string)
}

func (s *learningSession) Turn(ctx context.Context, in target.Turn, rec *trace.Recorder) (target.Outcome, error) {
	s.learn("tok-learned-while-playing")
	return s.usageSession.Turn(ctx, in, rec)
}

// TestSecretLearnedWhilePlaying: a secret a session tells the Setup of
// during a turn is among the attempt's secrets, so no report shows it.
func TestSecretLearnedWhilePlaying(t *testing.T) {
	s := writeSuite(t, map[string]string{"ananke.config.yaml": usageConfig, "t.ananke.yaml": "version: \"1.0\"\nname: t\nturns: [{user: a}]\n"})
	r := one(t, run(t, s, func(o *engine.Options) {
		o.Protocols = func(string) (engine.Protocol, bool) {
			return engine.Protocol{Open: func(a *engine.Setup) target.Session {
				return &learningSession{usageSession: usageSession{spend: func(int) *cost.Spend { return nil }},
					learn: func(v string) { a.Secret(v) }}
			}}, true
		}
	}))
	if got := r.Secrets(); !strings.Contains(strings.Join(got, "\n"), "tok-learned-while-playing") {
		t.Errorf("secrets %q; want the one learned while playing", got)
	}
}
