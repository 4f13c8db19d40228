package cli

// What the checks of the pipeline files share (pipeline_gitlab_test.go,
// pipeline_jenkins_test.go): their shell lines read as the shell reads
// them, each ananke command line parsed with the real flag set of the
// command it names, and the report directory Ananke writes, to look up the
// files they hand to their CI.

import (
	"context"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/reportdir"
)

// releasedImage is the image the pipeline files run Ananke in: the major
// tag releases move (docs/development.md, "Releases").
const releasedImage = "ghcr.io/ananke/action:v1"

// shellCommands splits a line of shell, as pipeline files write it, into
// its simple commands, each the words the shell would run: quotes removed,
// $VAR and ${VAR} expanded from vars (split on blanks when unquoted), and
// the reserved words of if/then/fi dropped. It reads only the syntax the
// pipeline files use — blanks, quotes, backslashes, ; && || | and # — and
// refuses the rest ($(…), backquotes, ${VAR:-…}, redirections, a variable
// vars lacks), so that a line it cannot read fails instead of passing
// unread.
func shellCommands(line string, vars map[string]string) ([][]string, error) {
	var (
		cmds  [][]string
		words []string
		word  strings.Builder
		open  bool // a word has begun (an empty "" is a word)
	)
	endWord := func() {
		if open {
			words = append(words, word.String())
		}
		word.Reset()
		open = false
	}
	endCommand := func() {
		endWord()
		if len(words) > 0 {
			cmds = append(cmds, words)
		}
		words = nil
	}
	// expand reads the variable after the $ at rs[i] and returns its value
	// and the index of its last rune.
	expand := func(rs []rune, i int) (string, int, error) {
		j := i + 1
		braced := j < len(rs) && rs[j] == '{'
		if braced {
			j++
		}
		k := j
		for k < len(rs) && (rs[k] == '_' || rs[k] >= 'A' && rs[k] <= 'Z' || rs[k] >= 'a' && rs[k] <= 'z' || k > j && rs[k] >= '0' && rs[k] <= '9') {
			k++
		}
		name := string(rs[j:k])
		if name == "" || braced && (k >= len(rs) || rs[k] != '}') {
			return "", 0, fmt.Errorf("cannot read the expansion at %q", string(rs[i:]))
		}
		v, ok := vars[name]
		if !ok {
			return "", 0, fmt.Errorf("$%s is not set", name)
		}
		if braced {
			return v, k, nil
		}
		return v, k - 1, nil
	}
	rs := []rune(line)
	for i := 0; i < len(rs); i++ {
		switch c := rs[i]; {
		case c == ' ' || c == '\t':
			endWord()
		case c == '\n' || c == ';':
			endCommand()
		case c == '&' || c == '|':
			if i+1 < len(rs) && rs[i+1] == c {
				i++
			} else if c == '&' {
				return nil, fmt.Errorf("a background command in %q", line)
			}
			endCommand()
		case c == '#' && !open:
			for i < len(rs) && rs[i] != '\n' {
				i++
			}
			endCommand()
		case c == '\'':
			j := slices.Index(rs[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("an unclosed ' in %q", line)
			}
			word.WriteString(string(rs[i+1 : i+1+j]))
			open, i = true, i+1+j
		case c == '"':
			open = true
			for i++; ; i++ {
				if i >= len(rs) {
					return nil, fmt.Errorf("an unclosed \" in %q", line)
				}
				if rs[i] == '"' {
					break
				}
				switch rs[i] {
				case '\\':
					if i+1 < len(rs) && strings.ContainsRune("$\"\\`", rs[i+1]) {
						i++
					}
					word.WriteRune(rs[i])
				case '`':
					return nil, fmt.Errorf("a command substitution in %q", line)
				case '$':
					v, end, err := expand(rs, i)
					if err != nil {
						return nil, err
					}
					word.WriteString(v)
					i = end
				default:
					word.WriteRune(rs[i])
				}
			}
		case c == '\\':
			if i+1 < len(rs) {
				i++
				word.WriteRune(rs[i])
				open = true
			}
		case c == '$':
			v, end, err := expand(rs, i)
			if err != nil {
				return nil, err
			}
			i = end
			// Unquoted: split into words on blanks.
			if strings.TrimLeft(v, " \t\n") != v {
				endWord()
			}
			for k, field := range strings.Fields(v) {
				if k > 0 {
					endWord()
				}
				word.WriteString(field)
				open = true
			}
			if strings.TrimRight(v, " \t\n") != v {
				endWord()
			}
		case c == '`' || c == '<' || c == '>' || c == '(' || c == ')':
			return nil, fmt.Errorf("cannot read %q in %q", c, line)
		default:
			word.WriteRune(c)
			open = true
		}
	}
	endCommand()
	// The reserved words of if/then/else/fi lead or make up a command.
	var out [][]string
	for _, cmd := range cmds {
		for len(cmd) > 0 && slices.Contains([]string{"if", "then", "else", "elif", "fi", "!"}, cmd[0]) {
			cmd = cmd[1:]
		}
		if len(cmd) > 0 {
			out = append(out, cmd)
		}
	}
	return out, nil
}

// anankeCommands are the ananke command lines among lines of shell, each
// without the program's name.
func anankeCommands(t *testing.T, where string, lines []string, vars map[string]string) [][]string {
	t.Helper()
	var out [][]string
	for _, line := range lines {
		cmds, err := shellCommands(line, vars)
		if err != nil {
			t.Errorf("%s: %v", where, err)
			continue
		}
		for _, cmd := range cmds {
			if cmd[0] == "ananke" {
				out = append(out, cmd[1:])
			}
		}
	}
	return out
}

// anankeFlags parses an ananke command line of a pipeline file (without
// the program's name) with the flag set of the command it names, as
// ananke would parse it, and returns the flag set, its values set; an
// unknown command or flag, or a value its flag refuses, is an error. The
// command's flag set comes from its own run function, as shell completion
// gets it, so a flag renamed or removed breaks the pipeline file's check.
func anankeFlags(args []string) (*flag.FlagSet, error) {
	quiet := Stdio{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard}
	var (
		got  *flag.FlagSet
		perr error
	)
	a := &app{Stdio: quiet, getwd: os.Getwd, now: time.Now}
	a.probe = func(fs *flag.FlagSet) {
		got = fs
		// The words naming the command ("publish gitlab") are not its
		// arguments; the first one always names it.
		rest := args[1:]
		for _, w := range strings.Fields(fs.Name())[1:] {
			if len(rest) > 0 && rest[0] == w {
				rest = rest[1:]
			}
		}
		perr = (&app{Stdio: quiet}).parse(fs, rest)
	}
	err := a.dispatch(context.Background(), args)
	if got == nil {
		msg, _, _ := strings.Cut(fmt.Sprint(err), "\n")
		return nil, fmt.Errorf("ananke %s: not a command of ananke (%s)", strings.Join(args, " "), msg)
	}
	if perr != nil {
		return nil, fmt.Errorf("ananke %s: %v", strings.Join(args, " "), perr)
	}
	return got, nil
}

// flagValue is the value of the flag name of a parsed flag set.
func flagValue(t *testing.T, fs *flag.FlagSet, name string) string {
	t.Helper()
	f := fs.Lookup(name)
	if f == nil {
		t.Fatalf("ananke %s has no flag --%s", fs.Name(), name)
	}
	return f.Value.String()
}

// writtenReportDir writes the report directory of a fixture report, every
// file Ananke's report directory holds, and returns it.
func writtenReportDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := reportdir.Write(dir, reporttest.Report()); err != nil {
		t.Fatal(err)
	}
	return dir
}

