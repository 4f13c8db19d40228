package engine

import (
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/ananke/action/internal/spec"
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
}

// Observer is told about each test as soon as it finishes; calls are
// serialized.
type Observer interface {
	TestFinished(r *TestResult)
}

// ObserverFunc adapts a function to Observer.
type ObserverFunc func(r *TestResult)

// TestFinished calls f.
func (f ObserverFunc) TestFinished(r *TestResult) { f(r) }

type engine struct {
	opts Options
	mu   sync.Mutex // serializes Observer calls
}

// Run runs every test of the suite and returns their results in the
// suite's order. When ctx is cancelled, runs in flight stop and every test
// not finished is an error ("cancelled"); Run still returns every result.
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
	e := &engine{opts: opts}
	out := &Outcome{Start: opts.Now(), Tests: make([]*TestResult, len(opts.Suite.Tests))}
	defer func() { out.End = opts.Now() }()

	srv, err := e.startServer(ctx)
	if err != nil {
		for i, t := range opts.Suite.Tests {
			out.Tests[i] = e.notRun(t, err.Error())
		}
		return out
	}
	defer srv.stop()

	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(opts.Parallel, len(opts.Suite.Tests)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				t := opts.Suite.Tests[i]
				r := e.notRun(t, "cancelled before it started")
				if ctx.Err() == nil {
					r = e.runTest(ctx, t)
				}
				out.Tests[i] = r
				e.finished(r)
			}
		}()
	}
	for i := range opts.Suite.Tests {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return out
}

// notRun is the result of a test that could not start.
func (e *engine) notRun(t *spec.Test, reason string) *TestResult {
	now := e.opts.Now()
	r := &TestResult{Test: t, Status: Error, Reason: reason, Start: now, End: now}
	if t.Skip != "" {
		r.Status, r.Reason = Skipped, t.Skip
	}
	return r
}

func (e *engine) finished(r *TestResult) {
	if e.opts.Observer == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.opts.Observer.TestFinished(r)
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
