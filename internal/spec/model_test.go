package spec

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/assertion"
)

const modelConfig = `version: "1.0"
target: {type: agui, endpoint: "http://127.0.0.1:1/agent", agentId: a}
model:
  endpoint: "http://127.0.0.1:2/v1"
  name: gpt-4o-mini
  api_key: "${ENV.OPENAI_API_KEY}"
  temperature: 0
  seed: 7
  timeout_ms: 5000
  cache: false
  prompts: {judge: prompts/judge.md}
`

func TestModelAndDynamicTest(t *testing.T) {
	s, diags := loadSuite(t, map[string]string{
		"ananke.config.yaml": modelConfig,
		"t.ananke.yaml": `version: "1.0"
name: expense
simulator: { persona: "new employee", goal: "submit a $3500 travel expense", instructions: "be brief" }
max_turns: 5
timeout_ms: 30000
checkpoints:
  - id: ask_type
    description: the agent asks which kind of expense
    assert: { text: { contains: ["type"] } }
  - id: call_create
    after: [ask_type]
    assert: { tools: { require: [{ name: create_expense }] } }
assert:
  judge: { criteria: ["asks for confirmation before charging", "stays polite"], severity: critical }
`,
	})
	if diags != nil {
		t.Fatal(diags)
	}
	m := s.Config.Model
	if m.Name.Value != "gpt-4o-mini" || *m.Temperature != 0 || *m.Seed != 7 || m.TimeoutMs != 5000 || m.Cache != "" || m.Prompts["judge"] != "prompts/judge.md" || m.APIKey.Refs()[0].Name != "OPENAI_API_KEY" {
		t.Errorf("model = %+v", m)
	}
	test := s.Tests[0]
	if test.Simulator == nil || test.Simulator.Goal.Raw != "submit a $3500 travel expense" || test.MaxTurns != 5 || test.SimulatorTimeoutMs != 30000 || len(test.Turns) != 0 {
		t.Errorf("dynamic test = %+v", test)
	}
	if len(test.Checkpoints) != 2 || test.Checkpoints[1].After[0].Value != "ask_type" {
		t.Errorf("checkpoints = %+v", test.Checkpoints)
	}
	checks := TestChecks(s.Config, test)
	if len(checks) != 1 || checks[0].Kind != assertion.KindJudge || checks[0].Severity != assertion.Critical || len(checks[0].Judge().Criteria) != 2 {
		t.Errorf("test checks = %+v", checks)
	}
	if cc := CheckpointChecks(s.Config, test, &test.Checkpoints[1], 2); len(cc) != 1 || cc[0].ID != "turn[2].checkpoints.call_create.tools.require[0]" {
		t.Errorf("checkpoint checks = %+v", cc)
	}
	// A simulated turn has no block of its own.
	if tc := TurnChecks(s.Config, test, 3); len(tc) != 0 {
		t.Errorf("simulated turn checks = %+v", tc)
	}
}

