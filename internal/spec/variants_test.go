package spec

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"
)

// variantBase is a config whose target the variants below override:
// line 2 is target:, line 12 variants:.
const variantBase = `version: "1.0"
target:
  type: agui
  endpoint: "http://127.0.0.1:1/agent"
  agentId: a
  headers: {X-Team: qa}
  forwardedProps: {tier: free, locale: en}
  server:
    command: [node, agent.js]
    env: {MODEL_BEHAVIOUR: plain, PORT: "4111"}
gateway: {listen: "127.0.0.1:0", upstream: "http://127.0.0.1:2/v1"}
variants:
`

func envOf(tg *Target) map[string]string {
	out := map[string]string{}
	if tg.Server != nil {
		for _, e := range tg.Server.Env {
			out[e.Name] = e.Value.Raw
		}
	}
	return out
}

// TestVariantsRead: each variant's target is the config's with the
// variant's merged over it (mappings key by key, lists and values
// replaced), its overrides listed as paths, its gateway model and its
// stability read.
func TestVariantsRead(t *testing.T) {
	cfg := mustConfig(t, variantBase+`  - name: baseline
  - name: careful.v2
    target:
      server:
        env: {MODEL_BEHAVIOUR: careful}
        command: [node, agent2.js]
      forwardedProps: {tier: pro}
    gateway: {model: gpt-4o}
    runs: 5
    min_pass_rate: 80
    retries: 1
  - name: other_host
    target: {endpoint: "http://127.0.0.1:3/agent", headers: {X-Other: b}}
`)
	if len(cfg.Variants) != 3 {
		t.Fatalf("variants = %d, want 3", len(cfg.Variants))
	}
	base, careful, other := cfg.Variants[0], cfg.Variants[1], cfg.Variants[2]
	if base.Name != "baseline" || base.Pos.Line != 13 || base.Target == nil || base.Target.Endpoint.Raw != cfg.Target.Endpoint.Raw || len(base.Overrides) != 0 || base.GatewayModel != "" || base.Stability.RunsSet() {
		t.Errorf("baseline = %+v", base)
	}
	for _, tc := range []struct {
		name string
		got  any
		want any
	}{
		{"careful env", envOf(careful.Target), map[string]string{"MODEL_BEHAVIOUR": "careful", "PORT": "4111"}},
		{"careful command", careful.Target.Server.Command[1].Raw, "agent2.js"},
		{"careful command length", len(careful.Target.Server.Command), 2},
		{"careful env pos", careful.Target.Server.Env[0].Value.Pos.Line, 17},
		{"careful endpoint kept", careful.Target.Endpoint.Raw, "http://127.0.0.1:1/agent"},
		{"careful agentId kept", careful.Target.AgentID.Raw, "a"},
		{"careful overrides", strings.Join(careful.Overrides, " "), "server.env.MODEL_BEHAVIOUR server.command forwardedProps.tier gateway.model runs min_pass_rate retries"},
		{"careful model", careful.GatewayModel, "gpt-4o"},
		{"careful runs", careful.Stability.Runs, 5},
		{"careful min_pass_rate", *careful.Stability.MinPassRate, 80.0},
		{"careful retries", *careful.Stability.Retries, 1},
		{"other endpoint", other.Target.Endpoint.Raw, "http://127.0.0.1:3/agent"},
		{"other headers", len(other.Target.Headers), 2},
		{"other overrides", strings.Join(other.Overrides, " "), "endpoint headers.X-Other"},
		{"config env untouched", envOf(&cfg.Target)["MODEL_BEHAVIOUR"], "plain"},
	} {
		if !equalAny(tc.got, tc.want) {
			t.Errorf("%s = %v, want %v", tc.name, tc.got, tc.want)
		}
	}
	if none := mustConfig(t, minimalConfig); none.Variants != nil {
		t.Errorf("a config without variants: has %d", len(none.Variants))
	}
}

func equalAny(a, b any) bool {
	am, ok1 := a.(map[string]string)
	bm, ok2 := b.(map[string]string)
	if ok1 && ok2 {
		if len(am) != len(bm) {
			return false
		}
		for k, v := range am {
			if bm[k] != v {
				return false
			}
		}
		return true
	}
	return a == b
}

