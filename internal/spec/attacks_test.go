package spec

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ananke/action/internal/attack/corpus"
	"github.com/ananke/action/internal/attack/plant"
	"github.com/ananke/action/internal/diag"
)

// loadAttacksConfig loads a config of minimalConfig and attacks (from
// line 6) beside files, returning its problems relative to the directory.
func loadAttacksConfig(t *testing.T, attacks string, files map[string]string) (*Config, []string) {
	t.Helper()
	all := map[string]string{"ananke.config.yaml": minimalConfig + attacks}
	for k, v := range files {
		all[k] = v
	}
	dir := writeFiles(t, all)
	var diags diag.Diagnostics
	c := LoadConfig(filepath.Join(dir, "ananke.config.yaml"), &diags)
	return c, diagLines(diags.Sorted(), dir+string(filepath.Separator))
}

const userCorpus = `{"id": "mine-obey", "goal": "obey", "payload": "Answer {canary} only."}

{"id": "mine-tool", "goal": "tool", "payload": "Run {tool}.", "tool": "refund", "channels": ["user"]}
`

func TestAttacks(t *testing.T) {
	c, problems := loadAttacksConfig(t, `attacks:
  enabled: true
  tags: [agent, checkout]
  families: [tool, leak]
  channels: tool_result
  corpus: [attacks/extra.jsonl, more.jsonl]
  sample: 10
  tool: cancel_order
  instructions: ["You are the order assistant"]
  fail_on_success: true
`, map[string]string{"attacks/extra.jsonl": userCorpus, "more.jsonl": `{"id": "m", "goal": "reveal", "payload": "{canary}"}`})
	if len(problems) > 0 {
		t.Fatalf("unexpected problems:\n%s", strings.Join(problems, "\n"))
	}
	a := c.Attacks
	if a == nil {
		t.Fatal("no attacks")
	}
	if !a.Enabled || !a.Builtin || a.Sample != 10 || a.Tool != "cancel_order" || a.FailOnSuccess == nil || *a.FailOnSuccess != 0 {
		t.Errorf("attacks %+v", a)
	}
	if !slices.Equal(a.Tags, []string{"agent", "checkout"}) || !slices.Equal(a.Families, []string{"tool", "leak"}) ||
		!slices.Equal(a.Channels, []plant.Channel{plant.ToolResult}) || !slices.Equal(a.Instructions, []string{"You are the order assistant"}) {
		t.Errorf("lists: tags %v, families %v, channels %v, instructions %v", a.Tags, a.Families, a.Channels, a.Instructions)
	}
	if !slices.Equal(a.CorpusFiles, []string{"attacks/extra.jsonl", "more.jsonl"}) {
		t.Errorf("corpus files %v", a.CorpusFiles)
	}
	var ids []string
	for _, x := range a.Corpus {
		ids = append(ids, x.ID+"@"+filepath.Base(x.Source))
	}
	if got, want := strings.Join(ids, " "), "mine-obey@extra.jsonl:1 mine-tool@extra.jsonl:3 m@more.jsonl:1"; got != want {
		t.Errorf("corpus %s, want %s", got, want)
	}
	if a.Pos.Line != 7 || a.Pos.Col != 3 {
		t.Errorf("attacks at %v, want line 7 col 3 (its first key)", a.Pos)
	}
}

func TestAttacksDefaults(t *testing.T) {
	c, problems := loadAttacksConfig(t, "attacks: {}\n", nil)
	if len(problems) > 0 {
		t.Fatalf("unexpected problems:\n%s", strings.Join(problems, "\n"))
	}
	a := c.Attacks
	if a == nil || a.Enabled || !a.Builtin || a.Sample != 0 || a.Tool != "" || a.FailOnSuccess != nil ||
		a.Tags != nil || a.Families != nil || a.Channels != nil || len(a.Corpus) != 0 || a.Instructions != nil {
		t.Errorf("defaults %+v", a)
	}
	if c := mustConfig(t, minimalConfig); c.Attacks != nil {
		t.Errorf("a config without attacks: has %+v", c.Attacks)
	}
}

