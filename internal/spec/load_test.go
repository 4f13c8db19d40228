package spec

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/vars"
)

func TestConfigFields(t *testing.T) {
	cfg := mustConfig(t, `version: "1.0"
tests: ["tests/**/*.ananke.yaml"]
redact: ["sk-[a-z0-9]+"]
target:
  type: agui
  endpoint: "http://localhost:8000/agent"
  agentId: shop
  headers:
    Authorization: "Bearer ${ENV.TOKEN}"
    X-Client: ananke
  timeout_ms: 5000
  threadId: fixed-thread
  protocol_version: false
  strict_protocol: true
  max_followups: 2
  server:
    command: ["go", "run", "./agent"]
    cwd: ..
    env: {PORT: "8000"}
    ready_log: "listening on"
    reuse_existing: true
`)
	tg := cfg.Target
	if tg.Type != "agui" || tg.Endpoint.Raw != "http://localhost:8000/agent" || tg.AgentID.Raw != "shop" || tg.TimeoutMs != 5000 {
		t.Errorf("target = %+v", tg)
	}
	if tg.ProtocolVersion != "" || !tg.StrictProtocol || tg.MaxFollowups != 2 || tg.ThreadID.Raw != "fixed-thread" {
		t.Errorf("protocol/strict/followups/thread = %q %v %d %q", tg.ProtocolVersion, tg.StrictProtocol, tg.MaxFollowups, tg.ThreadID.Raw)
	}
	if len(tg.Headers) != 2 || tg.Headers[0].Name != "Authorization" || tg.Headers[0].Value.Refs()[0].Name != "TOKEN" {
		t.Errorf("headers = %+v", tg.Headers)
	}
	s := tg.Server
	if s == nil || len(s.Command) != 3 || s.Cwd.Raw != ".." || s.Env[0].Name != "PORT" || s.ReadyLog.String() != "listening on" || !s.ReuseExisting || s.TimeoutMs != DefaultServerTimeoutMs {
		t.Errorf("server = %+v", s)
	}
	if len(cfg.Tests) != 1 || len(cfg.Redact) != 1 || !cfg.Redact[0].Compiled().MatchString("key sk-abc1") {
		t.Errorf("tests/redact = %v %v", cfg.Tests, cfg.Redact)
	}
}

func TestConfigDefaults(t *testing.T) {
	tg := mustConfig(t, minimalConfig).Target
	if tg.TimeoutMs != DefaultRunTimeoutMs || tg.ProtocolVersion != "1.0" || tg.MaxFollowups != DefaultMaxFollowups || !tg.ThreadID.IsZero() || tg.Server != nil || tg.Assert != nil {
		t.Errorf("defaults = %+v", tg)
	}
}

func TestTestFields(t *testing.T) {
	tt := mustTest(t, `version: "1.0"
name: full
id: checkout/happy
tags: [smoke, checkout]
skip: "agent v2 only"
hooks:
  - cmd: ["bash", "seed.sh"]
  - cmd: ["bash", "more.sh", "${CART}"]
    timeout_ms: 500
history:
  - {role: system, content: "You are a shop."}
  - {role: assistant, content: "Hello!"}
turns:
  - user: 42
  - type: agui:connect
    assert:
      tools:
        require:
          - name: charge
            count: {min: 0, max: 3}
            args_match: {"customer.email": "@example\\.com$", items.0.sku: "^A"}
            after: validate
`)
	if tt.ID != "checkout/happy" || tt.Name.Value != "full" || tt.Skip != "agent v2 only" || len(tt.Tags) != 2 {
		t.Errorf("header fields = %q %q %q %v", tt.ID, tt.Name.Value, tt.Skip, tt.Tags)
	}
	if len(tt.Hooks) != 2 || tt.Hooks[0].TimeoutMs != DefaultHookTimeoutMs || tt.Hooks[1].TimeoutMs != 500 {
		t.Errorf("hooks = %+v", tt.Hooks)
	}
	if len(tt.History) != 2 || tt.History[1].Role != "assistant" {
		t.Errorf("history = %+v", tt.History)
	}
	if tt.Turns[0].Type != TurnUser || tt.Turns[0].User.Raw != "42" || tt.Turns[1].Type != TurnConnect {
		t.Errorf("turns = %+v", tt.Turns)
	}
	r := payloads[*assertion.Require](tt.Turns[1].Assert, assertion.KindRequire)[0]
	if r.Count.Min != 0 || r.Count.Max != 3 || r.Count.String() != "at most 3 times" || r.After.Value != "validate" {
		t.Errorf("require = %+v", r)
	}
	if paths := []string{r.ArgsMatch[0].Path, r.ArgsMatch[1].Path}; !slices.Equal(paths, []string{"customer.email", "items.0.sku"}) {
		t.Errorf("args_match paths = %v", paths)
	}
}

