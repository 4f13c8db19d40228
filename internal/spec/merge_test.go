package spec

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/vars"
)

// describe renders checks as "id level value" lines for comparison.
func describe(checks []assertion.Check) []string {
	var out []string
	for _, c := range checks {
		var v string
		switch p := c.Payload.(type) {
		case assertion.Tool:
			v = p.Name.Value
		case *assertion.Require:
			v = p.Name.Value + " " + p.Count.String()
		case *assertion.CallFilter:
			v = p.Name.Value
		case assertion.Pattern:
			v = p.Regex.String()
		case assertion.Limit:
			v = fmt.Sprint(p.Ms)
		}
		out = append(out, fmt.Sprintf("%s %s %s", c.ID, c.Level, v))
	}
	return out
}

func checkList(t *testing.T, name string, got []assertion.Check, want []string) {
	t.Helper()
	if d := describe(got); !slices.Equal(d, want) {
		t.Errorf("%s:\ngot  %q\nwant %q", name, d, want)
	}
}

// TestMergeCheckout checks the level merge (docs/files.md) on the
// README's checkout example:
// the test-level require of a later turn must not be checked on turn 0,
// numbers override, false disables for one turn only, arrays accumulate.
func TestMergeCheckout(t *testing.T) {
	dir := filepath.Join(repoRoot(t), "examples", "checkout")
	s, err := Load(Options{ConfigPath: filepath.Join(dir, "ananke.config.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	cfg, test := s.Config, s.Tests[0]
	invariants := []string{
		"turn[%d].target.text.must_not_match[0] target exception",
		"turn[%d].target.text.must_not_match[1] target fatal",
		"turn[%d].test.tools.forbid[0] test delete_order",
		"turn[%d].test.text.must_not_match[0] test error",
		"turn[%d].test.text.must_not_match[1] test failed",
	}
	inv := func(i int) []string {
		var out []string
		for _, f := range invariants {
			out = append(out, fmt.Sprintf(f, i))
		}
		return out
	}
	checkList(t, "turn 0", TurnChecks(cfg, test, 0), append(inv(0),
		"turn[0].tools.require[0] turn validate_cart at least 1 time",
		"turn[0].tools.require[1] turn get_shipping_options at least 1 time",
		"turn[0].timing.max_duration_ms turn 30000",
		"turn[0].test.timing.max_idle_ms test 60000", // the test's 60000 overrides the target's 10000
	))
	checkList(t, "turn 1", TurnChecks(cfg, test, 1), append(inv(1),
		"turn[1].tools.require[0] turn calculate_total at least 1 time",
		"turn[1].test.timing.max_idle_ms test 60000",
	))
	checkList(t, "turn 2", TurnChecks(cfg, test, 2), append(inv(2)[:5],
		"turn[2].tools.forbid_calls[0] turn charge_card",
		"turn[2].tools.require[0] turn charge_card exactly 1 time",
		// max_idle_ms: false on this turn: no idle check at all.
	))
	checkList(t, "test", TestChecks(cfg, test), []string{
		"test.target.text.must_not_match[0] target exception",
		"test.target.text.must_not_match[1] target fatal",
		"test.tools.forbid[0] test delete_order",
		"test.text.must_not_match[0] test error",
		"test.text.must_not_match[1] test failed",
		"test.timing.max_duration_ms test 120000", // overrides the target's 60000
	})
}

const threeLevels = `version: "1.0"
name: three levels
assert:
  tools:
    forbid: [test_forbidden]
    require: [{name: at_test_level}]
  text:
    must_match: "done"
turns:
  - user: one
    assert:
      tools:
        forbid: turn_forbidden
      timing:
        max_duration_ms: 300000
        max_idle_ms: false
  - user: two
`

// TestMergeThreeLevels: arrays accumulate over target, test and turn; a
// test-level require and must_match are checked once on the whole test,
// never per turn; false on one turn leaves the next turn's inherited limit.
func TestMergeThreeLevels(t *testing.T) {
	cfg := mustConfig(t, minimalConfig+`  assert:
    tools:
      forbid: [dangerous_tool]
    timing:
      max_duration_ms: 60000
      max_idle_ms: 10000
    text:
      must_not_match: ["exception"]
`)
	test := mustTest(t, threeLevels)
	checkList(t, "turn 0", TurnChecks(cfg, test, 0), []string{
		"turn[0].target.tools.forbid[0] target dangerous_tool",
		"turn[0].target.text.must_not_match[0] target exception",
		"turn[0].test.tools.forbid[0] test test_forbidden",
		"turn[0].tools.forbid[0] turn turn_forbidden",
		"turn[0].timing.max_duration_ms turn 300000",
	})
	checkList(t, "turn 1", TurnChecks(cfg, test, 1), []string{
		"turn[1].target.tools.forbid[0] target dangerous_tool",
		"turn[1].target.text.must_not_match[0] target exception",
		"turn[1].test.tools.forbid[0] test test_forbidden",
		"turn[1].target.timing.max_idle_ms target 10000",
	})
	checkList(t, "test", TestChecks(cfg, test), []string{
		"test.target.tools.forbid[0] target dangerous_tool",
		"test.target.text.must_not_match[0] target exception",
		"test.tools.forbid[0] test test_forbidden",
		"test.tools.require[0] test at_test_level at least 1 time",
		"test.text.must_match[0] test done",
		"test.target.timing.max_duration_ms target 60000",
	})
}

// TestMergeFalseAtTestLevel: false at test level disables a target value
// for the whole test, and a turn may re-enable it for itself.
func TestMergeFalseAtTestLevel(t *testing.T) {
	cfg := mustConfig(t, minimalConfig+`  assert:
    timing: {max_duration_ms: 60000, max_idle_ms: 10000}
`)
	test := mustTest(t, `version: "1.0"
name: disabled
assert:
  timing: {max_duration_ms: false, max_idle_ms: false}
turns:
  - user: one
  - user: two
    assert:
      timing: {max_idle_ms: 500}
`)
	checkList(t, "turn 0", TurnChecks(cfg, test, 0), nil)
	checkList(t, "turn 1", TurnChecks(cfg, test, 1), []string{"turn[1].timing.max_idle_ms turn 500"})
	checkList(t, "test", TestChecks(cfg, test), nil)
}

func TestBindChecks(t *testing.T) {
	cfg := mustConfig(t, minimalConfig)
	test := mustTest(t, `version: "1.0"
name: bind
hooks: [{cmd: [setup]}]
turns:
  - user: hi
    assert:
      tools:
        require:
          - name: lookup
            args_match: {id: "^${ID}$"}
            result_match: "${ID}"
        forbid_calls:
          - name: delete
            args_match: {id: "^${ID}$"}
`)
	v := vars.NewVars(nil)
	v.Set("ID", "a.b")
	checks, err := assertion.BindChecks(TurnChecks(cfg, test, 0), v)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range checks {
		var res []*vars.Regex
		switch p := c.Payload.(type) {
		case *assertion.Require:
			res = append(res, p.ArgsMatch[0].Regex, p.ResultMatch)
		case *assertion.CallFilter:
			res = append(res, p.ArgsMatch[0].Regex)
		}
		for _, re := range res {
			if re.Compiled() == nil || !re.Compiled().MatchString("a.b") || re.Compiled().MatchString("axb") {
				t.Errorf("%s: bound pattern %v does not match the literal value only", c.ID, re.Compiled())
			}
		}
	}
	// The originals stay unbound, so another test can bind other values.
	if payloads[*assertion.Require](test.Turns[0].Assert, assertion.KindRequire)[0].ResultMatch.Compiled() != nil {
		t.Error("BindChecks changed the loaded test")
	}
	if _, err := assertion.BindChecks(TurnChecks(cfg, test, 0), vars.NewVars(nil)); err == nil {
		t.Error("BindChecks without the variable succeeded")
	}
}

// TestMergeBudgets: a budget is checked like timing.max_duration_ms — a
// turn's on that turn, the nearest of the target's and the test's on the
// whole test, and false disables an inherited one.
func TestMergeBudgets(t *testing.T) {
	cfg := minimalConfig + "  assert: {budget: {max_total_tokens: 5000, max_cost_usd: 0.5}}\n"
	test := `version: "1.0"
name: t
assert: {budget: {max_total_tokens: 3000, max_cost_usd: false}}
turns:
  - user: a
    assert: {budget: {max_output_tokens: 200}}
  - user: b
`
	s, diags := loadSuite(t, map[string]string{"ananke.config.yaml": cfg, "t.ananke.yaml": test})
	if diags != nil {
		t.Fatal(diags)
	}
	c, tt := s.Config, s.Tests[0]
	checkList(t, "turn 0", TurnChecks(c, tt, 0), []string{"turn[0].budget.max_output_tokens turn 200"})
	checkList(t, "turn 1", TurnChecks(c, tt, 1), nil)
	got := TestChecks(c, tt)
	checkList(t, "test", got, []string{"test.budget.max_total_tokens test 3000"})
	if got[0].Kind != assertion.KindMaxTotalTokens {
		t.Errorf("kind %s", got[0].Kind)
	}
}
