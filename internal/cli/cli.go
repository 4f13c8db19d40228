// Package cli is Ananke's command line: flags, subcommands and exit codes.
// It is the only package that touches the process — arguments, environment,
// standard streams, the working directory and the clock — and hands
// everything below it plain values, writers and functions.
package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/ananke/action/internal/decode"
)

// Stdio holds the process's standard streams.
type Stdio struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer
	// OutIsTerminal is true when Out is an interactive terminal.
	OutIsTerminal bool
	// InIsTerminal is true when In is an interactive terminal: only then
	// may a command ask questions (ananke init); scripts and CI never wait.
	InIsTerminal bool
}

// OSStdio returns the real standard streams.
func OSStdio() Stdio {
	return Stdio{In: os.Stdin, Out: os.Stdout, Err: os.Stderr, OutIsTerminal: isTerminal(os.Stdout), InIsTerminal: isTerminal(os.Stdin)}
}

// isTerminal reports whether f is an interactive terminal. Being a
// character device is not enough: /dev/null is one too, and a script's
// `</dev/null` must never be asked anything.
func isTerminal(f *os.File) bool {
	return term.IsTerminal(int(f.Fd()))
}

// app is one invocation's view of the process.
type app struct {
	Stdio
	// modelFor is the gateway's model for a test of a variant that sets
	// one (variants.go); nil without.
	modelFor func(testID string) string
	environ  []string
	getwd    func() (string, error)
	now      func() time.Time
	// onSignal arranges for cancel to be called on SIGINT/SIGTERM and
	// returns a function undoing it; nil in tests.
	onSignal func(cancel func()) (stop func())
	// probe, when set, is given each command's flag set instead of
	// running the command (shell completion lists the flags).
	probe func(fs *flag.FlagSet)
	// cmd is the command running ("run"), for messages that show a
	// command line.
	cmd string
}

// Main runs the command line args (without the program name) with the
// process environment environ (KEY=VALUE) and returns the exit code.
func Main(ctx context.Context, args []string, stdio Stdio, environ []string) int {
	a := &app{Stdio: stdio, environ: environ, getwd: os.Getwd, now: time.Now}
	a.onSignal = a.handleSignals
	return a.main(ctx, args)
}

// lookupEnv reads a variable of the environment the app was given.
func (a *app) lookupEnv(name string) (string, bool) {
	for i := len(a.environ) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(a.environ[i], "="); ok && k == name {
			return v, true
		}
	}
	return "", false
}

type command struct {
	name, summary string
	// run runs the command; it prints no error of its own but returns
	// it, with its exit code (exitcode.go).
	run func(ctx context.Context, a *app, args []string) error
}

var commands []command

func init() {
	commands = []command{
		{"init", "start a project: config, a first test and a GitHub workflow", runInit},
		{"run", "run the tests against the agent", runRun},
		{"action", "run as the GitHub Action (inputs from INPUT_*, results published to GitHub)", runAction},
		{"publish", "publish a report directory where reviewers look: the merge request note on GitLab (publish gitlab)", runPublish},
		{"merge", "merge report directories (e.g. of --shard jobs) into one", runMerge},
		{"report", "write one format of a report directory: codequality, warnings-ng, junit, markdown or json", runReport},
		{"diff", "show what changed between two report directories (new failures, fixed, flaky…)", runDiff},
		{"history", "show the flakiest, failing, slowest and costliest tests of past runs; keep a history file", runHistory},
		{"show", "open a report's index.html in the browser (a report directory or a downloaded artifact zip)", runShow},
		{"trace", "export a report's traces as normalized traces (trace export)", runTrace},
		{"doubles", "serve the tool doubles of a running run over stdio, for agents that spawn their MCP servers (doubles serve)", runDoubles},
		{"generate", "ask the config's model for test files; write the valid ones", runGenerate},
		{"bless", "turn a recording, a report's test or a transcript into a test file asserting what the agent did", runBless},
		{"judge", "measure the config's judge against human labels; write the calibration judges.gate reads (judge calibrate)", runJudge},
		{"rejudge", "score a report's judges again with the current model, prompt and gate, over its stored traces", runRejudge},
		{"validate", "check config and test files without running anything", runValidate},
		{"schema", "print a JSON Schema: config, test, quarantine, report (summary.json), normalized-trace, history, labels or calibration", runSchema},
		{"version", "print the version", runVersion},
		{"completion", "print a shell completion script: bash, zsh or fish", runCompletion},
	}
}