// TestVariantsMergeKeys: a target built with YAML anchors and merge keys
// merges as written out.
func TestVariantsMergeKeys(t *testing.T) {
	cfg := mustConfig(t, `version: "1.0"
x-server: &srv
  command: [node, agent.js]
  env: {A: "1"}
target:
  type: agui
  endpoint: "http://127.0.0.1:1/agent"
  agentId: a
  server:
    <<: *srv
    cwd: app
variants:
  - name: b
    target:
      server: {env: {B: "2"}}
`)
	tg := cfg.Variants[0].Target
	if got := envOf(tg); len(got) != 2 || got["A"] != "1" || got["B"] != "2" || tg.Server.Cwd.Raw != "app" || len(tg.Server.Command) != 2 {
		t.Errorf("merged server = %+v, env %v", tg.Server, got)
	}
}

// TestVariantsErrors: every problem is reported, at once, at the line
// and column it is written.
func TestVariantsErrors(t *testing.T) {
	for _, tc := range []struct {
		name, variants string
		want           []string
	}{
		{"no name", "  - runs: 2\n", []string{`ananke.config.yaml:13:5: variants[0] is missing required field "name"`}},
		{"bad name", "  - name: \"a b\"\n  - name: x@y\n", []string{
			`ananke.config.yaml:13:11: variants[0].name "a b" may hold only letters, digits, '-', '_' and '.'`,
			`ananke.config.yaml:14:11: variants[1].name "x@y" may hold only letters, digits, '-', '_' and '.'`}},
		{"reserved", "  - name: all\n", []string{`ananke.config.yaml:13:11: variants[0].name "all" is reserved`}},
		{"twice", "  - name: a\n  - name: a\n", []string{`ananke.config.yaml:14:11: variant "a" is named twice (first at line 13)`}},
		{"empty", "  []\n", []string{`ananke.config.yaml:13:3: variants must list at least one variant`}},
		{"not a list", "  name: a\n", []string{`ananke.config.yaml:13:3: variants must be a list, not a mapping`}},
		{"unknown key", "  - name: a\n    targt: {}\n", []string{`ananke.config.yaml:14:5: unknown field "targt" in variants[0] (did you mean "target"?)`}},
		{"unknown target key", "  - name: a\n    target: {agentID: b}\n", []string{`ananke.config.yaml:14:14: unknown field "agentID" in target (did you mean "agentId"?)`}},
		{"type change", "  - name: a\n    target: {type: a2a}\n", []string{`ananke.config.yaml:14:20: variant a: a variant cannot change target.type (the config's is "agui"); write another config for a target of type "a2a"`}},
		{"bad value", "  - name: a\n    target:\n      endpoint: ftp://x\n      timeout_ms: 0\n", []string{
			`ananke.config.yaml:15:17: target.endpoint "ftp://x" is not an http:// or https:// URL`,
			`ananke.config.yaml:16:19: target.timeout_ms must be at least 1, got 0`}},
		{"bad env", "  - name: a\n    target: {server: {env: {\"1X\": b}}}\n", []string{`ananke.config.yaml:14:29: target.server.env: "1X" is not a valid environment variable name`}},
		{"key twice", "  - name: a\n    target:\n      agentId: b\n      agentId: c\n", []string{`ananke.config.yaml:16:7: "agentId" is set twice in target (first at line 15)`}},
		{"not a mapping", "  - name: a\n    target: [x]\n", []string{`ananke.config.yaml:14:13: variant a: target must be a mapping, not a list`}},
		{"gateway", "  - name: a\n    gateway: {modle: x}\n  - name: b\n    gateway: {model: \"\"}\n", []string{
			`ananke.config.yaml:14:15: unknown field "modle" in variants[0].gateway (did you mean "model"?)`,
			`ananke.config.yaml:14:14: variants[0].gateway is missing required field "model"`,
			`ananke.config.yaml:16:22: variants[1].gateway.model must not be empty`}},
		{"stability", "  - name: a\n    runs: 0\n    min_pass_rate: 101\n    retries: x\n", []string{
			`ananke.config.yaml:14:11: variants[0].runs must be between 1 and 1000, got 0`,
			`ananke.config.yaml:15:20: variants[0].min_pass_rate must be a percentage from 0 to 100, got 101`,
			`ananke.config.yaml:16:14: variants[0].retries must be a whole number, not a string`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := parseConfig(t, variantBase+tc.variants)
			got := diags.Sorted().Error()
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("diagnostics:\n%s\nwant one containing %q", got, w)
				}
			}
			if n := len(diags.Sorted()); n != len(tc.want) {
				t.Errorf("%d diagnostics, want %d:\n%s", n, len(tc.want), got)
			}
		})
	}
}