// inReportDir checks that p, a path a pipeline file hands to its CI,
// names what Ananke writes into the report directory reportDir (the run's
// --report-dir): the directory itself (with a trailing slash), a file of
// it, or a glob matching some of its files ("**" any depth); written is a
// report directory writtenReportDir wrote.
func inReportDir(p, reportDir, written string) error {
	rel, ok := strings.CutPrefix(p, strings.TrimSuffix(reportDir, "/")+"/")
	if !ok {
		return fmt.Errorf("%s is not in the report directory %s", p, reportDir)
	}
	if rel == "" {
		return nil
	}
	var files []string
	filepath.WalkDir(written, func(name string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			r, _ := filepath.Rel(written, name)
			files = append(files, filepath.ToSlash(r))
		}
		return nil
	})
	for _, f := range files {
		if globMatch(rel, f) {
			return nil
		}
	}
	return fmt.Errorf("%s names no file of the report directory (%s)", p, strings.Join(files[:min(len(files), 8)], ", "))
}

// globMatch matches name against an Ant-style glob, the kind Jenkins'
// steps take: ** is any number of directories, * and ? match within one.
func globMatch(pattern, name string) bool {
	ps, ns := strings.Split(pattern, "/"), strings.Split(name, "/")
	var match func(ps, ns []string) bool
	match = func(ps, ns []string) bool {
		switch {
		case len(ps) == 0:
			return len(ns) == 0
		case ps[0] == "**":
			for k := 0; k <= len(ns); k++ {
				if match(ps[1:], ns[k:]) {
					return true
				}
			}
			return false
		case len(ns) == 0:
			return false
		}
		ok, err := path.Match(ps[0], ns[0])
		return err == nil && ok && match(ps[1:], ns[1:])
	}
	return match(ps, ns)
}