// main runs args and returns the exit code: the one place where a
// command's error is printed (exit).
func (a *app) main(ctx context.Context, args []string) int {
	return a.exit(a.dispatch(ctx, args))
}

// dispatch runs the command args name.
func (a *app) dispatch(ctx context.Context, args []string) error {
	if len(args) == 0 {
		a.usage(a.Err)
		return exitWith(ExitInvalid)
	}
	switch args[0] {
	case "-h", "-help", "--help":
		a.usage(a.Out)
		return nil
	case "help": // help, or help COMMAND: its flags, as COMMAND -h prints them
		if len(args) == 1 || args[1] == "help" {
			a.usage(a.Out)
			return nil
		}
		args = append(slices.Clone(args[1:]), "-h")
	case "--version", "-version":
		return runVersion(ctx, a, nil)
	case "__complete": // for the completion scripts; not in the help
		return runComplete(ctx, a, args[1:])
	}
	for _, c := range commands {
		if c.name == args[0] {
			a.cmd = c.name
			return c.run(ctx, a, args[1:])
		}
	}
	if near := nearestCommand(args[0]); near != "" {
		return invalidf("", "unknown command %q; did you mean %s?\nRun 'ananke help' for the commands.", args[0], near)
	}
	var usage strings.Builder
	a.usage(&usage)
	return invalidf("", "unknown command %q\n\n%s", args[0], strings.TrimSuffix(usage.String(), "\n"))
}

// nearestCommand names the command closest to name, e.g. run for rnu;
// "" when none is close.
func nearestCommand(name string) string {
	best, bestD := "", 3 // at most two edits away, or a prefix
	for _, c := range commands {
		d := decode.EditDistance(name, c.name)
		if strings.HasPrefix(c.name, name) && len(name) >= 2 {
			d = min(d, 1)
		}
		if d < bestD {
			best, bestD = c.name, d
		}
	}
	return best
}

// summary is a command's line of the help, as a sentence: "Run the tests
// against the agent."; "" for a command not listed.
func summary(name string) string {
	for _, c := range commands {
		if c.name == name {
			return strings.ToUpper(c.summary[:1]) + c.summary[1:] + "."
		}
		if sub, ok := subcommands(c.name); ok {
			for _, s := range sub {
				if c.name+" "+s.name == name {
					return strings.ToUpper(s.summary[:1]) + s.summary[1:] + "."
				}
			}
		}
	}
	return ""
}

func (a *app) usage(w io.Writer) {
	fmt.Fprintln(w, "Ananke tests AI agents the way CI tests code: over AG-UI, A2A and MCP, or from their recorded sessions.")
	fmt.Fprintln(w, "\nUsage:\n  ananke <command> [flags] [PATH...]\n\nCommands:")
	width := 0
	for _, c := range commands {
		width = max(width, len(c.name))
	}
	for _, c := range commands {
		fmt.Fprintf(w, "  %-*s %s\n", width, c.name, c.summary)
	}
	fmt.Fprintln(w, "\nStart with 'ananke init' in your repository (docs/init.md), then 'ananke run'.")
	fmt.Fprintln(w, "Run 'ananke help <command>' (or 'ananke <command> -h') for a command's flags; 'ananke --version' prints the version.")
	fmt.Fprintln(w, "Exit codes: 0 passed, 1 a test failed, 2 a test errored, 3 invalid files or flags.")
}

// flags makes a command's flag set. Its help, asked for with -h or
// --help, goes to stdout; parse returns its errors, for Main to print.
func (a *app) flags(name, args string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // the flag package prints nothing itself
	fs.Usage = func() {
		n := 0
		fs.VisitAll(func(*flag.Flag) { n++ })
		line := "Usage: ananke " + name
		if n > 0 {
			line += " [flags]"
		}
		if args != "" {
			line += " " + args
		}
		fmt.Fprintln(a.Out, line)
		if s := summary(name); s != "" {
			fmt.Fprintf(a.Out, "\n%s\n", s)
		}
		if n > 0 {
			fmt.Fprintln(a.Out, "\nFlags (anywhere among the arguments; -- ends them):")
			printFlags(a.Out, fs)
		}
	}
	return fs
}
