package scriptcheck

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/hooks"
	"github.com/ananke/action/internal/status"
)

const (
	// maxMessage bounds a failing script's stdout quoted as the message:
	// enough for a paragraph of explanation, small enough for a PR comment.
	maxMessage = 2000
	// maxEvidence bounds the stdout and stderr kept as evidence; the
	// report keeps every result, so one chatty script must not bloat it.
	maxEvidence = 4 << 10
	// maxNameLen bounds the command shown in Expected and messages.
	maxNameLen = 80
)

// Input is what a script check runs with, beside the check itself.
type Input struct {
	// Dir is the working directory: the directory of the file that
	// declares the check.
	Dir string
	// Env is the script's complete environment, KEY=VALUE.
	Env []string
	// Transcript is the scope's transcript (Transcript), written to the
	// script's stdin.
	Transcript []byte
	// Scope names the scope: "turn[N]" or "test".
	Scope string
}

// Evaluate runs script check c (bound: its Argv resolved) over in and
// returns its result: pass on exit status 0, fail on 1 with the script's
// stdout as the message, error otherwise. It never returns a fail for a
// script that could not judge the scope, so a broken script is not
// mistaken for a broken agent.
func Evaluate(ctx context.Context, c assertion.Check, in Input) assertion.Result {
	r := assertion.New(c, in.Scope)
	sc := c.Script()
	if sc == nil || sc.Script == nil {
		r.Status, r.Observed = status.Error, "no script"
		r.Message = fmt.Sprintf("check %s is not a script check", c.ID)
		r.Finish()
		return r
	}
	name := commandName(sc.Argv)
	r.Expected = Describe(c)
	ms := sc.Script.TimeoutMs
	if ms <= 0 {
		ms = assertion.DefaultScriptTimeoutMs
	}
	cmd := hooks.Command{
		Argv: sc.Argv, Dir: in.Dir, Env: in.Env, Stdin: in.Transcript,
		Timeout: time.Duration(ms) * time.Millisecond, Label: "script",
	}
	out, err := hooks.Exec(ctx, cmd)
	switch {
	case err != nil:
		r.Status, r.Observed = status.Error, observed(err)
		r.Message = err.Error()
	case out.ExitCode == 0:
		r.Status, r.Observed = status.Pass, "exit status 0"
		r.Message = fmt.Sprintf("script `%s` exited 0 over %s", name, scopeName(in.Scope))
	case out.ExitCode == 1:
		r.Status, r.Observed = status.Fail, "exit status 1"
		r.Message = bound(string(out.Stdout), maxMessage)
		if r.Message == "" {
			r.Message = fmt.Sprintf("script `%s` exited 1 and printed nothing", name)
		}
	default:
		r.Status, r.Observed = status.Error, fmt.Sprintf("exit status %d", out.ExitCode)
		r.Message = hooks.StatusError(cmd, out).Error() + " (a script exits 0 to pass or 1 to fail)"
	}
	if s := bound(string(out.Stdout), maxEvidence); s != "" {
		r.Evidence = append(r.Evidence, assertion.Evidence{Note: "stdout of `" + name + "`", Text: s})
	}
	if out.Stderr != "" && r.Status != status.Pass {
		r.Evidence = append(r.Evidence, assertion.Evidence{Note: "end of stderr of `" + name + "`", Text: out.Stderr})
	}
	r.Finish()
	return r
}

// scopeName names a scope in a message.
func scopeName(scope string) string {
	if scope == "test" || scope == "" {
		return "the whole test"
	}
	return scope
}

// observed says briefly how a script the exit status cannot judge ended.
func observed(err error) string {
	var he *hooks.Error
	if !errors.As(err, &he) {
		return "not run"
	}
	switch he.Kind {
	case hooks.KindStart:
		return "could not start"
	case hooks.KindTimeout:
		return "timed out"
	case hooks.KindCancelled:
		return "cancelled"
	case hooks.KindOutput:
		return "stdout too large"
	case hooks.KindExit:
		if he.Detail != "" {
			return "killed (" + he.Detail + ")"
		}
		return "killed"
	}
	return string(he.Kind)
}

// commandName is argv as a user would type it, arguments with spaces or
// quotes quoted, shortened to about maxNameLen bytes.
func commandName(argv []string) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		if a == "" || strings.ContainsAny(a, " \t\n\"'`\\$") {
			a = strconv.Quote(a)
		}
		parts[i] = a
	}
	return bound(strings.Join(parts, " "), maxNameLen)
}

// bound trims s, makes it valid UTF-8 and cuts it to at most n bytes at a
// rune boundary, ending with "…" when cut.
func bound(s string, n int) string {
	s = strings.TrimSpace(strings.ToValidUTF8(s, "\uFFFD"))
	if len(s) <= n {
		return s
	}
	const ellipsis = "…"
	cut := n - len(ellipsis)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strings.TrimSpace(s[:cut]) + ellipsis
}

// Describe says what script check c expects, for plans (--dry-run) and
// results alike.
func Describe(c assertion.Check) string {
	return fmt.Sprintf("`%s` exits 0", commandName(c.Script().Argv))
}
