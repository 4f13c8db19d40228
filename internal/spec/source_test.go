package spec

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/diag"
)

// sourceDir is a folder holding a Claude transcript and a NanoClaw folder,
// for tests with a source.
func sourceDir(t *testing.T) string {
	t.Helper()
	return writeFiles(t, map[string]string{
		"rec/session.jsonl":                "{}\n",
		"rec/nano/groups/family/CLAUDE.md": "# Family\n",
		"rec/traces.json":                  "{}\n",
	})
}

// parseIn parses a test file at dir/rel; its diagnostics are returned
// sorted, each as "file:line:col: message" with the file relative to dir.
func parseIn(t *testing.T, dir, rel, src string) (*Test, []string) {
	t.Helper()
	tt, diags := parseTestAt(t, filepath.Join(dir, filepath.FromSlash(rel)), src)
	var out []string
	for _, d := range diags.Sorted() {
		if r, err := filepath.Rel(dir, d.Pos.File); err == nil {
			d.Pos.File = filepath.ToSlash(r)
		}
		out = append(out, d.String())
	}
	return tt, out
}

const sourceHead = "version: \"1.0\"\nname: t\n"

func TestSource(t *testing.T) {
	dir := sourceDir(t)
	abs := filepath.Join(dir, "rec", "session.jsonl")
	tests := []struct {
		name, file, src string
		want            Source // Pos.File is set to the test file
	}{
		{"claude transcript", "t.ananke.yaml", "source: {format: claude-transcript, path: rec/session.jsonl}\n",
			Source{Pos: diag.Pos{Line: 3, Col: 9}, Format: FormatClaude, Path: "rec/session.jsonl", Abs: abs}},
		{"relative to the test file", "sub/deep/t.ananke.yaml", "source: {format: claude-transcript, path: ../../rec/session.jsonl}\n",
			Source{Pos: diag.Pos{Line: 3, Col: 9}, Format: FormatClaude, Path: "../../rec/session.jsonl", Abs: abs}},
		{"absolute path", "sub/t.ananke.yaml", "source: {format: claude-transcript, path: '" + filepath.ToSlash(abs) + "'}\n",
			Source{Pos: diag.Pos{Line: 3, Col: 9}, Format: FormatClaude, Path: filepath.ToSlash(abs), Abs: abs}},
		{"nanoclaw", "t.ananke.yaml", "source:\n  format: nanoclaw\n  path: rec/nano\n  group: family\n  session: s-1\n  task: digest\n",
			Source{Pos: diag.Pos{Line: 4, Col: 3}, Format: FormatNanoClaw, Path: "rec/nano", Abs: filepath.Join(dir, "rec", "nano"), Group: "family", Session: "s-1", Task: "digest"}},
		{"nanoclaw, group only", "t.ananke.yaml", "source: {format: nanoclaw, path: rec/nano/, group: family}\n",
			Source{Pos: diag.Pos{Line: 3, Col: 9}, Format: FormatNanoClaw, Path: "rec/nano/", Abs: filepath.Join(dir, "rec", "nano"), Group: "family"}},
		{"otlp", "t.ananke.yaml", "source: {format: otlp, path: rec/traces.json}\n",
			Source{Pos: diag.Pos{Line: 3, Col: 9}, Format: FormatOTLP, Path: "rec/traces.json", Abs: filepath.Join(dir, "rec", "traces.json")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tt, diags := parseIn(t, dir, tc.file, sourceHead+tc.src)
			if len(diags) > 0 {
				t.Fatalf("diagnostics:\n%s", strings.Join(diags, "\n"))
			}
			if tt.Source == nil {
				t.Fatal("no source")
			}
			want := tc.want
			want.Pos.File = filepath.Join(dir, filepath.FromSlash(tc.file))
			if *tt.Source != want {
				t.Errorf("source = %+v\nwant     %+v", *tt.Source, want)
			}
			if !filepath.IsAbs(tt.Source.Abs) {
				t.Errorf("Abs %q is not absolute", tt.Source.Abs)
			}
			if len(tt.Turns) != 0 || tt.Simulator != nil {
				t.Errorf("a source test has %d turns, simulator %v", len(tt.Turns), tt.Simulator)
			}
		})
	}
}

// TestSourceAbsFromRelativeFile: a test file named by a relative path (a
// relative --config) still resolves its source to an absolute path.
func TestSourceAbsFromRelativeFile(t *testing.T) {
	dir := sourceDir(t)
	t.Chdir(dir)
	tt, diags := parseTestAt(t, "t.ananke.yaml", sourceHead+"source: {format: claude-transcript, path: rec/session.jsonl}\n")
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	if want := filepath.Join(dir, "rec", "session.jsonl"); tt.Source.Abs != want {
		t.Errorf("Abs = %q, want %q", tt.Source.Abs, want)
	}
}

