// Package cli is Ananke's command line: flags, subcommands and exit codes.
// It is the only package that touches the process — arguments, environment,
// standard streams, the working directory and the clock — and hands
// everything below it plain values, writers and functions.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"
)

// Stdio holds the process's standard streams.
type Stdio struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer
}

// OSStdio returns the real standard streams.
func OSStdio() Stdio { return Stdio{In: os.Stdin, Out: os.Stdout, Err: os.Stderr} }

// app is one invocation's view of the process.
type app struct {
	Stdio
	lookupEnv func(string) (string, bool)
	getwd     func() (string, error)
	now       func() time.Time
}

// Main runs the command line args (without the program name) and returns
// the process exit code.
func Main(ctx context.Context, args []string, stdio Stdio, lookupEnv func(string) (string, bool)) int {
	a := &app{Stdio: stdio, lookupEnv: lookupEnv, getwd: os.Getwd, now: time.Now}
	return a.main(ctx, args)
}

type command struct {
	name, summary string
	run           func(ctx context.Context, a *app, args []string) int
}

var commands []command

func init() {
	commands = []command{
		{"validate", "check config and test files without running anything", runValidate},
		{"schema", "print the JSON Schema of a file kind (config, test)", runSchema},
		{"version", "print the version", runVersion},
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
	for _, c := range commands {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'ananke <command> -h' for a command's flags.")
	fmt.Fprintln(w, "Exit codes: 0 passed, 1 a test failed, 2 a test errored, 3 invalid files or flags.")
}

// flags makes a command's flag set, writing errors and help to stderr.
func (a *app) flags(name, args string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(a.Err)
	fs.Usage = func() {
		fmt.Fprintf(a.Err, "Usage: ananke %s [flags] %s\n\nFlags:\n", name, args)
		fs.PrintDefaults()
	}
	return fs
}

// parse parses flags; it returns an exit code when the command must stop
// (help asked: 0; bad flags: 3).
func parse(fs *flag.FlagSet, args []string) (int, bool) {
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return ExitPass, false
	case err != nil:
		return ExitInvalid, false
	}
	return 0, true
}
