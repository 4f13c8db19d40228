package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

var (
	binOnce sync.Once
	binDir  string
	binErr  error
)

// ananke builds the ananke binary once and returns its directory, to put
// on PATH: the completion scripts call back into it (__complete tags).
func ananke(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		if binDir, binErr = os.MkdirTemp("", "ananke-bin"); binErr != nil {
			return
		}
		out, err := exec.Command("go", "build", "-o", filepath.Join(binDir, "ananke"), repoRoot()).CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("build ananke: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binDir
}

// needShell returns the path of shell, skipping the test when it is not
// installed — unless ANANKE_REQUIRE_SHELLS=1 (CI), which fails it.
func needShell(t *testing.T, shell string) string {
	t.Helper()
	p, err := exec.LookPath(shell)
	if err != nil {
		if os.Getenv("ANANKE_REQUIRE_SHELLS") == "1" {
			t.Fatalf("%s is not installed and ANANKE_REQUIRE_SHELLS=1", shell)
		}
		t.Skipf("%s is not installed (apt-get install %s)", shell, shell)
	}
	return p
}

// tagSuite writes a suite whose tests are tagged smoke and checkout; its
// agent need not exist, since nothing runs.
func tagSuite(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"ananke.config.yaml":  "version: \"1.0\"\ntarget:\n  type: agui\n  endpoint: \"http://127.0.0.1:1/agent\"\n  agentId: a\n",
		"tests/a.ananke.yaml": "version: \"1.0\"\nname: a\ntags: [smoke, checkout]\nturns: [{user: hi}]\n",
		"tests/b.ananke.yaml": "version: \"1.0\"\nname: b\ntags: [smoke, checkout]\nturns: [{user: hi}]\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// script writes `ananke completion shell` to a file.
func script(t *testing.T, shell string) string {
	t.Helper()
	r := run(t, "", nil, "completion", shell)
	if r.code != ExitPass {
		t.Fatalf("completion %s = %d %s", shell, r.code, r.errOut)
	}
	p := filepath.Join(t.TempDir(), "ananke."+shell)
	if err := os.WriteFile(p, []byte(r.out), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// shellCmd runs a shell in dir with the built ananke first on PATH and a
// home of its own, so that no rc file or history is read or written.
func shellCmd(t *testing.T, dir string, name string, args ...string) *exec.Cmd {
	t.Helper()
	home := t.TempDir()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+ananke(t)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"HOME="+home, "XDG_CONFIG_HOME="+home, "XDG_DATA_HOME="+home)
	return cmd
}

// completionCase is a command line completed at its last word.
type completionCase struct {
	name  string
	words []string
	want  []string // exactly these, in any order
	has   []string // at least these
}

var completionCases = []completionCase{
	{name: "commands", words: []string{"ananke", ""}, has: []string{"run", "validate", "completion", "trace"}},
	{name: "flag", words: []string{"ananke", "run", "--ver"}, want: []string{"--verbose"}},
	{name: "tags", words: []string{"ananke", "run", "--tag", ""}, want: []string{"checkout", "smoke"}},
	{name: "tags with config", words: []string{"ananke", "run", "-c", "ananke.config.yaml", "--tag", "s"}, want: []string{"smoke"}},
	{name: "format", words: []string{"ananke", "diff", "--format", ""}, want: []string{"text", "markdown"}},
	{name: "history format", words: []string{"ananke", "history", "--format", ""}, want: []string{"text", "markdown", "json"}},
	{name: "trace", words: []string{"ananke", "trace", ""}, want: []string{"export"}},
	{name: "trace export flag", words: []string{"ananke", "trace", "export", "--all"}, want: []string{"--all-attempts"}},
	{name: "publish", words: []string{"ananke", "publish", ""}, want: []string{"gitlab"}},
	{name: "publish gitlab flag", words: []string{"ananke", "publish", "gitlab", "--rep"}, want: []string{"--report-dir"}},
	{name: "test files", words: []string{"ananke", "run", "tests/"}, want: []string{"tests/a.ananke.yaml", "tests/b.ananke.yaml"}},
	{name: "schema", words: []string{"ananke", "schema", "re"}, want: []string{"report"}},
	{name: "schema labels", words: []string{"ananke", "schema", "l"}, want: []string{"labels"}},
	{name: "schema calibration", words: []string{"ananke", "schema", "ca"}, want: []string{"calibration"}},
}

func checkCompletion(t *testing.T, tc completionCase, got []string) {
	t.Helper()
	if tc.want != nil && !sameSet(got, tc.want) {
		t.Errorf("%q completes to %q; want %q", strings.Join(tc.words, " "), got, tc.want)
	}
	for _, w := range tc.has {
		if !slices.Contains(got, w) {
			t.Errorf("%q completes to %q; want %s among them", strings.Join(tc.words, " "), got, w)
		}
	}
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

func TestCompletionBash(t *testing.T) {
	bash := needShell(t, "bash")
	dir := tagSuite(t)
	out, err := shellCmd(t, dir, bash, "-c", "source <(ananke completion bash) && complete -p ananke").CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "complete -F _ananke ananke" {
		t.Fatalf("source <(ananke completion bash): %v\n%s", err, out)
	}
	file := script(t, "bash")
	// COMP_WORDS and COMP_CWORD as bash sets them for the completion
	// function: the words are the arguments after $0.
	drive := `source "$ANANKE_SCRIPT" && COMP_WORDS=("$@") && COMP_CWORD=$(($# - 1)) && _ananke && printf '%s\n' "${COMPREPLY[@]}"`
	for _, tc := range completionCases {
		t.Run(tc.name, func(t *testing.T) {
			cmd := shellCmd(t, dir, bash, append([]string{"-c", drive, "bash"}, tc.words...)...)
			cmd.Env = append(cmd.Env, "ANANKE_SCRIPT="+file)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("bash: %v", err)
			}
			checkCompletion(t, tc, lines(string(out)))
		})
	}
}

func TestCompletionZsh(t *testing.T) {
	zsh := needShell(t, "zsh")
	file := script(t, "zsh")
	if out, err := exec.Command(zsh, "-n", file).CombinedOutput(); err != nil {
		t.Fatalf("zsh -n: %v\n%s", err, out)
	}
	// Without a terminal, zsh's completion widgets cannot run; stand-ins
	// for compadd, _describe and _files print what the script offers.
	drive := `
compdef() { :; }
compset() { :; }
_call_program() { shift; "$@"; }
_describe() { print -l -- ${${(P)2}%%:*}; }
compadd() { [[ $1 == -a ]] && print -l -- ${(P)2} || { shift; print -l -- "$@"; }; }
_files() { print -l -- "_files $*"; }
source "$ANANKE_SCRIPT"
words=("$@"); CURRENT=$#
_ananke`
	dir := tagSuite(t)
	for _, tc := range []completionCase{
		{name: "commands", words: []string{"ananke", ""}, has: []string{"run", "validate", "completion"}},
		{name: "flags", words: []string{"ananke", "run", "-"}, has: []string{"-v", "--verbose", "--tag"}},
		{name: "tags", words: []string{"ananke", "run", "--tag", ""}, want: []string{"checkout", "smoke"}},
		{name: "format", words: []string{"ananke", "diff", "--format=m"}, want: []string{"text", "markdown"}},
		{name: "test files", words: []string{"ananke", "run", ""}, want: []string{"_files -g *.ananke.yaml *.ananke.yml *.jsonl"}},
		{name: "report dir", words: []string{"ananke", "run", "-o", ""}, want: []string{"_files -/"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := shellCmd(t, dir, zsh, append([]string{"-f", "-c", drive, "zsh"}, tc.words...)...)
			cmd.Env = append(cmd.Env, "ANANKE_SCRIPT="+file)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("zsh: %v", err)
			}
			checkCompletion(t, tc, lines(string(out)))
		})
	}
}

func TestCompletionFish(t *testing.T) {
	fish := needShell(t, "fish")
	file := script(t, "fish")
	if out, err := exec.Command(fish, "--no-execute", file).CombinedOutput(); err != nil {
		t.Fatalf("fish --no-execute: %v\n%s", err, out)
	}
	dir := tagSuite(t)
	cases := append([]completionCase{{name: "command", words: []string{"ananke", "ru"}, want: []string{"run"}}}, completionCases...)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cmd := shellCmd(t, dir, fish, "--no-config", "-c", "source $ANANKE_SCRIPT; and complete -C $argv[1]", strings.Join(tc.words, " "))
			cmd.Env = append(cmd.Env, "ANANKE_SCRIPT="+file)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("fish: %v\n%s", err, out)
			}
			var got []string // without their descriptions
			for _, l := range lines(string(out)) {
				c, _, _ := strings.Cut(l, "\t")
				got = append(got, c)
			}
			checkCompletion(t, tc, got)
		})
	}
}

