package spec

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/vars"
)

// loadSuite writes files into a temp dir and loads the suite.
func loadSuite(t *testing.T, files map[string]string) (*Suite, diag.Diagnostics) {
	t.Helper()
	dir := writeFiles(t, files)
	s, err := Load(Options{ConfigPath: filepath.Join(dir, "ananke.config.yaml")})
	if err == nil {
		return s, nil
	}
	diags, ok := err.(diag.Diagnostics)
	if !ok {
		t.Fatal(err)
	}
	for i := range diags {
		if rel, err := filepath.Rel(dir, diags[i].Pos.File); err == nil {
			diags[i].Pos.File = filepath.ToSlash(rel)
		}
	}
	return nil, diags
}

const languageConfig = `version: "1.0"
target:
  type: agui
  endpoint: "http://127.0.0.1:1/agent"
  agentId: a
  assert:
    extends: no_errors
assertions:
  no_errors:
    text: { omits: ["Traceback", "as an AI model"] }
  fast:
    severity: warning
    timing: { max_first_event_ms: 2000, max_first_text_ms: 3000 }
  shop:
    extends: [fast]
    tools: { max_calls: 6 }
`

// TestLanguage loads every field of the assertion language and checks the
// checks each scope gets: ids, levels, severities, inheritance.
func TestLanguage(t *testing.T) {
	s, diags := loadSuite(t, map[string]string{
		"ananke.config.yaml": languageConfig,
		"order.json":         `{"type": "object", "required": ["status"]}`,
		"t.ananke.yaml": `version: "1.0"
name: everything
assert:
  extends: [shop]
  grounded: { numbers: true, ignore: ["^20\\d\\d$"] }
  state:
    /order/status: { match: "^paid$" }
turns:
  - user: "buy"
    assert:
      severity: warning
      tools:
        require:
          - { name: get_weather, severity: critical, max_duration_ms: 2000 }
        forbid_calls: [{ name: charge_card, result_match: declined, severity: warning }]
        order: [validate_cart, get_shipping_options, charge_card]
        stop_after_success: { name: charge_card, result_match: approved }
      text:
        contains: ["order placed"]
        omits: "Sorry"
        equals: "OK"
        case_sensitive: true
        json_schema: order.json
        json_path: [{ path: "$.status", equals: "ok" }, { path: "$.items", type: array }, { path: "$.debug", exists: false }]
      state:
        /cart/total: { equals: 89.5 }
        /debug: { exists: false }
      timing: { max_first_event_ms: false }
`,
	})
	if diags != nil {
		t.Fatal(diags)
	}
	test := s.Tests[0]
	var got []string
	for _, c := range TurnChecks(s.Config, test, 0) {
		got = append(got, string(c.Severity)+" "+c.ID)
	}
	want := []string{
		"critical turn[0].target.text.omits[0]",
		"critical turn[0].target.text.omits[1]",
		"critical turn[0].test.grounded",
		"warning turn[0].tools.forbid_calls[0]",
		"warning turn[0].text.omits[0]",
		"warning turn[0].tools.stop_after_success",
		"critical turn[0].test.tools.max_calls",
		"critical turn[0].tools.require[0]",
		"warning turn[0].tools.order",
		"warning turn[0].text.contains[0]",
		"warning turn[0].text.equals",
		"warning turn[0].text.json_schema",
		"warning turn[0].text.json_path[0]",
		"warning turn[0].text.json_path[1]",
		"warning turn[0].text.json_path[2]",
		"warning turn[0].state[0]",
		"warning turn[0].state[1]",
		"warning turn[0].test.timing.max_first_text_ms",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("turn checks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	got = nil
	for _, c := range TestChecks(s.Config, test) {
		got = append(got, string(c.Severity)+" "+c.ID)
	}
	want = []string{
		"critical test.target.text.omits[0]",
		"critical test.target.text.omits[1]",
		"critical test.grounded",
		"critical test.state[0]",
		"critical test.tools.max_calls",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("test checks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	tc := TurnChecks(s.Config, test, 0)
	if c := find(tc, "turn[0].text.equals").Payload.(*assertion.TextCheck); !c.CaseSensitive || c.Text != "OK" {
		t.Errorf("equals = %+v", c)
	}
	if c := find(tc, "turn[0].target.text.omits[0]"); c.Payload.(*assertion.TextCheck).CaseSensitive || c.Pos.File == test.Path {
		t.Errorf("an extended block's omits: case sensitive %v, declared in %s (want the config)", c.Payload.(*assertion.TextCheck).CaseSensitive, c.Pos.File)
	}
	if c := find(tc, "turn[0].tools.require[0]").Payload.(*assertion.Require); c.MaxDurationMs != 2000 {
		t.Errorf("require max_duration_ms = %d", c.MaxDurationMs)
	}
	bound, err := assertion.BindChecks(tc, vars.NewVars(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c := find(bound, "turn[0].state[0]").Payload.(*assertion.StateCheck); string(c.Want) != "89.5" || c.Pointer != "/cart/total" {
		t.Errorf("state check = %s %+v", c.Want, c)
	}
	if c := find(bound, "turn[0].text.json_path[0]").Payload.(*assertion.JSONPathCheck); string(c.Want) != `"ok"` || c.Path != "$.status" {
		t.Errorf("json_path check = %s %+v", c.Want, c)
	}
}

func find(cs []assertion.Check, id string) assertion.Check {
	for _, c := range cs {
		if c.ID == id {
			return c
		}
	}
	return assertion.Check{}
}

// TestLanguageErrors: every invalid use is reported at its position.
func TestLanguageErrors(t *testing.T) {
	for _, tc := range []struct {
		name, assert, want string
	}{
		{"severity", "severity: fatal", `t.ananke.yaml:6:17: turns[0].assert.severity "fatal" is not one of critical, warning`},
		{"entry severity", "tools: {require: [{name: x, severity: high}]}", `turns[0].assert.tools.require[0].severity "high" is not one of critical, warning`},
		{"order of one", "tools: {order: [a]}", "turns[0].assert.tools.order needs at least two tools to order"},
		{"order twice", "tools: {order: [a, b, a]}", "turns[0].assert.tools.order: `a` is listed twice"},
		{"max_calls", "tools: {max_calls: 0}", "turns[0].assert.tools.max_calls must be at least 1, got 0"},
		{"max_calls true", "tools: {max_calls: true}", "turns[0].assert.tools.max_calls: true is not a limit; write a number of calls"},
		{"stop without name", "tools: {stop_after_success: {result_match: ok}}", `turns[0].assert.tools.stop_after_success is missing required field "name"`},
		{"stop severity", "tools: {stop_after_success: {name: x, severity: warning}}", `unknown field "severity" in turns[0].assert.tools.stop_after_success`},
		{"require duration", "tools: {require: [{name: x, max_duration_ms: false}]}", "max_duration_ms: false has nothing to disable here"},
		{"contains empty", `text: {contains: [""]}`, "turns[0].assert.text.contains[0] is empty"},
		{"case_sensitive alone", "text: {case_sensitive: true}", "case_sensitive applies to contains, omits and equals"},
		{"schema file", "text: {json_schema: missing.json}", "turns[0].assert.text.json_schema: cannot read schema file missing.json: no such file or directory"},
		{"schema invalid", "text: {json_schema: {type: 12}}", "turns[0].assert.text.json_schema is not a valid JSON Schema"},
		{"schema list", "text: {json_schema: [1]}", "must be a schema file's path or an inline schema (a mapping), not a list"},
		{"json_path syntax", `text: {json_path: [{path: "$.[[", equals: 1}]}`, `turns[0].assert.text.json_path[0].path "$.[[" is not a JSONPath`},
		{"json_path root", `text: {json_path: [{path: "status", equals: 1}]}`, `must start at the root, $`},
		{"json_path nothing", `text: {json_path: [{path: "$.a"}]}`, "turns[0].assert.text.json_path[0] says nothing to check"},
		{"json_path type", `text: {json_path: [{path: "$.a", type: list}]}`, `type "list" is not one of string, number, boolean, object, array, null`},
		{"json_path exists false", `text: {json_path: [{path: "$.a", exists: false, equals: 1}]}`, "exists: false cannot be combined with equals"},
		{"state pointer", "state: {cart: {exists: true}}", `turns[0].assert.state: "cart" is not a JSON Pointer; write /cart/total`},
		{"state nothing", "state: {/cart: {}}", "turns[0].assert.state./cart says nothing to check"},
		{"state field", "state: {/cart: {equal: 1}}", `unknown field "equal" in turns[0].assert.state./cart (did you mean "equals"?)`},
		{"grounded false", "grounded: false", "grounded: false has nothing to disable"},
		{"grounded nothing", "grounded: {numbers: false}", "grounded checks nothing"},
		{"grounded ignore", `grounded: {numbers: true, ignore: ["("]}`, "turns[0].assert.grounded.ignore[0]: invalid regex"},
		{"first event", "timing: {max_first_event_ms: -5}", "turns[0].assert.timing.max_first_event_ms must be at least 1, got -5"},
		{"budget zero", "budget: {max_total_tokens: 0}", "turns[0].assert.budget.max_total_tokens must be at least 1, got 0"},
		{"budget true", "budget: {max_input_tokens: true}", "turns[0].assert.budget.max_input_tokens: true is not a limit; write a number of tokens"},
		{"budget cost negative", "budget: {max_cost_usd: -0.5}", "t.ananke.yaml:6:30: turns[0].assert.budget.max_cost_usd must be more than 0 US dollars, got -0.5"},
		{"budget cost zero", "budget: {max_cost_usd: 0}", "turns[0].assert.budget.max_cost_usd must be more than 0 US dollars, got 0"},
		{"budget cost text", "budget: {max_cost_usd: cheap}", "turns[0].assert.budget.max_cost_usd must be a number, not "},
		{"budget cost true", "budget: {max_cost_usd: true}", "turns[0].assert.budget.max_cost_usd: true is not a limit; write a number of US dollars"},
		{"budget cost list", "budget: {max_cost_usd: [1]}", "turns[0].assert.budget.max_cost_usd must be a number of US dollars or false, not a list"},
		{"budget empty", "budget: {}", "turns[0].assert.budget is empty: add max_input_tokens, max_output_tokens, max_total_tokens or max_cost_usd"},
		{"budget unknown", "budget: {max_tokens: 5}", `unknown field "max_tokens" in turns[0].assert.budget`},
		{"extends unknown", "extends: [no_error]", `t.ananke.yaml:6:17: extends: unknown assertions block "no_error" (did you mean "no_errors"?)`},
		{"extends clash", "{extends: [shop], tools: {max_calls: 3}}", "t.ananke.yaml:6:44) and by extends shop ("},
		{"extends nested clash", "{extends: [shop, fast]}", ""}, // a block reached twice counts once
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := loadSuite(t, map[string]string{
				"ananke.config.yaml": languageConfig,
				"t.ananke.yaml":      "version: \"1.0\"\nname: t\nturns:\n  - user: hi\n    assert:\n      " + tc.assert + "\n",
			})
			switch {
			case tc.want == "" && diags != nil:
				t.Errorf("diagnostics:\n%s", diags)
			case tc.want != "" && !hasDiag(diags, tc.want):
				t.Errorf("diagnostics:\n%s\nwant one containing %q", diags, tc.want)
			}
		})
	}
}

// TestExtendsErrors: cycles and unknown names inside the config's blocks.
func TestExtendsErrors(t *testing.T) {
	cfg := `version: "1.0"
target: {type: agui, endpoint: "http://127.0.0.1:1/a", agentId: a}
assertions:
  a: {extends: b}
  b: {extends: [c]}
  c: {extends: a}
  d: {extends: nowhere}
  e: [1]
`
	_, diags := loadSuite(t, map[string]string{"ananke.config.yaml": cfg, "t.ananke.yaml": "version: \"1.0\"\nname: t\nturns: [{user: hi}]\n"})
	if n := strings.Count(diags.Error(), "extends itself"); n != 1 {
		t.Errorf("the cycle is reported %d times, want once:\n%s", n, diags)
	}
	for _, want := range []string{
		`ananke.config.yaml:6:16: extends: "a" extends itself (a > b > c > a)`,
		`ananke.config.yaml:7:16: extends: unknown assertions block "nowhere" (the config defines: a, b, c, d)`,
		`ananke.config.yaml:8:6: assertions.e must be a mapping, not a list`,
	} {
		if !hasDiag(diags, want) {
			t.Errorf("diagnostics:\n%s\nwant %q", diags, want)
		}
	}
}

// TestLanguageExamples: every example suite using the language loads.
func TestLanguageRefs(t *testing.T) {
	_, diags := loadSuite(t, map[string]string{
		"ananke.config.yaml": languageConfig,
		"t.ananke.yaml": `version: "1.0"
name: t
turns:
  - user: hi
    assert:
      text: {contains: ["${ORDER}"], json_path: [{path: "$.id", equals: "${ORDER}"}]}
      state: {/id: {match: "${ORDER}"}}
`,
	})
	if n := strings.Count(diags.Error(), "unknown variable ${ORDER}: this test has no hooks"); n != 3 {
		t.Errorf("%d unknown-variable errors, want 3:\n%s", n, diags)
	}
}