func TestShortAndLongForms(t *testing.T) {
	tt := mustTest(t, `version: "1.0"
name: forms
turns:
  - user: hi
    assert:
      tools: {forbid: one_tool}
      text: {must_match: "single", must_not_match: ["a", "b"]}
  - user: hi
    assert:
      tools:
        require:
          - {name: a, count: {exact: 0}}
          - {name: b, count: {min: 2}}
          - {name: c}
`)
	a := tt.Turns[0].Assert
	if len(a.Items(assertion.KindForbid)) != 1 || len(a.Items(assertion.KindMustMatch)) != 1 || len(a.Items(assertion.KindMustNotMatch)) != 2 {
		t.Errorf("short forms = %+v", a)
	}
	var counts []string
	for _, r := range payloads[*assertion.Require](tt.Turns[1].Assert, assertion.KindRequire) {
		counts = append(counts, r.Count.String())
	}
	if want := []string{"exactly 0 times", "at least 2 times", "at least 1 time"}; !slices.Equal(counts, want) {
		t.Errorf("counts = %q; want %q", counts, want)
	}
}

func TestAliasesAndMerges(t *testing.T) {
	tt := mustTest(t, `version: "1.0"
name: anchors
x-common: &common
  tools: {forbid: [rm_rf]}
turns:
  - user: one
    assert: *common
  - user: two
    assert:
      <<: *common
      text: {must_match: ok}
`)
	if a := tt.Turns[0].Assert; len(a.Items(assertion.KindForbid)) != 1 || payloads[assertion.Tool](a, assertion.KindForbid)[0].Name.Value != "rm_rf" {
		t.Errorf("aliased block = %+v", a)
	}
	if a := tt.Turns[1].Assert; len(a.Items(assertion.KindForbid)) != 1 || len(a.Items(assertion.KindMustMatch)) != 1 {
		t.Errorf("merged block = %+v; want the merged forbid and its own must_match", a)
	}
	_, diags := parseTest(t, `version: "1.0"
name: anchors
turns:
  - user: one
    assert: &a {tools: {forbid: [x]}}
  - user: two
    assert: *a
`)
	if len(diags) != 0 {
		t.Fatalf("aliases: %v", diags)
	}
}

// TestAliasBomb: a "billion laughs" document is rejected quickly with one
// diagnostic instead of being expanded.
func TestAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("version: \"1.0\"\nname: bomb\nx-a0: &a0 [x,x,x,x,x,x,x,x,x,x]\n")
	for i := 1; i <= 9; i++ {
		b.WriteString("x-a" + itoa(i) + ": &a" + itoa(i) + " [")
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(",")
			}
			b.WriteString("*a" + itoa(i-1))
		}
		b.WriteString("]\n")
	}
	b.WriteString("tools: [{name: t, result: x, parameters: {bomb: *a9}}]\nturns: [{user: hi}]\n")
	_, diags := parseTest(t, b.String())
	if len(diags) != 1 || !hasDiag(diags, "aliases expand to more than 10000 nodes") {
		t.Fatalf("diagnostics = %v; want the alias budget reported once", diags)
	}
}

func itoa(i int) string { return string(rune('0' + i)) }