// TestSourceErrors: every problem of a source, at its place, and nothing
// else.
func TestSourceErrors(t *testing.T) {
	dir := sourceDir(t)
	tests := []struct {
		name, src string
		want      []string
	}{
		{"unknown format, close", "source: {format: nanoclow, path: rec/nano, group: family}\n", []string{
			`t.ananke.yaml:3:18: source.format "nanoclow" is not a known format (known: claude-transcript, nanoclaw, otlp) (did you mean "nanoclaw"?)`,
		}},
		{"unknown format, far", "source: {format: jsonl, path: rec/session.jsonl}\n", []string{
			`t.ananke.yaml:3:18: source.format "jsonl" is not a known format (known: claude-transcript, nanoclaw, otlp)`,
		}},
		{"format not a string", "source: {format: [nanoclaw], path: rec/nano, group: g}\n", []string{
			`t.ananke.yaml:3:18: source.format must be a string, not a list`,
		}},
		{"missing path", "source: {format: claude-transcript}\n", []string{
			`t.ananke.yaml:3:9: source is missing required field "path"`,
		}},
		{"missing format", "source: {path: rec/session.jsonl}\n", []string{
			`t.ananke.yaml:3:9: source is missing required field "format"`,
		}},
		{"empty path", "source: {format: nanoclaw, path: '', group: family}\n", []string{
			`t.ananke.yaml:3:34: source.path must not be empty`,
		}},
		{"path missing on disk", "source: {format: claude-transcript, path: rec/gone.jsonl}\n", []string{
			`t.ananke.yaml:3:43: source.path: rec/gone.jsonl: no such file or directory`,
		}},
		{"a file for nanoclaw", "source: {format: nanoclaw, path: rec/session.jsonl, group: family}\n", []string{
			`t.ananke.yaml:3:34: source.path: rec/session.jsonl is a file; a nanoclaw source is a NanoClaw folder (with groups/, and data/v2.db or store/messages.db)`,
		}},
		{"a folder for otlp", "source: {format: otlp, path: rec/nano}\n", []string{
			`t.ananke.yaml:3:30: source.path: rec/nano is a folder; an otlp source is an OTLP JSON trace file`,
		}},
		{"an otlp file missing", "source: {format: otlp, path: rec/gone.json}\n", []string{
			`t.ananke.yaml:3:30: source.path: rec/gone.json: no such file or directory`,
		}},
		{"group for otlp", "source: {format: otlp, path: rec/traces.json, group: family}\n", []string{
			`t.ananke.yaml:3:47: source.group is for format nanoclaw`,
		}},
		{"a folder without sessions", "source: {format: claude-transcript, path: rec/nano}\n", []string{
			`t.ananke.yaml:3:43: source.path: rec/nano holds no Claude Code session (a .jsonl transcript)`,
		}},
		{"a glob that matches nothing", "source: {format: claude-transcript, path: 'rec/*.txt'}\n", []string{
			`t.ananke.yaml:3:43: source.path: rec/*.txt matches no file`,
		}},
		{"a bad glob", "source: {format: claude-transcript, path: 'rec/[a.jsonl'}\n", []string{
			`t.ananke.yaml:3:43: source.path: rec/[a.jsonl is not a valid pattern: syntax error in pattern`,
		}},
		{"an unknown select", "source: {format: claude-transcript, path: rec, select: newer}\n", []string{
			`t.ananke.yaml:3:56: source.select "newer" is not one of all, newest (did you mean "newest"?)`,
		}},
		{"strict not a boolean", "source: {format: claude-transcript, path: rec, strict: yes please}\n", []string{
			`t.ananke.yaml:3:56: source.strict must be true or false, not a string`,
		}},
		{"select and strict with nanoclaw", "source: {format: nanoclaw, path: rec/nano, group: family, select: newest, strict: true}\n", []string{
			`t.ananke.yaml:3:59: source.select is for format claude-transcript`,
			`t.ananke.yaml:3:75: source.strict is for format claude-transcript`,
		}},
		{"~ without HOME", "source: {format: claude-transcript, path: ~/rec}\n", []string{
			`t.ananke.yaml:3:43: source.path: ~ needs HOME, which is not set`,
		}},
		{"an unset variable", "source: {format: claude-transcript, path: '${ENV.ANANKE_NO_SUCH_DIR}/x.jsonl'}\n", []string{
			`t.ananke.yaml:3:43: source.path: environment variable ANANKE_NO_SUCH_DIR is not set (referenced as ${ENV.ANANKE_NO_SUCH_DIR})`,
		}},
		{"a variable of the test", "source: {format: claude-transcript, path: '${dir}/x.jsonl'}\n", []string{
			`t.ananke.yaml:3:43: source.path: ${dir} cannot be used here: the path is read when the suite loads; use ${ENV.NAME} or ~`,
		}},
		{"nanoclaw fields with claude-transcript", "source:\n  format: claude-transcript\n  path: rec/session.jsonl\n  group: family\n  session: s\n  task: digest\n", []string{
			`t.ananke.yaml:6:3: source.group is for format nanoclaw`,
			`t.ananke.yaml:7:3: source.session is for format nanoclaw`,
			`t.ananke.yaml:8:3: source.task is for format nanoclaw`,
		}},
		{"nanoclaw without group", "source: {format: nanoclaw, path: rec/nano}\n", []string{
			`t.ananke.yaml:3:9: source is missing required field "group"`,
		}},
		{"unknown field", "source: {format: nanoclaw, path: rec/nano, group: family, sesion: s}\n", []string{
			`t.ananke.yaml:3:59: unknown field "sesion" in source (did you mean "session"?)`,
		}},
		{"not a mapping", "source: rec/session.jsonl\n", []string{
			`t.ananke.yaml:3:9: source must be a mapping, not a string`,
		}},
		{"turns with source", "source: {format: claude-transcript, path: rec/session.jsonl}\nturns: [{user: hi}]\n", []string{
			`t.ananke.yaml:4:1: turns cannot be combined with source: the test asserts on a recorded run`,
		}},
		{"tools and hooks with source", "source: {format: claude-transcript, path: rec/session.jsonl}\ntools: []\nhooks: [{cmd: [./a.sh]}]\n", []string{
			`t.ananke.yaml:4:1: tools cannot be combined with source: the test asserts on a recorded run`,
			`t.ananke.yaml:5:1: hooks cannot be combined with source: the test asserts on a recorded run`,
		}},
		{"history and simulator with source", "source: {format: claude-transcript, path: rec/session.jsonl}\nhistory: []\nsimulator: {goal: g}\ncheckpoints: [{id: c, assert: {text: {contains: [x]}}}]\n", []string{
			`t.ananke.yaml:4:1: history cannot be combined with source: the test asserts on a recorded run`,
			`t.ananke.yaml:5:1: simulator cannot be combined with source: the test asserts on a recorded run`,
			`t.ananke.yaml:6:1: checkpoints cannot be combined with source: the test asserts on a recorded run`,
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := parseIn(t, dir, "t.ananke.yaml", sourceHead+tc.src)
			for _, w := range tc.want {
				if !slices.Contains(diags, w) {
					t.Errorf("missing %s in:\n%s", w, strings.Join(diags, "\n"))
				}
			}
			if len(diags) != len(tc.want) {
				t.Errorf("got %d diagnostics, want %d:\n%s", len(diags), len(tc.want), strings.Join(diags, "\n"))
			}
		})
	}
}

