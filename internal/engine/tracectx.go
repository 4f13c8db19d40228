package engine

import (
	"io"
	"sync"

	"github.com/ananke/action/internal/otel/tracectx"
)

// traceContext starts an attempt's trace context: its ids from
// Options.TraceIDs, its requests stamped by the run's clock unless the tape
// stamps them (so a replay does not read the attempt's recorded clock
// more often than the recording did).
func (e *engine) traceContext() (*tracectx.Attempt, error) {
	return tracectx.New(tracectx.Options{Rand: e.opts.TraceIDs, State: e.opts.TraceState, Now: e.opts.Now})
}

// lockedReader serializes reads of the ids' source: attempts run in
// parallel.
type lockedReader struct {
	mu sync.Mutex
	r  io.Reader
}

func (l *lockedReader) Read(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.Read(p)
}