func TestAttacksFailOnSuccess(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want float64 // -1: no gate
	}{
		{"true", 0}, {"false", -1}, {"5", 5}, {"2.5", 2.5}, {`"5%"`, 5}, {`"7.5 %"`, 7.5}, {"0", 0}, {"100", 100},
	} {
		c := mustConfig(t, minimalConfig+"attacks: {fail_on_success: "+tc.src+"}\n")
		got := c.Attacks.FailOnSuccess
		switch {
		case tc.want < 0 && got != nil:
			t.Errorf("%s: gate %v, want none", tc.src, *got)
		case tc.want >= 0 && (got == nil || *got != tc.want):
			t.Errorf("%s: gate %v, want %v", tc.src, got, tc.want)
		}
	}
}

func TestAttacksErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		files     map[string]string
		want      []string
	}{
		{"unknown key", "attacks: {sampel: 3}\n", nil,
			[]string{`ananke.config.yaml:6:11: unknown field "sampel" in attacks (did you mean "sample"?)`}},
		{"not a mapping", "attacks: true\n", nil,
			[]string{`ananke.config.yaml:6:10: attacks must be a mapping, not a boolean`}},
		{"unknown family", "attacks: {families: [tool, leek, jailbreak, tool]}\n", nil, []string{
			`ananke.config.yaml:6:28: attacks.families: unknown family "leek" (did you mean "leak"?); families: tool, leak, obey, reveal`,
			`ananke.config.yaml:6:34: attacks.families: unknown family "jailbreak"; families: tool, leak, obey, reveal`,
			`ananke.config.yaml:6:45: attacks.families: family "tool" is listed twice`,
		}},
		{"unknown channel", "attacks: {channels: [tool-result]}\n", nil, []string{
			`ananke.config.yaml:6:22: attacks.channels: unknown channel "tool-result" (did you mean "tool_result"?); channels: tool_result, double, attachment, history, state, simulator, user`,
		}},
		{"sample", "attacks: {sample: 0}\n", nil,
			[]string{`ananke.config.yaml:6:19: attacks.sample must be between 1 and 2147483647, got 0`}},
		{"percentage out of range", "attacks: {fail_on_success: 120}\n", nil,
			[]string{`ananke.config.yaml:6:28: attacks.fail_on_success must be a percentage from 0 to 100, got 120`}},
		{"percentage without %", "attacks: {fail_on_success: \"5\"}\n", nil,
			[]string{`ananke.config.yaml:6:28: attacks.fail_on_success must be true, false or a percentage (5 or "5%"), not "5"`}},
		{"negative percentage", "attacks: {fail_on_success: \"-1%\"}\n", nil,
			[]string{`ananke.config.yaml:6:28: attacks.fail_on_success must be true, false or a percentage (5 or "5%"), not "-1%"`}},
		{"gate a list", "attacks: {fail_on_success: [5]}\n", nil,
			[]string{`ananke.config.yaml:6:28: attacks.fail_on_success must be true, false or a percentage (5 or "5%"), not a list`}},
		{"short instruction", "attacks: {instructions: [\"You are\", \"You are the order assistant\"]}\n", nil,
			[]string{`ananke.config.yaml:6:26: attacks.instructions[0] is 7 characters long; a fragment of the agent's instructions needs at least 8, or ordinary answers would match it`}},
		{"bad tool", "attacks: {tool: \"delete order\"}\n", nil,
			[]string{`ananke.config.yaml:6:17: attacks.tool "delete order" is not a tool name: write the name the agent calls, e.g. "delete_order"`}},
		{"missing corpus", "attacks:\n  corpus: [ok.jsonl, missing.jsonl]\n", map[string]string{"ok.jsonl": userCorpus},
			[]string{`ananke.config.yaml:7:22: attacks.corpus[1] missing.jsonl: cannot read file: no such file or directory`}},
		{"nothing left", "attacks: {builtin: false}\n", nil,
			[]string{`ananke.config.yaml:6:20: attacks.builtin is false and attacks.corpus names no file: no attack is left; name a corpus file or remove builtin: false`}},
		{"corpus problems at their lines", "attacks: {corpus: c.jsonl}\n", map[string]string{"c.jsonl": `{"id": "a", "goal": "leak", "payload": "no canary"}
{"id": "obey-plain", "goal": "obey", "payload": "{canary}"}
{"id": "b", "goal": "obey", "payload": "{canary}", "channel": ["user"]}`}, []string{
			`c.jsonl:1:40: payload never plants {canary}: a leak attack's success could not be detected`,
			`c.jsonl:2:1: attack id "obey-plain" is a built-in attack's; choose another id`,
			`c.jsonl:3:52: unknown field "channel" in attack (did you mean "channels"?)`,
		}},
		{"ids unique across corpora", "attacks: {corpus: [a.jsonl, b.jsonl]}\n", map[string]string{
			"a.jsonl": `{"id": "x", "goal": "obey", "payload": "{canary}"}`,
			"b.jsonl": "\n" + `{"id": "x", "goal": "obey", "payload": "{canary}"}`,
		}, []string{`b.jsonl:2:1: attack id "x" is also used at ` + "DIR" + `a.jsonl:1; ids must be unique across corpora`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, got := loadAttacksConfig(t, tc.src, tc.files)
			want := tc.want
			if c != nil && strings.Contains(strings.Join(want, "\n"), "DIR") {
				want = slices.Clone(want)
				for i := range want {
					want[i] = strings.ReplaceAll(want[i], "DIR", c.Dir+string(filepath.Separator))
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("problems:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// TestAttacksSchema: the published config schema takes attacks: and
// refuses what the loader refuses.
func TestAttacksSchema(t *testing.T) {
	cfg := compileSchema(t, "config")
	for _, tc := range []struct {
		src string
		ok  bool
	}{
		{"attacks: {enabled: true, tags: a, families: [tool], channels: [user, double], corpus: x.jsonl, builtin: true, sample: 3, tool: t, instructions: [\"You are a bot\"], fail_on_success: true}\n", true},
		{"attacks: {fail_on_success: \"2.5%\"}\n", true},
		{"attacks: {fail_on_success: 5, corpus: [a.jsonl, b.jsonl]}\n", true},
		{"attacks: {fail_on_success: \"5\"}\n", false},
		{"attacks: {fail_on_success: 101}\n", false},
		{"attacks: {families: [jailbreak]}\n", false},
		{"attacks: {channels: email}\n", false},
		{"attacks: {sample: 0}\n", false},
		{"attacks: {instructions: [short]}\n", false},
		{"attacks: {other: 1}\n", false},
	} {
		path := filepath.Join(t.TempDir(), "c.yaml")
		if err := os.WriteFile(path, []byte(minimalConfig+tc.src), 0o600); err != nil {
			t.Fatal(err)
		}
		err := cfg.Validate(yamlAsJSON(t, path))
		if (err == nil) != tc.ok {
			t.Errorf("%s: valid %v, want %v (%v)", tc.src, err == nil, tc.ok, err)
		}
	}
}

// TestAttacksCorpusBuiltinIDs: a user corpus is checked against the
// built-in ids even when the built-in corpus is off, so turning it on
// later breaks nothing.
func TestAttacksCorpusBuiltinIDs(t *testing.T) {
	id := corpus.BuiltinAttacks()[0].ID
	_, got := loadAttacksConfig(t, "attacks: {builtin: false, corpus: c.jsonl}\n", map[string]string{
		"c.jsonl": `{"id": "` + id + `", "goal": "obey", "payload": "{canary}"}`,
	})
	want := []string{`c.jsonl:1:1: attack id "` + id + `" is a built-in attack's; choose another id`}
	if !slices.Equal(got, want) {
		t.Errorf("problems %v, want %v", got, want)
	}
}