func TestFileFaults(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"ananke.config.yaml":  minimalConfig,
		"bin.ananke.yaml":     "version: \"1.0\"\x00\x01",
		"latin1.ananke.yaml":  "name: caf\xe9\n",
		"empty.ananke.yaml":   "",
		"comment.ananke.yaml": "# only a comment\n",
	})
	big := filepath.Join(dir, "big.ananke.yaml")
	if err := os.WriteFile(big, make([]byte, maxFileSize+1), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(Options{ConfigPath: filepath.Join(dir, "ananke.config.yaml")})
	var diags diag.Diagnostics
	if !errors.As(err, &diags) {
		t.Fatalf("Load = %v; want diagnostics", err)
	}
	for _, want := range []string{
		"big.ananke.yaml: file is larger than 4 MiB",
		"bin.ananke.yaml:1:1: not a text file",
		"latin1.ananke.yaml:1:1: file is not valid UTF-8",
		"empty.ananke.yaml:1:1: file is empty",
		"comment.ananke.yaml:1:1: file is empty",
	} {
		if !hasDiag(diags, want) {
			t.Errorf("missing %q in\n%s", want, diags.Error())
		}
	}
}

func TestDiscovery(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"ananke.config.yaml":             minimalConfig,
		"a.ananke.yaml":                  "x",
		"sub/b.ananke.yml":               "x",
		"sub/not-a-test.yaml":            "x",
		"node_modules/pkg/c.ananke.yaml": "x",
		".git/d.ananke.yaml":             "x",
		"vendor/e.ananke.yaml":           "x",
		"other/deep/f.ananke.yaml":       "x",
		"globbed/x/g.ananke.yaml":        "x",
		"globbed/x/ananke.config.yaml":   "x",
	})
	rel := func(files []string) []string {
		var out []string
		for _, f := range files {
			r, _ := filepath.Rel(dir, f)
			out = append(out, filepath.ToSlash(r))
		}
		return out
	}
	cfg := &Config{Path: filepath.Join(dir, "ananke.config.yaml"), Dir: dir}
	var diags diag.Diagnostics
	files, err := Discover(cfg, nil, &diags)
	if err != nil || len(diags) > 0 {
		t.Fatal(err, diags)
	}
	if got, want := rel(files), []string{"a.ananke.yaml", "globbed/x/g.ananke.yaml", "other/deep/f.ananke.yaml", "sub/b.ananke.yml"}; !slices.Equal(got, want) {
		t.Errorf("default discovery = %q; want %q", got, want)
	}
	files, _ = Discover(cfg, []string{filepath.Join(dir, "sub"), filepath.Join(dir, "a.ananke.yaml"), filepath.Join(dir, "a.ananke.yaml")}, &diags)
	if got, want := rel(files), []string{"a.ananke.yaml", "sub/b.ananke.yml"}; !slices.Equal(got, want) {
		t.Errorf("explicit paths = %q; want %q", got, want)
	}
	cfg.Tests = []vars.Name{{Value: "other/**/*.ananke.yaml"}, {Value: "nothing/*.yaml", Pos: diag.Pos{File: "c", Line: 2, Col: 3}}}
	files, _ = Discover(cfg, nil, &diags)
	if got, want := rel(files), []string{"other/deep/f.ananke.yaml"}; !slices.Equal(got, want) {
		t.Errorf("globs = %q; want %q", got, want)
	}
	up := &Config{Path: filepath.Join(dir, "sub", "c.yaml"), Dir: filepath.Join(dir, "sub"), Tests: []vars.Name{{Value: "../other/**/*.ananke.yaml"}, {Value: "b.ananke.yml"}}}
	if files, _ = Discover(up, nil, &diags); !slices.Equal(rel(files), []string{"other/deep/f.ananke.yaml", "sub/b.ananke.yml"}) {
		t.Errorf("globs leaving the config's directory = %q", rel(files))
	}
	if !hasDiag(diags, `c:2:3: tests: "nothing/*.yaml" matches no files`) {
		t.Errorf("diagnostics = %v", diags)
	}
	diags = nil
	if _, _ = Discover(cfg, []string{filepath.Join(dir, "missing")}, &diags); !hasDiag(diags, "no such file or directory") {
		t.Errorf("missing path diagnostics = %v", diags)
	}
}

