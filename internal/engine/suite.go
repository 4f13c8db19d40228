package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/hooks"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/vars"
)

// Phases of suite hooks.
const (
	BeforeAll = "before_all"
	AfterAll  = "after_all"
)

// SuiteHook is how one before_all or after_all hook went.
type SuiteHook struct {
	Phase string // BeforeAll or AfterAll
	Index int
	Pos   diag.Pos
	// Error says why the hook failed ("" when it exited 0); Detail holds
	// its stderr.
	Error, Detail string
	Start, End    time.Time
}

// beforeAll runs the config's before_all hooks in order, each seeing the
// variables of those before it; what they set becomes every test's. It
// reports false when one failed: then no test runs.
func (e *engine) beforeAll(ctx context.Context, out *Outcome) bool {
	cfg := e.opts.Suite.Config
	vars := vars.NewVars(e.opts.LookupEnv)
	e.globals = map[string]string{}
	stdin := suiteJSON(e.opts.Suite.Tests)
	defer func() { out.Secrets = append(out.Secrets, vars.Secrets()...) }()
	for i, h := range cfg.BeforeAll {
		hr := SuiteHook{Phase: BeforeAll, Index: i, Pos: h.Pos, Start: e.opts.Now()}
		set, err := e.suiteHook(ctx, h, vars, stdin, true)
		hr.End = e.opts.Now()
		if err != nil {
			hr.Error, hr.Detail = fmt.Sprintf("before_all[%d]: %v", i, err), stderrOf(err)
			if ctx.Err() != nil {
				hr.Error = fmt.Sprintf("before_all[%d]: cancelled", i)
			}
			out.Hooks = append(out.Hooks, hr)
			return false
		}
		out.Hooks = append(out.Hooks, hr)
		for k, v := range set {
			vars.Set(k, v)
			e.globals[k] = v
		}
	}
	return true
}

// afterAll runs the config's after_all hooks once every test finished (or
// could not run), with the run's outcome as JSON on stdin; cancellation
// does not stop them, each is bounded by its own timeout.
func (e *engine) afterAll(ctx context.Context, out *Outcome) {
	cfg := e.opts.Suite.Config
	if len(cfg.AfterAll) == 0 {
		return
	}
	ctx = context.WithoutCancel(ctx)
	vars := e.newVars()
	defer func() { out.Secrets = append(out.Secrets, vars.Secrets()...) }()
	stdin := outcomeJSON(out.Tests)
	for i, h := range cfg.AfterAll {
		hr := SuiteHook{Phase: AfterAll, Index: i, Pos: h.Pos, Start: e.opts.Now()}
		_, err := e.suiteHook(ctx, h, vars, stdin, false)
		hr.End = e.opts.Now()
		if err != nil {
			hr.Error, hr.Detail = fmt.Sprintf("after_all[%d]: %v", i, err), stderrOf(err)
		}
		out.Hooks = append(out.Hooks, hr)
	}
}

// suiteHook runs one suite hook in the config's directory; a before_all
// hook's stdout sets variables, an after_all hook's is ignored.
func (e *engine) suiteHook(ctx context.Context, h spec.Hook, vars *vars.Vars, stdin []byte, setsVars bool) (map[string]string, error) {
	argv, re := hookArgv(h, vars)
	if re != nil {
		return nil, errors.New(re.Msg)
	}
	c := e.hookCommand(h, argv, e.opts.Suite.Config.Path, stdin)
	if setsVars {
		return hooks.Run(ctx, c)
	}
	return nil, hooks.RunAfter(ctx, c)
}

func stderrOf(err error) string {
	var he *hooks.Error
	if errors.As(err, &he) {
		return he.Stderr
	}
	return ""
}

// suiteJSON is what before_all hooks read on stdin: the tests that will
// run.
func suiteJSON(tests []*spec.Test) []byte {
	type test struct {
		ID   string   `json:"id"`
		Name string   `json:"name"`
		File string   `json:"file"`
		Line int      `json:"line"`
		Tags []string `json:"tags"`
	}
	out := struct {
		Schema string `json:"schema"`
		Tests  []test `json:"tests"`
	}{Schema: "ananke.suite/v1", Tests: []test{}}
	for _, t := range tests {
		tt := test{ID: t.ID, Name: t.Name.Value, File: t.Path, Line: t.Pos.Line, Tags: []string{}}
		for _, tag := range t.Tags {
			tt.Tags = append(tt.Tags, tag.Value)
		}
		out.Tests = append(out.Tests, tt)
	}
	b, _ := json.Marshal(out)
	return b
}

// outcomeJSON is what after_all hooks read on stdin: each test's status,
// and the run's (fail when a test failed, else error when one errored).
func outcomeJSON(results []*TestResult) []byte {
	type test struct {
		ID     string        `json:"id"`
		Name   string        `json:"name"`
		Status status.Status `json:"status"`
		Reason string        `json:"reason,omitempty"`
	}
	out := struct {
		Schema string                `json:"schema"`
		Status status.Status         `json:"status"`
		Totals map[status.Status]int `json:"totals"`
		Tests  []test                `json:"tests"`
	}{Schema: "ananke.outcome/v1", Status: status.Pass, Totals: map[status.Status]int{status.Pass: 0, status.Fail: 0, status.Error: 0, status.Skipped: 0}, Tests: []test{}}
	for _, r := range results {
		if r == nil {
			continue
		}
		out.Totals[r.Status]++
		out.Tests = append(out.Tests, test{ID: r.Test.ID, Name: r.Test.Name.Value, Status: r.Status, Reason: r.Reason})
	}
	switch {
	case out.Totals[status.Fail] > 0:
		out.Status = status.Fail
	case out.Totals[status.Error] > 0:
		out.Status = status.Error
	}
	b, _ := json.Marshal(out)
	return b
}
