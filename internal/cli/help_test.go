package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHelpAskedFor: help that was asked for — -h, --help, help COMMAND —
// goes to stdout with exit 0, and is the command's own.
func TestHelpAskedFor(t *testing.T) {
	runHelp := run(t, "", nil, "run", "-h")
	for _, args := range [][]string{{"run", "-h"}, {"run", "--help"}, {"help", "run"}, {"run", "tests/", "-h"}} {
		r := run(t, "", nil, args...)
		if r.code != ExitPass || r.errOut != "" || r.out != runHelp.out || !strings.HasPrefix(r.out, "Usage: ananke run [flags] [PATH...]\n") {
			t.Errorf("%q: exit %d, stderr %q; want 0 and run's help on stdout:\n%s", args, r.code, r.errOut, r.out)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"help", "trace", "export"}, "Usage: ananke trace export [flags] REPORT_DIR\n"},
		{[]string{"trace", "-h"}, "Usage: ananke trace export"},
		{[]string{"help", "init"}, "Usage: ananke init [flags] [DIR]\n\nStart a project: config, a first test and a GitHub workflow.\n"},
		{[]string{"--help"}, "over AG-UI, A2A and MCP"},
		{[]string{"help"}, "Start with 'ananke init'"},
	} {
		if r := run(t, "", nil, tc.args...); r.code != ExitPass || r.errOut != "" || !strings.Contains(r.out, tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want 0 and %q on stdout:\n%s", tc.args, r.code, r.errOut, tc.want, r.out)
		}
	}
	if r := run(t, "", nil, "help", "nope"); r.code != ExitInvalid || !strings.Contains(r.errOut, `unknown command "nope"`) {
		t.Errorf("help nope: exit %d %q", r.code, r.errOut)
	}
}

// TestHelpHasNoEmptyFlags: a command without flags says neither [flags]
// nor a Flags header; every Flags header lists flags.
func TestHelpHasNoEmptyFlags(t *testing.T) {
	for _, c := range commands {
		r := run(t, "", nil, "help", c.name)
		if r.code != ExitPass {
			t.Errorf("help %s: exit %d %q", c.name, r.code, r.errOut)
			continue
		}
		if _, after, ok := strings.Cut(r.out, "Flags (anywhere among the arguments; -- ends them):\n"); ok && !strings.HasPrefix(after, "  -") {
			t.Errorf("help %s: an empty Flags header:\n%s", c.name, r.out)
		}
	}
	r := run(t, "", nil, "version", "-h")
	if r.out != "Usage: ananke version\n\nPrint the version.\n" {
		t.Errorf("version -h = %q", r.out)
	}
}

// TestFlagErrors: a bad flag is named as it was typed and says what it
// wants.
func TestFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--verbos"}, "ananke run: unknown flag --verbos; did you mean --verbose?\n"},
		{[]string{"run", "-verbos"}, "ananke run: unknown flag -verbos; did you mean --verbose?\n"},
		{[]string{"run", "--verbos=1"}, "ananke run: unknown flag --verbos; did you mean --verbose?\n"},
		{[]string{"run", "--parallel", "x"}, "ananke run: --parallel: \"x\" is not a whole number\n"},
		{[]string{"run", "--parallel"}, "ananke run: --parallel needs a value\n"},
		{[]string{"run", "--verbose=maybe"}, "ananke run: --verbose: \"maybe\" is not true or false\n"},
		{[]string{"run", "--timeout", "soon"}, "ananke run: --timeout: \"soon\" is not a duration such as 90s or 2m\n"},
		{[]string{"run", "--color", "pink"}, "ananke run: --color: \"pink\" is not auto, always or never\n"},
		{[]string{"generate", "--count", "many"}, "ananke generate: --count: \"many\" is not a whole number\n"},
	} {
		r := run(t, "", nil, tc.args...)
		if r.code != ExitInvalid || !strings.HasPrefix(r.errOut, tc.want) || strings.Contains(r.errOut, "parse error") {
			t.Errorf("%q: exit %d, stderr %q; want 3 and %q", tc.args, r.code, r.errOut, tc.want)
		}
	}
}

func TestUnknownCommand(t *testing.T) {
	for name, want := range map[string]string{"rnu": "run", "valdate": "validate", "ini": "init", "completions": "completion", "shwo": "show"} {
		r := run(t, "", nil, name)
		if w := `ananke: unknown command "` + name + `"; did you mean ` + want + "?\n"; r.code != ExitInvalid || !strings.HasPrefix(r.errOut, w) {
			t.Errorf("%s: exit %d %q; want 3 and %q", name, r.code, r.errOut, w)
		}
	}
	if r := run(t, "", nil, "frobnicate"); strings.Contains(r.errOut, "did you mean") || !strings.Contains(r.errOut, "Commands:") {
		t.Errorf("frobnicate: %q; want no suggestion and the commands", r.errOut)
	}
}

// TestConfigFlagProblems: --config that names no config is said once, as
// what it is, and nothing cascades from it.
func TestConfigFlagProblems(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "tests"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tests", "x.ananke.yaml"), []byte("version: \"1.0\"\nname: x\nturns: [{user: hi}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "-c", "tests/x.ananke.yaml"},
			"ananke: --config tests/x.ananke.yaml is a test file, not a project config: pass it as a path, 'ananke run tests/x.ananke.yaml' (its config, ananke.config.yaml, is found by itself)\n"},
		{[]string{"validate", "--config", "tests/x.ananke.yaml"}, "pass it as a path, 'ananke validate tests/x.ananke.yaml'"},
		{[]string{"validate", "-c", "missing.yaml"}, "ananke: --config missing.yaml: no such file\n"},
		{[]string{"run", "--endpoint", "http://127.0.0.1:1/agent", "-c", "missing.yaml"}, "ananke: --config missing.yaml: no such file\n"},
		{[]string{"validate", "-c", "tests"}, "ananke: --config tests is a directory; name the config file in it"},
		{[]string{"run"}, "pass --config FILE, or start a project with 'ananke init' (docs/init.md)\n"},
	} {
		r := run(t, dir, nil, tc.args...)
		if r.code != ExitInvalid || !strings.HasPrefix(r.errOut, tc.want) && !strings.Contains(r.errOut, tc.want) || strings.Count(r.errOut, "\n") != 1 || r.out != "" {
			t.Errorf("%q: exit %d\nstderr %q\nstdout %q\nwant 3 and one line with %q", tc.args, r.code, r.errOut, r.out, tc.want)
		}
	}
}