const noTargetConfig = `version: "1.0"
`

// TestSuiteWithoutTarget: a config without target loads a suite of
// source tests, and rejects a test that talks to an agent.
func TestSuiteWithoutTarget(t *testing.T) {
	files := map[string]string{
		"ananke.config.yaml": noTargetConfig,
		"rec/session.jsonl":  "{}\n",
		"t.ananke.yaml":      sourceHead + "source: {format: claude-transcript, path: rec/session.jsonl}\nassert: {text: {contains: [hi]}}\n",
	}
	s, diags := loadSuite(t, files)
	if diags != nil {
		t.Fatal(diags)
	}
	if len(s.Tests) != 1 || s.Tests[0].Source == nil || s.Tests[0].Source.Format != FormatClaude {
		t.Fatalf("tests = %+v", s.Tests)
	}
	if got := TestChecks(s.Config, s.Tests[0]); len(got) != 1 || got[0].ID != "test.text.contains[0]" {
		t.Errorf("checks = %+v", got)
	}

	files["u.ananke.yaml"] = sourceHead + "turns: [{user: hi}]\n"
	_, diags = loadSuite(t, files)
	want := `u.ananke.yaml:1:1: test "u" talks to an agent, but the config has no target (only tests with a source run without one)`
	if len(diags) != 1 || diags[0].String() != want {
		t.Errorf("diagnostics:\n%s\nwant %s", diags, want)
	}
}

