package engine

import (
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/ananke/action/internal/backend"
	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/model"
	"github.com/ananke/action/internal/otel/spanstore"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/stability"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// Options configures a run. Everything the engine needs from the process —
// environment, clock, ids — comes through here.
type Options struct {
	Suite *spec.Suite
	// Parallel is how many tests run at once (minimum 1).
	Parallel int
	// TestTimeout bounds each test (0: none beyond the per-run timeouts).
	TestTimeout time.Duration
	// Env is the environment of hooks and of target.server (KEY=VALUE).
	Env []string
	// LookupEnv reads ${ENV.NAME} values.
	LookupEnv func(string) (string, bool)
	Now       func() time.Time
	// NewID makes thread, run and message ids (default: random UUIDs).
	NewID func() string
	// HTTP is the client for runs and readiness probes (nil: a client of
	// the run's own whose idle connections are closed when Run returns).
	HTTP *http.Client
	// Observer sees each test as it finishes (may be nil).
	Observer Observer
	// ServerLog receives target.server's output (nil: discarded).
	ServerLog io.Writer
	// Stability is the command line's runs, min_pass_rate and retries:
	// a test file's values win over it, and it wins over the config's.
	Stability spec.Stability
	// FailFast starts no new test after a test failed or errored; the
	// tests not started are skipped. A quarantined test's failure stops
	// nothing: it fails no build.
	FailFast bool
	// Model is the language model of judges and simulated users (nil: the
	// config has none).
	Model Completer
	// Prompts replace Ananke's own system prompts ("": the default).
	Prompts Prompts
	// SpoolDir, when set, is a private directory where each attempt's raw
	// events are written as they arrive (trace.Spool), so that memory does
	// not grow with the number of events; the caller removes it once the
	// report is written. "": events are kept in memory.
	SpoolDir string
	// Tape, when set, carries every attempt's runs: it records them
	// (--record) or answers them from a recording (--replay).
	Tape Tape
	// Import reads the trace of a test with a source (a recorded run of
	// another runtime; package source). nil: such tests error.
	Import func(ctx context.Context, src *spec.Source) (*trace.Trace, error)
	// Prices prices the usage every turn and run of a trace reported
	// (docs/cost.md), as soon as the turn is complete and before its
	// checks, so that budgets see costs; a cost the source reported is
	// kept. nil: usage is left as the source reported it.
	Prices *cost.Table
	// Protocols gives the protocol of a type of target (the config's
	// target.type): the sessions that play the turns. A test that plays
	// turns errors when it gives none.
	Protocols func(targetType string) (Protocol, bool)
	// TraceState is the W3C tracestate every request to the agent sends
	// beside its traceparent ("": none); it must be valid
	// (tracectx.ParseState), else every attempt errors. TraceIDs is where
	// the attempts' trace and span ids come from (nil: crypto/rand); it is
	// read under a lock (docs/opentelemetry.md#trace-context).
	TraceState string
	TraceIDs   io.Reader
	// Backend attributes what Ananke serves behind the agent — its tool
	// doubles, its model gateway — to the attempt bound to it
	// (docs/backend.md); nil: Ananke serves nothing there. The tests it
	// says use it bind each attempt, send its token to the agent, and run
	// one at a time unless the agent forwards the token.
	Backend *backend.Board
	// Spans holds the agent's OpenTelemetry spans Ananke's OTLP receiver
	// gets, by trace id (docs/opentelemetry.md); nil: the receiver is
	// off. Each attempt that reaches the agent takes those of its trace
	// id: after each turn, the turn's, waited for within the store's
	// grace, before the turn is priced and checked; at its end, the rest.
	Spans *spanstore.Store
	// Followup, when set, is asked once every test of the suite finished
	// (and the run was not cancelled) for more tests to run in the same
	// run — the same target.server, before_all variables and backend, and
	// before the after_all hooks: attack runs, planned from the suite's
	// results (docs/attacks.md). Their results are Outcome.Followup, never
	// Outcome.Tests; FollowupObserver, not Observer, sees them, and
	// FailFast does not stop them.
	Followup         func(done []*TestResult) []*spec.Test
	FollowupObserver Observer
	// JudgeGate, when set, is asked before a critical judge is evaluated,
	// with its criteria and the judge's model and prompt hash, whether it
	// may gate: a reason returned ("its calibration is stale: …") makes
	// the judge a warning for this run, the reason in its result
	// (JudgeOutcome.Demoted) and message (docs/judges.md, calibration).
	JudgeGate func(criteria []string, model, promptHash string) (demoted string)
	// Snapshots compares snapshot assertions with their stored snapshots
	// (docs/snapshots.md); nil: each is an error, "snapshots are not
	// available in this run".
	Snapshots Snapshots
}

// Tape records or replays the exchanges of each attempt with the agent.
type Tape interface {
	// Live reports whether runs reach the agent; when they are replayed,
	// target.server is not started.
	Live() bool
	// Attempt is called as an attempt starts, with the client runs would
	// use: it returns the client and the clock the attempt uses instead.
	Attempt(t *spec.Test, run, retry int, base *http.Client) AttemptIO
}

// AttemptIO is what one attempt talks to the agent through, and its clock.
type AttemptIO struct {
	HTTP *http.Client
	Now  func() time.Time
}

// Completer is the language model judges and simulated users talk to.
type Completer = model.Completer

// Prompts are system prompts a config replaces (model.prompts).
type Prompts struct {
	Judge, Simulator string
}

// Observer is told about each test as soon as it finishes (after all its
// runs); calls are serialized. An Observer that also implements
// StartObserver is told when each test starts.
type Observer interface {
	TestFinished(r *TestResult)
}

// StartObserver is told when a test's first attempt starts, for progress
// displays; calls are serialized with TestFinished.
type StartObserver interface {
	TestStarted(t *spec.Test)
}

// ObserverFunc adapts a function to Observer.
type ObserverFunc func(r *TestResult)

// TestFinished calls f.
func (f ObserverFunc) TestFinished(r *TestResult) { f(r) }

type engine struct {
	opts Options
	// globals are the variables the before_all hooks set.
	globals map[string]string
}

// protocol is the protocol of the suite's target.
func (e *engine) protocol() (Protocol, bool) {
	if e.opts.Protocols == nil {
		return Protocol{}, false
	}
	return e.opts.Protocols(e.opts.Suite.Config.Target.Type)
}

// Run runs every test of the suite — each as often as its stability policy
// says — and returns their results in the suite's order. When ctx is
// cancelled, runs in flight stop and every test not finished is an error
// ("cancelled"); Run still returns every result.
func Run(ctx context.Context, opts Options) *Outcome {
	if opts.Parallel < 1 {
		opts.Parallel = 1
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.LookupEnv == nil {
		opts.LookupEnv = func(string) (string, bool) { return "", false }
	}
	if opts.HTTP == nil {
		// A client of the run's own, so its idle connections (and their
		// goroutines) end with the run.
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.MaxIdleConnsPerHost = max(opts.Parallel, 2)
		opts.HTTP = &http.Client{Transport: tr}
		defer tr.CloseIdleConnections()
	}
	if opts.TraceIDs != nil {
		opts.TraceIDs = &lockedReader{r: opts.TraceIDs}
	}
	e := &engine{opts: opts}
	out := &Outcome{Start: opts.Now(), Tests: make([]*TestResult, len(opts.Suite.Tests))}
	defer func() { out.End = opts.Now() }()

	var srv *server
	var err error
	if opts.Tape == nil || opts.Tape.Live() {
		srv, err = e.startServer(ctx, out)
	}
	if err != nil {
		for i, t := range opts.Suite.Tests {
			out.Tests[i] = e.notRun(t, err.Error())
		}
		return out
	}
	defer srv.stop()
	if e.beforeAll(ctx, out) {
		newScheduler(e).run(ctx, out.Tests)
		e.followup(ctx, out)
	} else {
		failed := out.Hooks[len(out.Hooks)-1]
		for i, t := range opts.Suite.Tests {
			out.Tests[i] = e.notRun(t, failed.Error)
			out.Tests[i].ReasonPos, out.Tests[i].Detail = failed.Pos, failed.Detail
		}
	}
	e.afterAll(ctx, out)
	if opts.Backend != nil {
		out.Orphans = opts.Backend.Orphans()
	}
	return out
}

// followup runs the tests Options.Followup gives once the suite's
// finished, on an engine of their own that shares everything but the
// tests, the observer and --fail-fast.
func (e *engine) followup(ctx context.Context, out *Outcome) {
	if e.opts.Followup == nil || ctx.Err() != nil {
		return
	}
	more := e.opts.Followup(out.Tests)
	if len(more) == 0 {
		return
	}
	f := *e
	suite := *e.opts.Suite
	suite.Tests = more
	f.opts.Suite, f.opts.Observer, f.opts.FailFast = &suite, e.opts.FollowupObserver, false
	out.Followup = make([]*TestResult, len(more))
	newScheduler(&f).run(ctx, out.Followup)
}

// policy is how test t runs and is judged: its own runs, min_pass_rate and
// retries, else the command line's, else the config's.
func (e *engine) policy(t *spec.Test) stability.Policy {
	return stability.Resolve(t.Stability, e.opts.Stability, e.opts.Suite.Config.Stability)
}

// notRun is the result of a test that could not start because the run
// could not (target.server failed): skipped when its file says so, else an
// error for reason.
func (e *engine) notRun(t *spec.Test, reason string) *TestResult {
	now := e.opts.Now()
	r := &TestResult{Test: t, Status: status.Error, Reason: reason, Policy: e.policy(t), Start: now, End: now}
	if t.Skip != "" {
		r.Status, r.Reason = status.Skipped, t.Skip
	}
	return r
}

func (e *engine) newID() string {
	if e.opts.NewID != nil {
		return e.opts.NewID()
	}
	return uuid()
}

// uuid returns a random version 4 UUID.
func uuid() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand never fails on supported platforms
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}
