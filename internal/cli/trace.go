package cli

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/ananke/action/internal/normalized"
	"github.com/ananke/action/internal/plural"
)

// traceCommands are the commands of `ananke trace` (shell completion
// lists them too).
var traceCommands []command

func init() { // not an initializer: the commands' help reads the table
	traceCommands = []command{
		{"export", "write a report's traces as normalized traces, one JSON file per test", runTraceExport},
	}
}

// runTrace is `ananke trace`: commands on a report's traces.
func runTrace(ctx context.Context, a *app, args []string) error {
	return a.runSub(ctx, "trace", traceCommands, traceUsage, args)
}

// runSub runs the command args name among cmds, the commands of the
// command parent; usage prints parent's help.
func (a *app) runSub(ctx context.Context, parent string, cmds []command, usage func(io.Writer), args []string) error {
	if len(args) == 0 {
		usage(a.Err)
		return exitWith(ExitInvalid)
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		usage(a.Out)
		return nil
	}
	for _, c := range cmds {
		if c.name == args[0] {
			return c.run(ctx, a, args[1:])
		}
	}
	var b strings.Builder
	usage(&b)
	return invalidf(parent, "unknown command %q\n\n%s", args[0], strings.TrimSuffix(b.String(), "\n"))
}

func traceUsage(w io.Writer) {
	fmt.Fprintln(w, "Usage: ananke trace export [-o DIR] [--test ID] [--all-attempts] REPORT_DIR")
	fmt.Fprintln(w, "\nCommands:\n  export    write a report's traces as normalized traces (docs/traces.md), one JSON file per test")
	fmt.Fprintln(w, "\nRun 'ananke trace export -h' for its flags.")
}

// runTraceExport is `ananke trace export`: each test's trace in a report
// directory becomes a normalized trace, DIR/<test>.trace.json, or with
// --test and no -o one document on stdout.
func runTraceExport(_ context.Context, a *app, args []string) error {
	const scope = "trace export"
	fs := a.flags(scope, "REPORT_DIR")
	out := fs.String("output", "ananke-traces", "write the traces into `dir`, one <test>.trace.json per test; with --test and no -o, print the one trace instead")
	alias(fs, "o", "output")
	test := fs.String("test", "", "export only the test with this `id`")
	all := fs.Bool("all-attempts", false, "export every attempt of a test that ran more than once (<test>.attempt-<k>.trace.json), not only its shown one")
	if err := a.parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return invalidf(scope, "name one report directory")
	}
	dir := fs.Arg(0)
	r, err := normalized.Open(dir)
	if err != nil {
		return withCode(ExitInvalid, scope, err)
	}
	items, err := r.Items(*test, *all)
	if err != nil {
		return withCode(ExitInvalid, scope, err)
	}
	if *test != "" && !isSet(fs, "o") && !isSet(fs, "output") {
		return a.printTrace(r, items)
	}
	if sameDir(*out, filepath.Join(dir, "tests")) {
		return invalidf(scope, "-o %s would overwrite the report's trace files; write elsewhere", *out)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return withCode(ExitError, scope, err)
	}
	for _, it := range items {
		tr, err := r.Export(it)
		if err != nil {
			return withCode(ExitInvalid, scope, err)
		}
		if err := writeTraceFile(filepath.Join(*out, it.Name), tr); err != nil {
			return withCode(ExitError, scope, err)
		}
	}
	fmt.Fprintf(a.Out, "Exported %s from %s into %s\n", plural.Count(len(items), "trace"), filepath.Clean(dir), filepath.Clean(*out))
	return nil
}

// printTrace prints the one trace of --test without -o.
func (a *app) printTrace(r *normalized.Report, items []normalized.Item) error {
	const scope = "trace export"
	if len(items) != 1 {
		return invalidf(scope, "test %s has %d attempts; name a directory with -o to export them all", items[0].Test.ID, len(items))
	}
	tr, err := r.Export(items[0])
	if err != nil {
		return withCode(ExitInvalid, scope, err)
	}
	if err := normalized.Write(a.Out, tr); err != nil {
		return errorf(scope, "write: %w", err)
	}
	return nil
}

// writeTraceFile writes a trace under a temporary name and renames it, so
// that a reader never sees half a file.
func writeTraceFile(name string, tr normalized.Trace) error {
	var b bytes.Buffer
	if err := normalized.Write(&b, tr); err != nil {
		return fmt.Errorf("encode %s: %w", name, err)
	}
	tmp := name + ".tmp"
	if err := os.WriteFile(tmp, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write trace: %w", err)
	}
	if err := os.Rename(tmp, name); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write trace: %w", err)
	}
	return nil
}

// isSet reports whether flag name was given.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