// TestSourceDropsTargetAssertions: the target's assert block is about the
// target; it does not apply to a source test's checks.
func TestSourceDropsTargetAssertions(t *testing.T) {
	s, diags := loadSuite(t, map[string]string{
		"ananke.config.yaml": minimalConfig + "  assert: {text: {omits: [Traceback]}, tools: {max_calls: 4}}\n",
		"rec/session.jsonl":  "{}\n",
		"s.ananke.yaml":      sourceHead + "source: {format: claude-transcript, path: rec/session.jsonl}\nassert: {text: {must_match: [ok]}}\n",
		"t.ananke.yaml":      sourceHead + "id: turns\nturns: [{user: hi}]\n",
	})
	if diags != nil {
		t.Fatal(diags)
	}
	ids := func(cs []assertion.Check) string {
		var out []string
		for _, c := range cs {
			out = append(out, c.ID)
		}
		return strings.Join(out, " ")
	}
	for _, tc := range []struct{ test, want string }{
		{"s", "test.text.must_match[0]"},
		{"turns", "test.target.text.omits[0] test.target.tools.max_calls"},
	} {
		var test *Test
		for _, x := range s.Tests {
			if x.ID == tc.test {
				test = x
			}
		}
		if test == nil {
			t.Fatalf("no test %q", tc.test)
		}
		if got := ids(TestChecks(s.Config, test)); got != tc.want {
			t.Errorf("%s: checks %q, want %q", tc.test, got, tc.want)
		}
	}
}

// TestRequires: requires takes one capability or a list; an unknown one
// is an error with a suggestion.
func TestRequires(t *testing.T) {
	tests := []struct {
		requires string
		want     []string
		diag     string
	}{
		{"supports_memory_events", []string{"supports_memory_events"}, ""},
		{"[supports_memory_events, supports_replay]", []string{"supports_memory_events", "supports_replay"}, ""},
		{"[]", nil, ""},
		{"[supports_memory_event]", nil,
			`t.ananke.yaml:5:25: turns[0].assert.requires: "supports_memory_event" is not a capability (known: supports_tool_trace, supports_streaming_timing, supports_state, supports_reasoning, supports_memory_events, supports_scheduler_context, supports_container_metadata, supports_live_run, supports_replay, supports_interrupts, supports_usage, supports_model_calls, supports_spans) (did you mean "supports_memory_events"?)`},
		{"memory", nil,
			`t.ananke.yaml:5:24: turns[0].assert.requires: "memory" is not a capability (known: supports_tool_trace, supports_streaming_timing, supports_state, supports_reasoning, supports_memory_events, supports_scheduler_context, supports_container_metadata, supports_live_run, supports_replay, supports_interrupts, supports_usage, supports_model_calls, supports_spans)`},
		{"{a: 1}", nil, `t.ananke.yaml:5:24: turns[0].assert.requires must be a string or a list of strings, not a mapping`},
	}
	for _, tc := range tests {
		t.Run(tc.requires, func(t *testing.T) {
			tt, diags := parseTestAt(t, "t.ananke.yaml", sourceHead+"turns:\n  - user: hi\n    assert: {requires: "+tc.requires+"}\n")
			if tc.diag == "" {
				if len(diags) > 0 {
					t.Fatal(diags)
				}
				if got := tt.Turns[0].Assert.Requires; !slices.Equal(got, tc.want) {
					t.Errorf("requires = %v, want %v", got, tc.want)
				}
				return
			}
			if len(diags) != 1 || diags[0].String() != tc.diag {
				t.Errorf("diagnostics:\n%s\nwant %s", diags, tc.diag)
			}
		})
	}
}

