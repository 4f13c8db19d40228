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
	"strings"
	"time"

	"golang.org/x/term"
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
	environ []string
	getwd   func() (string, error)
	now     func() time.Time
	// onSignal arranges for cancel to be called on SIGINT/SIGTERM and
	// returns a function undoing it; nil in tests.
	onSignal func(cancel func()) (stop func())
	// probe, when set, is given each command's flag set instead of
	// running the command (shell completion lists the flags).
	probe func(fs *flag.FlagSet)
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
	run           func(ctx context.Context, a *app, args []string) int
}

var commands []command

func init() {
	commands = []command{
		{"init", "start a project: config, a first test and a GitHub workflow", runInit},
		{"run", "run the tests against the agent", runRun},
		{"action", "run as the GitHub Action (inputs from INPUT_*, results published to GitHub)", runAction},
		{"merge", "merge report directories (e.g. of --shard jobs) into one", runMerge},
		{"diff", "show what changed between two report directories (new failures, fixed, flaky…)", runDiff},
		{"show", "open a report's index.html in the browser (a report directory or a downloaded artifact zip)", runShow},
		{"trace", "export a report's traces as normalized traces (trace export)", runTrace},
		{"generate", "ask the config's model for test files; write the valid ones", runGenerate},
		{"validate", "check config and test files without running anything", runValidate},
		{"schema", "print a JSON Schema: config, test, or report (summary.json)", runSchema},
		{"version", "print the version", runVersion},
		{"completion", "print a shell completion script: bash, zsh or fish", runCompletion},
	}
}

func (a *app) main(ctx context.Context, args []string) int {
	if len(args) == 0 {
		a.usage(a.Err)
		return ExitInvalid
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		a.usage(a.Out)
		return ExitPass
	case "--version", "-version":
		return runVersion(ctx, a, nil)
	case "__complete": // for the completion scripts; not in the help
		return runComplete(ctx, a, args[1:])
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(ctx, a, args[1:])
		}
	}
	fmt.Fprintf(a.Err, "ananke: unknown command %q\n\n", args[0])
	a.usage(a.Err)
	return ExitInvalid
}

func (a *app) usage(w io.Writer) {
	fmt.Fprintln(w, "Ananke tests tool-using AI agents over AG-UI.")
	fmt.Fprintln(w, "\nUsage:\n  ananke <command> [flags] [PATH...]\n\nCommands:")
	width := 0
	for _, c := range commands {
		width = max(width, len(c.name))
	}
	for _, c := range commands {
		fmt.Fprintf(w, "  %-*s %s\n", width, c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'ananke <command> -h' for a command's flags; 'ananke --version' prints the version.")
	fmt.Fprintln(w, "Exit codes: 0 passed, 1 a test failed, 2 a test errored, 3 invalid files or flags.")
}

// flags makes a command's flag set, writing errors and help to stderr.
func (a *app) flags(name, args string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(a.Err)
	fs.Usage = func() {
		fmt.Fprintf(a.Err, "Usage: ananke %s [flags] %s\n\nFlags (anywhere among the arguments; -- ends them):\n", name, args)
		printFlags(a.Err, fs)
	}
	return fs
}
