package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/ananke/action/internal/decode"
)

// parse parses a command's flags wherever they stand among its arguments
// (`ananke run tests/ -v --parallel 4`); after `--` every argument is an
// operand, even one that starts with "-". The operands are left in
// fs.Args(). It returns an error when the command must stop: help asked
// (exit 0, the help on stdout), or a bad flag (exit 3), said as it was
// typed, with the nearest flag's name when one is close.
func (a *app) parse(fs *flag.FlagSet, args []string) error {
	if a.probe != nil { // completion: the command's flags are all it wants
		a.probe(fs)
		return exitWith(ExitPass)
	}
	usage := fs.Usage
	fs.Usage = func() {} // parse says what went wrong, once
	defer func() { fs.Usage = usage }()

	var operands []string
	rest := args
	for {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				usage()
				return exitWith(ExitPass)
			}
			return invalidf(fs.Name(), "%s\nRun 'ananke %s -h' for its flags.", flagProblem(fs, err, rest), fs.Name())
		}
		left := fs.Args()
		if len(left) == 0 {
			break
		}
		if used := len(rest) - len(left); used > 0 && rest[used-1] == "--" {
			operands = append(operands, left...)
			break
		}
		operands = append(operands, left[0])
		rest = left[1:]
	}
	// Parsing "--" and the operands leaves them as fs.Args().
	fs.Parse(append([]string{"--"}, operands...))
	return nil
}

// The flag package's errors, which name a flag with one dash however it
// was typed.
var (
	invalidValue = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^invalid value (".*") for flag -([^\s:]+): (.*)$`)
	})
	invalidBool = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^invalid boolean value (".*") for -([^\s:]+): (.*)$`)
	})
)

// flagProblem says what is wrong with a flag of args, named as it was
// typed: "unknown flag --verbos; did you mean --verbose?", `--parallel: "x"
// is not a whole number`. A value's error that says what it wants ("want
// a whole number") becomes what the value is not.
func flagProblem(fs *flag.FlagSet, err error, args []string) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		problem := "unknown flag " + typed(args, name)
		if hint := nearestFlag(fs, name); hint != "" {
			problem += "; did you mean " + hint + "?"
		}
		return problem
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		return typed(args, name) + " needs a value"
	}
	if m := invalidValue().FindStringSubmatch(msg); m != nil {
		value, name, why := m[1], typed(args, m[2]), m[3]
		if what, ok := strings.CutPrefix(why, "want "); ok {
			return fmt.Sprintf("%s: %s is not %s", name, value, what)
		}
		return fmt.Sprintf("%s %s: %s", name, value, why)
	}
	if m := invalidBool().FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("%s: %s is not true or false", typed(args, m[2]), m[1])
	}
	return msg
}

// typed is flag name as args spell it (-v, --verbos); dashes(name) when
// they do not.
func typed(args []string, name string) string {
	for _, arg := range args {
		if arg == "--" {
			break
		}
		flagPart, _, _ := strings.Cut(arg, "=")
		if n := len(flagPart) - len(strings.TrimLeft(flagPart, "-")); n > 0 && n <= 2 && flagPart[n:] == name {
			return flagPart
		}
	}
	return dashes(name)
}

// nearestFlag names the defined flag closest to the unknown flag name,
// e.g. "--verbose" for "verbos"; "" when none is close.
func nearestFlag(fs *flag.FlagSet, name string) string {
	name = strings.TrimLeft(name, "-")
	best, bestD := "", 3 // at most two edits away, or a prefix
	fs.VisitAll(func(f *flag.Flag) {
		d := decode.EditDistance(name, f.Name)
		if strings.HasPrefix(f.Name, name) && len(name) >= 3 {
			d = min(d, 1)
		}
		if d < bestD || d == bestD && f.Name < best {
			best, bestD = f.Name, d
		}
	})
	if best == "" {
		return ""
	}
	return dashes(best)
}

// dashes writes a flag as users type it: -v, --verbose.
func dashes(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// alias makes short another name of the long flag already defined.
func alias(fs *flag.FlagSet, short, long string) {
	fs.Var(fs.Lookup(long).Value, short, "")
}

// printFlags writes a flag set's help: each flag once, its short and long
// names together (-v, --verbose), as flag.PrintDefaults lays it out.
func printFlags(w io.Writer, fs *flag.FlagSet) {
	type entry struct {
		names []string
		f     *flag.Flag
	}
	var entries []*entry
	byValue := map[flag.Value]*entry{}
	fs.VisitAll(func(f *flag.Flag) {
		if e, ok := byValue[f.Value]; ok {
			e.names = append(e.names, f.Name)
			if f.Usage != "" {
				e.f = f
			}
			return
		}
		e := &entry{names: []string{f.Name}, f: f}
		byValue[f.Value] = e
		entries = append(entries, e)
	})
	for _, e := range entries {
		slices.SortFunc(e.names, func(x, y string) int { return len(x) - len(y) })
	}
	// In the order of the long names, as a reader looks them up.
	slices.SortFunc(entries, func(x, y *entry) int { return strings.Compare(x.names[len(x.names)-1], y.names[len(y.names)-1]) })
	for _, e := range entries {
		var names []string
		for _, n := range e.names {
			names = append(names, dashes(n))
		}
		kind, usage := flag.UnquoteUsage(e.f)
		line := "  " + strings.Join(names, ", ")
		if kind != "" {
			line += " " + kind
		}
		fmt.Fprintf(w, "%s\n    \t%s", line, strings.ReplaceAll(usage, "\n", "\n    \t"))
		switch d := e.f.DefValue; {
		case d == "" || d == "false" || d == "0":
		case fmt.Sprintf("%T", e.f.Value) == "*flag.stringValue":
			fmt.Fprintf(w, " (default %q)", d)
		default:
			fmt.Fprintf(w, " (default %s)", d)
		}
		fmt.Fprintln(w)
	}
}