// TestMissingCapabilityPolicy: on_missing_capability in the config and the
// test; the test's word wins, and every check of the test carries it.
func TestMissingCapabilityPolicy(t *testing.T) {
	tests := []struct {
		name, config, test string
		cfgPolicy          string
		want               bool
	}{
		{"default skip", "", "", "", false},
		{"config error", "on_missing_capability: error\n", "", MissingError, true},
		{"config skip", "on_missing_capability: skip\n", "", MissingSkip, false},
		{"test error", "", "on_missing_capability: error\n", "", true},
		{"test skip overrides config error", "on_missing_capability: error\n", "on_missing_capability: skip\n", MissingError, false},
		{"test error overrides config skip", "on_missing_capability: skip\n", "on_missing_capability: error\n", MissingSkip, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, diags := loadSuite(t, map[string]string{
				"ananke.config.yaml": minimalConfig + "  assert: {tools: {forbid: [rm]}}\nmodel: {endpoint: \"http://127.0.0.1:1/v1\", name: m}\n" + tc.config,
				"t.ananke.yaml": sourceHead + tc.test + `turns:
  - user: hi
    assert: {memory: {reads: [{}]}}
simulator: {goal: g}
checkpoints: [{id: c, assert: {scheduler: {outbound: 1}}}]
assert: {timing: {max_duration_ms: 10}}
`,
			})
			if diags != nil {
				t.Fatal(diags)
			}
			if s.Config.OnMissingCapability != tc.cfgPolicy {
				t.Errorf("config policy %q, want %q", s.Config.OnMissingCapability, tc.cfgPolicy)
			}
			test := s.Tests[0]
			checks := append(TurnChecks(s.Config, test, 0), TestChecks(s.Config, test)...)
			checks = append(checks, CheckpointChecks(s.Config, test, &test.Checkpoints[0], 0)...)
			var ids []string
			for _, c := range checks {
				ids = append(ids, c.ID)
			}
			want := "turn[0].target.tools.forbid[0] turn[0].memory.reads[0] test.target.tools.forbid[0] test.timing.max_duration_ms turn[0].checkpoints.c.scheduler.outbound"
			if got := strings.Join(ids, " "); got != want {
				t.Fatalf("checks %s\nwant   %s", got, want)
			}
			for _, c := range checks {
				if c.MissingError != tc.want {
					t.Errorf("%s: MissingError %v, want %v", c.ID, c.MissingError, tc.want)
				}
			}
		})
	}
}

func TestMissingCapabilityPolicyErrors(t *testing.T) {
	_, diags := parseConfig(t, minimalConfig+"on_missing_capability: fail\n")
	if want := `ananke.config.yaml:6:24: on_missing_capability "fail" is not one of skip, error`; len(diags) != 1 || diags[0].String() != want {
		t.Errorf("config: %s\nwant %s", diags, want)
	}
	_, diags = parseTest(t, sourceHead+"turns: [{user: hi}]\non_missing_capability: [skip]\n")
	if want := `t.ananke.yaml:4:24: on_missing_capability must be a string, not a list`; len(diags) != 1 || diags[0].String() != want {
		t.Errorf("test: %s\nwant %s", diags, want)
	}
}

// TestRequiresPropagate: a block's requires reach its own checks, those of
// every block it extends (however deep), and those of the named
// assertions it includes, each with their own.
func TestRequiresPropagate(t *testing.T) {
	s, diags := loadSuite(t, map[string]string{
		"ananke.config.yaml": minimalConfig + `assertions:
  mem:
    requires: supports_replay
    memory: {reads: [{}]}
  base:
    extends: mem
    requires: [supports_live_run]
    text: {contains: [x]}
  plain:
    text: {omits: [y]}
`,
		"t.ananke.yaml": sourceHead + `turns:
  - user: hi
    assert:
      extends: [base, plain]
      requires: supports_container_metadata
      memory: {writes: [{}]}
assert:
  requires: supports_state
  tools: {forbid: [rm]}
assertions:
  - {type: scheduler_outbound_count, count: 1, requires_capabilities: [supports_scheduler_context]}
  - {id: hello, type: output_contains, params: {value: hi}, requires: supports_tool_trace}
  - {type: ananke, assert: {requires: supports_memory_events, memory: {forbid: [{}]}}, requires_capabilities: supports_replay}
`,
	})
	if diags != nil {
		t.Fatal(diags)
	}
	test := s.Tests[0]
	got := map[string]string{}
	for _, c := range append(TurnChecks(s.Config, test, 0), TestChecks(s.Config, test)...) {
		got[c.ID] = strings.Join(c.Requires, ",")
	}
	want := map[string]string{
		"turn[0].memory.writes[0]":      "supports_container_metadata",
		"turn[0].text.contains[0]":      "supports_container_metadata,supports_live_run",
		"turn[0].memory.reads[0]":       "supports_container_metadata,supports_live_run,supports_replay",
		"turn[0].text.omits[0]":         "supports_container_metadata",
		"turn[0].test.tools.forbid[0]":  "supports_state",
		"test.tools.forbid[0]":          "supports_state",
		"test.scheduler.outbound":       "supports_state,supports_scheduler_context",
		"test.hello":                    "supports_state,supports_tool_trace", // the item's id
		"test.memory.forbid[0]":         "supports_state,supports_memory_events,supports_replay",
		"turn[0].test.memory.forbid[0]": "supports_state,supports_memory_events,supports_replay",
	}
	for id, w := range want {
		if g, ok := got[id]; !ok || g != w {
			t.Errorf("%s requires %q (present %v), want %q", id, g, ok, w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("checks %v, want %d", got, len(want))
	}
}
