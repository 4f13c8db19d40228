package cli

import (
	"context"
	"embed"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/template"

	"github.com/ananke/action/internal/spec"
)

// shells are the shells `ananke completion` writes a script for.
var shells = []string{"bash", "zsh", "fish"}

//go:embed completion.*.tmpl
var completionFS embed.FS

// runCompletion is `ananke completion bash|zsh|fish`: it prints a script
// that completes Ananke's commands, their flags and the flags' values. The
// script is generated from the commands table and each command's flag
// set, so it never lists a flag that does not exist.
func runCompletion(ctx context.Context, a *app, args []string) error {
	fs := a.flags("completion", "bash|zsh|fish")
	if err := a.parse(fs, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() != 1:
		return invalidf("completion", "name one shell: bash, zsh or fish")
	case !slices.Contains(shells, fs.Arg(0)):
		return invalidf("completion", "unknown shell %q; want bash, zsh or fish", fs.Arg(0))
	}
	if err := writeCompletion(a.Out, fs.Arg(0), a.completionCommands(ctx, "", commands)); err != nil {
		return withCode(ExitError, "completion", err)
	}
	return nil
}

// compCommand is a command as a completion script sees it.
type compCommand struct {
	Name    string // "run", or "trace export" for a command's command
	Word    string // what is typed: "run", "export"
	Summary string
	// Sub are the command's own commands (trace: export); a command with
	// them has no flags or operands of its own.
	Sub      []compCommand
	Flags    []compFlag
	Operands values
}

// compFlag is one flag with its aliases.
type compFlag struct {
	Names  []string // as typed, short first: -v, --verbose
	Usage  string   // its first line
	Bool   bool     // takes no value
	Values values
}

// values says what completes a flag's value or a command's operands.
type values struct {
	Kind     string   // "" nothing to offer, "files", "dirs", "tags" or "words"
	Words    []string // with "words"
	Suffixes []string // with "files": directories and the files ending so (any file without)
}

var (
	anyFile   = values{Kind: "files"}
	dirs      = values{Kind: "dirs"}
	testFiles = values{Kind: "files", Suffixes: []string{".ananke.yaml", ".ananke.yml", ".jsonl"}}
)

// operandValues complete each command's operands; a command not listed
// takes file names.
var operandValues = map[string]values{
	"init":         dirs,
	"run":          testFiles,
	"validate":     testFiles,
	"merge":        dirs,
	"report":       dirs,
	"diff":         dirs,
	"trace export": dirs,
	"show":         {Kind: "files", Suffixes: []string{".html", ".zip"}},
	"schema":       {Kind: "words", Words: schemaKinds()},
	"completion":   {Kind: "words", Words: shells},
	"generate":     {}, // a sentence
	"action":       {},
	"version":      {},

	"publish gitlab": {}, // flags only
}

// flagWords are the values of enum-like flags, by flag name, or by
// command and flag name where a command's differ.
var flagWords = map[string][]string{
	"format":         {"text", "markdown"},
	"history format": {"text", "markdown", "json"},
	"report format":  reportFormatNames(),
	"color":          {"auto", "always", "never"},
	"fail-on":        {"error", "new"},
	"init type":      {"agui", "openai", "http"},
	"init api":       {"chat", "responses"},
	"bless from":     {"recording", "report", "transcript", "nanoclaw"},
}

// valueNames complete a flag's value by the name its usage gives it (the
// `file` of "write to `file`"); other values are typed, not completed.
var valueNames = map[string]values{
	"file":  anyFile,
	"dir":   dirs,
	"tag":   {Kind: "tags"},
	"input": {Kind: "files", Suffixes: []string{".jsonl"}}, // a message or a dataset
}

// subcommands are the commands of a command that takes a command of its
// own (read when asked: the tables are filled by init functions).
func subcommands(name string) ([]command, bool) {
	switch name {
	case "trace":
		return traceCommands, true
	case "doubles":
		return doublesCommands, true
	case "judge":
		return judgeCommands, true
	case "publish":
		return publishCommands, true
	}
	return nil, false
}

// completionCommands describes cmds and their commands, each command's
// flags found by running it with a probing app, which hands over the flag
// set instead of running anything.
// The names of cmds start with prefix ("trace ").
func (a *app) completionCommands(ctx context.Context, prefix string, cmds []command) []compCommand {
	var out []compCommand
	for _, c := range cmds {
		cc := compCommand{Name: prefix + c.name, Word: c.name, Summary: c.summary}
		if sub, ok := subcommands(cc.Name); ok {
			cc.Sub = a.completionCommands(ctx, cc.Name+" ", sub)
			out = append(out, cc)
			continue
		}
		p := *a
		p.Stdio = Stdio{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard}
		p.probe = func(fs *flag.FlagSet) { cc.Flags = compFlags(fs) }
		c.run(ctx, &p, nil)
		cc.Operands = anyFile
		if v, ok := operandValues[cc.Name]; ok {
			cc.Operands = v
		}
		out = append(out, cc)
	}
	return out
}

