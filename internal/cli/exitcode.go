package cli

import (
	"fmt"
	"strings"
)

// Exit codes (README, "Exit codes"). Only this package maps outcomes to
// them.
const (
	// ExitPass: every test passed (or there was nothing to judge).
	ExitPass = 0
	// ExitFail: at least one test failed an assertion.
	ExitFail = 1
	// ExitError: at least one test errored (hook, transport or Ananke
	// problem) and none failed: the agent's behaviour could not be judged.
	ExitError = 2
	// ExitInvalid: invalid config or test files, or invalid flags.
	ExitInvalid = 3
)

// exitError is how a command ends other than with a plain success: the
// exit code and what to say. Commands return it (or several, joined with
// errors.Join) and print no error themselves; the dispatcher under Main
// prints each message once, as "ananke SCOPE: message" ("ananke: message"
// without a scope), and ends with the code (see codeOf).
type exitError struct {
	code int
	// scope names who speaks: "run" prints "ananke run: …"; "" prints
	// "ananke: …". An inner error without a scope of its own takes it.
	scope string
	// err is what went wrong, one message (later lines are printed as
	// they are, with no prefix); or errors joined, one message each; nil
	// when there is nothing to say (the output said it: failed tests, a
	// command's help).
	err error
}

func (e *exitError) Error() string {
	return strings.Join(messages(e, ""), "\n")
}

func (e *exitError) Unwrap() error { return e.err }

// exitf is a message said as scope's, ending the command with code.
func exitf(code int, scope, format string, args ...any) error {
	return &exitError{code: code, scope: scope, err: fmt.Errorf(format, args...)}
}

// invalidf is exitf for invalid flags, files or input (exit 3).
func invalidf(scope, format string, args ...any) error {
	return exitf(ExitInvalid, scope, format, args...)
}

// errorf is exitf for a failure of Ananke or its surroundings: a file
// that could not be written, a model that failed (exit 2).
func errorf(scope, format string, args ...any) error {
	return exitf(ExitError, scope, format, args...)
}

// withCode is err said as scope's, ending the command with code; nil err
// says nothing. It also gives a joined error another code (failOn).
func withCode(code int, scope string, err error) error {
	return &exitError{code: code, scope: scope, err: err}
}

// exitWith ends the command with code and says nothing more: its output
// said it (failed tests, help asked for).
func exitWith(code int) error {
	return &exitError{code: code}
}

// codeOf is the exit code err ends the process with: 0 for nil; an
// exitError's code; of joined errors, the first that is not 0 (a failed
// run that also lost its summary stays a failure, exit 1; a passed one
// becomes an error, exit 2); any other error is Ananke's own, exit 2.
func codeOf(err error) int {
	switch e := err.(type) {
	case nil:
		return ExitPass
	case *exitError:
		return e.code
	case interface{ Unwrap() []error }:
		for _, err := range e.Unwrap() {
			if c := codeOf(err); c != ExitPass {
				return c
			}
		}
		return ExitPass
	}
	return ExitError
}

// messages are the lines Main prints for err, each with its prefix;
// scope is the scope err inherits.
func messages(err error, scope string) []string {
	switch e := err.(type) {
	case nil:
		return nil
	case *exitError:
		if e.scope != "" {
			scope = e.scope
		}
		return messages(e.err, scope)
	case interface{ Unwrap() []error }:
		var out []string
		for _, err := range e.Unwrap() {
			out = append(out, messages(err, scope)...)
		}
		return out
	}
	return []string{prefix(scope) + err.Error()}
}

// prefix starts every message Ananke prints about itself: "ananke: ", or
// "ananke run: " for a command's.
func prefix(scope string) string {
	if scope == "" {
		return "ananke: "
	}
	return "ananke " + scope + ": "
}

// exit prints what err says on stderr and returns its exit code. It is
// the one place a command's error is printed (Main calls it).
func (a *app) exit(err error) int {
	for _, m := range messages(err, "") {
		fmt.Fprintln(a.Err, m)
	}
	return codeOf(err)
}

// warn says what went wrong without ending the command (a profile that
// could not be written, a comparison that could not be printed), at once
// and with the prefix of Main's messages.
func (a *app) warn(scope string, err error) {
	fmt.Fprintln(a.Err, prefix(scope)+err.Error())
}