func TestDefaultIDsAndDuplicates(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"ananke.config.yaml":       minimalConfig,
		"tests/refund.ananke.yaml": "version: \"1.0\"\nname: r\nturns: [{user: hi}]\n",
		"tests/other.ananke.yml":   "version: \"1.0\"\nname: o\nid: tests/refund\nturns: [{user: hi}]\n",
		"tests/deep/x.ananke.yaml": "version: \"1.0\"\nname: x\nturns: [{user: hi}]\n",
	})
	var diags diag.Diagnostics
	a := LoadTest(filepath.Join(dir, "tests", "deep", "x.ananke.yaml"), dir, &diags)
	if a.ID != "tests/deep/x" {
		t.Errorf("default id = %q; want tests/deep/x", a.ID)
	}
	_, err := Load(Options{ConfigPath: filepath.Join(dir, "ananke.config.yaml")})
	if err == nil || !strings.Contains(err.Error(), `test id "tests/refund" is also used by`) {
		t.Errorf("Load = %v; want a duplicate id diagnostic", err)
	}
}

func TestCheckEnv(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"ananke.config.yaml": minimalConfig + "  headers: {Authorization: \"Bearer ${ENV.TOKEN}\"}\n",
		"a.ananke.yaml":      "version: \"1.0\"\nname: a\nturns: [{user: \"${ENV.GREETING}\"}]\n",
		"s.ananke.yaml":      "version: \"1.0\"\nname: s\nskip: later\nturns: [{user: \"${ENV.SKIPPED}\"}]\n",
	})
	s, err := Load(Options{ConfigPath: filepath.Join(dir, "ananke.config.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	diags := CheckEnv(s, func(k string) (string, bool) { return "v", k == "GREETING" })
	if len(diags) != 1 || !strings.Contains(diags[0].String(), "ananke.config.yaml:6:36: environment variable TOKEN is not set") {
		t.Errorf("CheckEnv = %v; want only TOKEN reported at its position", diags)
	}
}

// TestEnvSecrets: what the action masks before anything is printed — the
// environment values outside URL fields, and the secrets of URL fields
// (their passwords and query values), not a whole URL from the
// environment; a URL field a hook fills too counts its ENV values whole.
func TestEnvSecrets(t *testing.T) {
	env := map[string]string{"AGENT_URL": "https://agent.example/agui?key=sk-from-url", "TOKEN": "tok-123", "GREETING": "hello there",
		"CARD_HOST": "cards.example", "SKIPPED": "never-read"}
	getenv := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	for _, tc := range []struct {
		name, target string
		want         []string
	}{
		{"the endpoint from the environment", "  endpoint: \"${ENV.AGENT_URL}\"\n  agentId: a\n", []string{"hello there", "sk-from-url", "tok-123"}},
		{"a card URL with a literal key", "  agentCardUrl: \"https://${ENV.CARD_HOST}/card?sig=literal-sig\"\n",
			[]string{"hello there", "literal-sig", "tok-123"}},
		{"an endpoint a hook fills too", "  endpoint: \"${ENV.AGENT_URL}/${ORDER}\"\n  agentId: a\n",
			[]string{"hello there", "https://agent.example/agui?key=sk-from-url", "tok-123"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			typ, version := "agui", "1.0"
			if strings.Contains(tc.target, "agentCardUrl") {
				typ, version = "a2a", "1.2"
			}
			dir := writeFiles(t, map[string]string{
				"ananke.config.yaml": "version: \"" + version + "\"\nbefore_all: [{cmd: [\"true\"]}]\ntarget:\n  type: " + typ + "\n" + tc.target +
					"  headers: {Authorization: \"Bearer ${ENV.TOKEN}\"}\n",
				"a.ananke.yaml": "version: \"" + version + "\"\nname: a\nturns: [{user: \"${ENV.GREETING}\"}]\n",
				"s.ananke.yaml": "version: \"" + version + "\"\nname: s\nskip: later\nturns: [{user: \"${ENV.SKIPPED}\"}]\n",
			})
			s, err := Load(Options{ConfigPath: filepath.Join(dir, "ananke.config.yaml")})
			if err != nil {
				t.Fatal(err)
			}
			if got := EnvSecrets(s, getenv); !slices.Equal(got, tc.want) {
				t.Errorf("EnvSecrets = %q; want %q", got, tc.want)
			}
		})
	}
}