// compFlags lists a flag set's flags, aliases together (they share a
// flag.Value, as printFlags finds them), in the order of their long names.
func compFlags(fs *flag.FlagSet) []compFlag {
	var flags []*compFlag
	byValue := map[flag.Value]*compFlag{}
	fs.VisitAll(func(f *flag.Flag) {
		cf, ok := byValue[f.Value]
		if !ok {
			cf = &compFlag{}
			if b, isBool := f.Value.(interface{ IsBoolFlag() bool }); isBool && b.IsBoolFlag() {
				cf.Bool = true
			}
			byValue[f.Value] = cf
			flags = append(flags, cf)
		}
		cf.Names = append(cf.Names, f.Name)
		if f.Usage == "" {
			return
		}
		name, usage := flag.UnquoteUsage(f)
		cf.Usage, _, _ = strings.Cut(usage, "\n")
		if !cf.Bool {
			cf.Values = valueNames[name]
		}
	})
	var out []compFlag
	for _, cf := range flags {
		slices.SortFunc(cf.Names, func(x, y string) int { return len(x) - len(y) })
		long := cf.Names[len(cf.Names)-1]
		w, ok := flagWords[fs.Name()+" "+long]
		if !ok {
			w, ok = flagWords[long]
		}
		if ok && !cf.Bool {
			cf.Values = values{Kind: "words", Words: w}
		}
		for i, n := range cf.Names {
			cf.Names[i] = dashes(n)
		}
		out = append(out, *cf)
	}
	slices.SortFunc(out, func(x, y compFlag) int { return strings.Compare(x.Names[len(x.Names)-1], y.Names[len(y.Names)-1]) })
	return out
}

// valueCase is the flags whose values complete alike: one case of a
// script's switch on the word before the cursor.
type valueCase struct {
	Names  []string
	Values values
}

// valueCases groups the flags that take a value by what completes it.
func valueCases(flags []compFlag) []valueCase {
	var cases []valueCase
	for _, f := range flags {
		if f.Bool {
			continue
		}
		i := slices.IndexFunc(cases, func(c valueCase) bool {
			return c.Values.Kind == f.Values.Kind && slices.Equal(c.Values.Words, f.Values.Words) && slices.Equal(c.Values.Suffixes, f.Values.Suffixes)
		})
		if i < 0 {
			cases = append(cases, valueCase{Values: f.Values})
			i = len(cases) - 1
		}
		cases[i].Names = append(cases[i].Names, f.Names...)
	}
	return cases
}

// writeCompletion writes shell's script for cmds.
func writeCompletion(w io.Writer, shell string, cmds []compCommand) error {
	var leaves []compCommand // the commands that take flags and operands
	for _, c := range cmds {
		if len(c.Sub) > 0 {
			leaves = append(leaves, c.Sub...)
		} else {
			leaves = append(leaves, c)
		}
	}
	name := "completion." + shell + ".tmpl"
	t, err := template.New(name).Funcs(template.FuncMap{
		"cases": valueCases,
		"join":  strings.Join,
		"quote": shellQuote,
		"fishq": func(s string) string {
			return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
		},
	}).ParseFS(completionFS, name)
	if err != nil {
		return fmt.Errorf("parse %s: %w", name, err)
	}
	if err := t.Execute(w, map[string]any{"Commands": cmds, "Leaves": leaves}); err != nil {
		return fmt.Errorf("write the %s script: %w", shell, err)
	}
	return nil
}

// shellQuote quotes s for bash or zsh when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// runComplete is `ananke __complete tags [--config FILE] [PATH...]`, which
// the completion scripts call: it prints the distinct tags of the suite
// `ananke run` would load, one a line. A suite that does not load prints
// nothing and exits 0: a completion must not print errors onto the
// command line being typed.
func runComplete(_ context.Context, a *app, args []string) error {
	fs := a.flags("__complete", "tags [PATH...]")
	config := fs.String("config", "", "project config `file`")
	alias(fs, "c", "config")
	if err := a.parse(fs, args); err != nil {
		return err
	}
	if fs.Arg(0) != "tags" {
		return invalidf("__complete", "want tags")
	}
	cfg, paths, err := a.findConfig(*config, fs.Args()[1:])
	if err != nil {
		return nil
	}
	suite, err := spec.Load(spec.Options{ConfigPath: cfg, Paths: paths, LookupEnv: a.lookupEnv})
	if err != nil {
		return nil
	}
	var tags []string
	for _, t := range suite.Tests {
		for _, tag := range t.Tags {
			tags = append(tags, tag.Value)
		}
	}
	slices.Sort(tags)
	for _, tag := range slices.Compact(tags) {
		fmt.Fprintln(a.Out, tag)
	}
	return nil
}