// docShows checks that the page doc shows the pipeline file file as it is,
// in a code block of language lang, without the comment lines (starting
// with comment) that head the file: what readers paste is what is tested.
func docShows(t *testing.T, doc, file, lang, comment string) {
	t.Helper()
	page, err := os.ReadFile(filepath.Join(repoRoot(), doc))
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(repoRoot(), file))
	if err != nil {
		t.Fatal(err)
	}
	var body strings.Builder
	for line := range strings.Lines(string(b)) {
		if body.Len() == 0 && strings.HasPrefix(line, comment) {
			continue
		}
		body.WriteString(line)
	}
	if !strings.Contains(string(page), "```"+lang+"\n"+body.String()+"```\n") {
		t.Errorf("%s does not show %s as it is:\n%s", doc, file, body.String())
	}
}

// TestShellCommands: the shell reader splits, unquotes and expands as the
// shell does, and refuses what it cannot read.
func TestShellCommands(t *testing.T) {
	vars := map[string]string{"DIR": "ananke report", "ARGS": "--retries 2 tests/", "EMPTY": "", "ON": "true"}
	for _, tc := range []struct {
		line string
		want [][]string
		err  string
	}{
		{`ananke run --report-dir "$DIR" $ARGS`, [][]string{{"ananke", "run", "--report-dir", "ananke report", "--retries", "2", "tests/"}}, ""},
		{`ananke run --config "$EMPTY" $EMPTY -v`, [][]string{{"ananke", "run", "--config", "", "-v"}}, ""},
		{`if [ "$ON" = true ]; then ananke publish gitlab --report-dir "${DIR}"; fi`,
			[][]string{{"[", "true", "=", "true", "]"}, {"ananke", "publish", "gitlab", "--report-dir", "ananke report"}}, ""},
		{`a 'b $DIR' "c\"d" e\ f && g || h | i # j`, [][]string{{"a", "b $DIR", `c"d`, "e f"}, {"g"}, {"h"}, {"i"}}, ""},
		{`ananke run $(cat args)`, nil, "cannot read the expansion"},
		{"ananke run `cat args`", nil, "cannot read '`'"},
		{`ananke run "${DIR:-x}"`, nil, "cannot read the expansion"},
		{`ananke run $UNSET`, nil, "$UNSET is not set"},
		{`ananke run > log`, nil, "cannot read '>'"},
		{`ananke run &`, nil, "a background command"},
		{`ananke run "x`, nil, `an unclosed "`},
	} {
		got, err := shellCommands(tc.line, vars)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("shellCommands(%q) = %q, %v; want an error saying %q", tc.line, got, err, tc.err)
		case tc.err == "" && (err != nil || !slices.EqualFunc(got, tc.want, slices.Equal)):
			t.Errorf("shellCommands(%q) = %q, %v; want %q", tc.line, got, err, tc.want)
		}
	}
}

// TestAnankeFlags: a command line parses with its command's real flags,
// flags anywhere; an unknown flag, a refused value or an unknown command
// does not.
func TestAnankeFlags(t *testing.T) {
	fs, err := anankeFlags([]string{"run", "tests/", "--report-dir", "out", "--parallel", "4", "-v"})
	if err != nil {
		t.Fatal(err)
	}
	if got := flagValue(t, fs, "report-dir"); got != "out" {
		t.Errorf("--report-dir = %q; want out", got)
	}
	if fs.NArg() != 1 || fs.Arg(0) != "tests/" {
		t.Errorf("operands = %q; want [tests/]", fs.Args())
	}
	if fs, err := anankeFlags([]string{"trace", "export", "-o", "x", "dir"}); err != nil || fs.Name() != "trace export" || flagValue(t, fs, "output") != "x" {
		t.Errorf("trace export: %v", err)
	}
	for _, args := range [][]string{
		{"run", "--report-dri", "out"},
		{"run", "--parallel", "many"},
		{"runn"},
		{"trace", "exports"},
	} {
		if _, err := anankeFlags(args); err == nil {
			t.Errorf("ananke %s parsed", strings.Join(args, " "))
		}
	}
}

// TestInReportDir: the paths handed to a CI are looked up in the report
// directory Ananke writes, relative to the run's --report-dir.
func TestInReportDir(t *testing.T) {
	written := writtenReportDir(t)
	for _, tc := range []struct {
		path, dir string
		ok        bool
	}{
		{"ananke-report/junit.xml", "ananke-report", true},
		{"out/junit.xml", "out/", true},
		{"ananke-report/", "ananke-report", true},
		{"ananke-report/**", "ananke-report", true},
		{"ananke-report/tests/*.result.json", "ananke-report", true},
		{"ananke-report/junit.xml", "out", false},
		{"ananke-report/report.xml", "ananke-report", false},
		{"ananke-report/*.txt", "ananke-report", false},
	} {
		if err := inReportDir(tc.path, tc.dir, written); (err == nil) != tc.ok {
			t.Errorf("inReportDir(%q, %q) = %v; want ok %v", tc.path, tc.dir, err, tc.ok)
		}
	}
}