func TestCompleteTags(t *testing.T) {
	suite := tagSuite(t)
	broken := t.TempDir()
	writeSuite(t, broken, "http://127.0.0.1:1/agent", "tags: {not: a list}\n")
	for _, tc := range []struct {
		name string
		dir  string
		args []string
		want string
	}{
		{"suite here", suite, nil, "checkout\nsmoke\n"},
		{"suite in a parent", filepath.Join(suite, "tests"), nil, "checkout\nsmoke\n"},
		{"config flag", t.TempDir(), []string{"--config", filepath.Join(suite, "ananke.config.yaml")}, "checkout\nsmoke\n"},
		{"short config flag", t.TempDir(), []string{"-c", filepath.Join(suite, "ananke.config.yaml")}, "checkout\nsmoke\n"},
		{"path", t.TempDir(), []string{filepath.Join(suite, "tests", "a.ananke.yaml")}, "checkout\nsmoke\n"},
		{"no suite", t.TempDir(), nil, ""},
		{"missing config", t.TempDir(), []string{"--config", "nope.yaml"}, ""},
		{"invalid suite", broken, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, tc.dir, nil, append([]string{"__complete", "tags"}, tc.args...)...)
			if r.code != ExitPass || r.out != tc.want || r.errOut != "" {
				t.Errorf("__complete tags = %d %q %q; want 0 %q and no stderr", r.code, r.out, r.errOut, tc.want)
			}
		})
	}
	if r := run(t, "", nil, "__complete", "frobs"); r.code != ExitInvalid {
		t.Errorf("__complete frobs = %d; want %d", r.code, ExitInvalid)
	}
	if r := run(t, "", nil, "help"); strings.Contains(r.out, "__complete") {
		t.Errorf("help lists __complete:\n%s", r.out)
	}
}

func TestCompletionArgs(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "name one shell: bash, zsh or fish"},
		{[]string{"tcsh"}, `unknown shell "tcsh"; want bash, zsh or fish`},
		{[]string{"bash", "zsh"}, "name one shell: bash, zsh or fish"},
		{[]string{"--nope"}, "ananke completion: unknown flag --nope"},
	} {
		r := run(t, "", nil, append([]string{"completion"}, tc.args...)...)
		if r.code != ExitInvalid || !strings.Contains(r.errOut, tc.want) || r.out != "" {
			t.Errorf("completion %q = %d %q; want %d and %q", tc.args, r.code, r.errOut, ExitInvalid, tc.want)
		}
	}
	for _, shell := range shells {
		if r := run(t, "", nil, "completion", shell); r.code != ExitPass || !strings.Contains(r.out, "__complete tags") {
			t.Errorf("completion %s = %d %q", shell, r.code, r.errOut)
		}
	}
}