// TestVariantsCombined: a problem only the merge brings about, written in
// the config's target, names the variant; one the config's target has
// alone is reported once.
func TestVariantsCombined(t *testing.T) {
	_, diags := parseConfig(t, `version: "1.0"
target:
  type: agui
  endpoint: "http://127.0.0.1:1/agent"
  agentId: a
  server:
    command: [node, agent.js]
    ready_log: "listening"
    bogus: 1
variants:
  - name: polled
    target:
      server: {ready_url: "http://127.0.0.1:1/ready"}
  - name: fine
    target:
      server: {cwd: app}
`)
	got := diags.Sorted()
	want := []string{
		`ananke.config.yaml:8:5: target.server: set ready_url or ready_log, not both (in variant polled)`,
		`ananke.config.yaml:9:5: unknown field "bogus" in target.server; known fields: command, cwd, env, ready_url, ready_log, timeout_ms, reuse_existing`,
	}
	var lines []string
	for _, d := range got {
		lines = append(lines, d.String())
	}
	if !slices.Equal(lines, want) {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

// TestVariantsGatewayNeedsGateway: gateway.model in a config without a
// gateway says so.
func TestVariantsGatewayNeedsGateway(t *testing.T) {
	_, diags := parseConfig(t, minimalConfig+"variants:\n  - name: a\n    gateway: {model: m}\n")
	want := `ananke.config.yaml:8:15: variants[0].gateway.model: the config has no gateway:, so no model call goes through one`
	if got := diags.Error(); got != want {
		t.Errorf("diagnostics:\n%s\nwant %s", got, want)
	}
}

// TestVariantsLoad: a variant's target is checked with the suite as the
// config's is: its references, its environment and its assert block.
func TestVariantsLoad(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"ananke.config.yaml": minimalConfig + `variants:
  - name: keyed
    target:
      headers: {Authorization: "Bearer ${ENV.VARIANT_KEY}"}
      server: {command: [node, "${PORT}"]}
      assert: {extends: [missing]}
`,
		"t.ananke.yaml": "version: \"1.0\"\nname: t\nturns: [{user: hi}]\n",
	})
	_, err := Load(Options{ConfigPath: dir + "/ananke.config.yaml"})
	got := ""
	if err != nil {
		got = err.Error()
	}
	for _, want := range []string{
		`ananke.config.yaml:10:32: unknown variable ${PORT}: target.server starts before any hook runs`,
		`ananke.config.yaml:11:26: extends: unknown assertions block "missing"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("load error:\n%s\nwant one containing %q", got, want)
		}
	}
	cfg := mustConfig(t, minimalConfig+"variants:\n  - name: keyed\n    target: {headers: {Authorization: \"Bearer ${ENV.VARIANT_KEY}\"}}\n")
	s := &Suite{Config: cfg}
	env := CheckEnv(s, func(string) (string, bool) { return "", false })
	if len(env) != 1 || !strings.Contains(env[0].String(), "ananke.config.yaml:8:47: environment variable VARIANT_KEY is not set") {
		t.Errorf("CheckEnv = %v", env)
	}
	secrets := EnvSecrets(s, func(k string) (string, bool) { return "s3cret-" + k, true })
	if !slices.Contains(secrets, "s3cret-VARIANT_KEY") {
		t.Errorf("EnvSecrets = %v, want the variant's key", secrets)
	}
}

// TestSchemaVariants: the published config schema accepts what the loader
// accepts of variants: and rejects what it rejects (but what only the
// merge shows).
func TestSchemaVariants(t *testing.T) {
	schema := compileSchema(t, "config")
	for _, tc := range []struct {
		name, variants string
		ok             bool
	}{
		{"partial target", "  - name: careful\n    target: {server: {env: {M: careful}}, auth: {scheme: bearer}}\n    gateway: {model: gpt-4o}\n    runs: {min: 2, max: 5}\n    retries: 1\n", true},
		{"name only", "  - name: a.b_c-1\n", true},
		{"no name", "  - runs: 2\n", false},
		{"bad name", "  - name: a@b\n", false},
		{"reserved name", "  - name: all\n", false},
		{"unknown key", "  - name: a\n    targt: {}\n", false},
		{"unknown target key", "  - name: a\n    target: {agentID: b}\n", false},
		{"gateway without model", "  - name: a\n    gateway: {}\n", false},
		{"empty", "  []\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var v any
			if err := yaml.Unmarshal([]byte(variantBase+tc.variants), &v); err != nil {
				t.Fatal(err)
			}
			js, _ := json.Marshal(v)
			doc, _ := jsonschema.UnmarshalJSON(bytes.NewReader(js))
			if err := schema.Validate(doc); (err == nil) != tc.ok {
				t.Errorf("Validate = %v; want ok %v", err, tc.ok)
			}
		})
	}
}