func TestModelErrors(t *testing.T) {
	for _, tc := range []struct {
		name, config, test, want string
	}{
		{"judge without model", minimalConfig, "turns: [{user: hi, assert: {judge: {criteria: [x]}}}]",
			"t.ananke.yaml:3:36: a judge needs a language model: add a model: section to the config"},
		{"simulator without model", minimalConfig, "simulator: {goal: g}\ncheckpoints: [{id: a, assert: {text: {contains: [x]}}}]",
			"t.ananke.yaml:3:12: a simulator needs a language model"},
		{"judge default severity", modelConfig, "turns: [{user: hi, assert: {judge: {criteria: []}}}]", ""},
		{"judge criteria missing", modelConfig, "turns: [{user: hi, assert: {judge: {severity: critical}}}]", `turns[0].assert.judge is missing required field "criteria"`},
		{"judge repeated", modelConfig, "turns: [{user: hi, assert: {judge: {criteria: [a, A]}}}]", "turns[0].assert.judge.criteria[1] repeats an earlier criterion"},
		{"judge severity", modelConfig, "turns: [{user: hi, assert: {judge: {criteria: [a], severity: low}}}]", `severity "low" is not one of critical, warning`},
		{"no turns", modelConfig, "assert: {}", `test is missing required field "turns" (or a simulator, or a source)`},
		{"checkpoints without simulator", modelConfig, "turns: [{user: hi}]\nmax_turns: 3\ncheckpoints: []",
			"max_turns belongs to a dynamic test: add a simulator, or remove it"},
		{"simulator without checkpoints", modelConfig, "simulator: {goal: g}", "a simulator needs checkpoints"},
		{"simulator goal", modelConfig, "simulator: {persona: p}\ncheckpoints: [{id: a, assert: {text: {contains: [x]}}}]", `simulator is missing required field "goal"`},
		{"max_turns", modelConfig, "simulator: {goal: g}\nmax_turns: 0\ncheckpoints: [{id: a, assert: {text: {contains: [x]}}}]", "max_turns must be between 1 and 100, got 0"},
		{"checkpoint id twice", modelConfig, "simulator: {goal: g}\ncheckpoints: [{id: a, assert: {}}, {id: a, assert: {}}]", `checkpoint "a" is declared twice`},
		{"after unknown", modelConfig, "simulator: {goal: g}\ncheckpoints: [{id: a, after: [b], assert: {}}]", `after: unknown checkpoint "b" (checkpoints: a)`},
		{"after itself", modelConfig, "simulator: {goal: g}\ncheckpoints: [{id: a, after: a, assert: {}}]", `checkpoint "a" cannot come after itself`},
		{"after cycle", modelConfig, "simulator: {goal: g}\ncheckpoints: [{id: a, after: [c], assert: {}}, {id: b, after: [a], assert: {}}, {id: c, after: [b], assert: {}}]",
			"checkpoints wait for each other: a after c after b after a"},
		{"checkpoint assert", modelConfig, "simulator: {goal: g}\ncheckpoints: [{id: a}]", `checkpoints[0] is missing required field "assert"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := loadSuite(t, map[string]string{"ananke.config.yaml": tc.config, "t.ananke.yaml": "version: \"1.0\"\nname: t\n" + tc.test + "\n"})
			switch {
			case tc.want == "" && diags != nil && !strings.Contains(diags.Error(), "criteria"):
				t.Errorf("diagnostics:\n%s", diags)
			case tc.want != "" && !hasDiag(diags, tc.want):
				t.Errorf("diagnostics:\n%s\nwant one containing %q", diags, tc.want)
			}
			if n := strings.Count(diags.Error(), "wait for each other"); n > 1 {
				t.Errorf("the cycle is reported %d times", n)
			}
		})
	}
	_, diags := loadSuite(t, map[string]string{"ananke.config.yaml": strings.Replace(modelConfig, "${ENV.OPENAI_API_KEY}", "${KEY}", 1),
		"t.ananke.yaml": "version: \"1.0\"\nname: t\nturns: [{user: hi}]\n"})
	if !hasDiag(diags, "ananke.config.yaml:6:12: unknown variable ${KEY}: the model is set up before any hook runs") {
		t.Errorf("diagnostics:\n%s", diags)
	}
	_, diags = parseConfig(t, `version: "1.0"
target: {type: agui, endpoint: "http://127.0.0.1:1/agent", agentId: a}
model: {endpoint: "ftp://x", name: m, temperature: 3, cache: true, prompts: {judges: x}}
`)
	for _, want := range []string{`model.endpoint "ftp://x" is not an http:// or https:// URL`, "model.temperature must be a number from 0 to 2, got 3",
		"model.cache: true is the default", `unknown field "judges" in model.prompts (did you mean "judge"?)`} {
		if !hasDiag(diags, want) {
			t.Errorf("config diagnostics:\n%s\nwant %q", diags, want)
		}
	}
}
