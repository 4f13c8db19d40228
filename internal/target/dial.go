package target

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/ananke/action/internal/trace"
)

// Conn is a connection to a target that plays one turn as one exchange
// (A2A, MCP). Dialed wraps it into a Session.
type Conn interface {
	// Turn plays one turn, recording it as Session.Turn does; the errors
	// the agent reported are those it recorded (rec.RunError).
	Turn(ctx context.Context, in Turn, rec *trace.Recorder) error
	// Source says what the connection's traces can show: the adapter
	// ("a2a", "mcp"), its protocol version, mode "live", and the
	// capabilities assertions are gated on.
	Source() trace.Source
	// Close ends the connection.
	Close() error
}

// Dialed is a Session over the Conn that dial opens at the first turn.
// Each turn is bounded by timeout (0: only by its context); its errors are
// the agent's recorded in the trace.
func Dialed(dial func(ctx context.Context) (Conn, error), timeout time.Duration) Session {
	return &dialed{dial: dial, timeout: timeout}
}

type dialed struct {
	dial    func(ctx context.Context) (Conn, error)
	timeout time.Duration
	conn    Conn
}

// noState is the state every turn of a connection records: it has none.
var noState = json.RawMessage("{}")

func (d *dialed) Turn(ctx context.Context, in Turn, rec *trace.Recorder) (Outcome, error) {
	if d.conn == nil {
		c, err := d.dial(ctx)
		if err != nil {
			return Outcome{}, err
		}
		d.conn = c
		rec.SetSource(c.Source())
	}
	runCtx := ctx
	if d.timeout > 0 {
		var cancel context.CancelFunc
		runCtx, cancel = context.WithTimeoutCause(ctx, d.timeout, ErrRunTimeout)
		defer cancel()
	}
	if err := d.conn.Turn(runCtx, in, rec); err != nil {
		if ctx.Err() == nil && errors.Is(context.Cause(runCtx), ErrRunTimeout) {
			err = fmt.Errorf("no answer within target.timeout_ms (%d ms): %w", d.timeout.Milliseconds(), err)
		}
		return Outcome{}, err
	}
	return Outcome{}, nil
}

func (d *dialed) State() json.RawMessage { return noState }

func (d *dialed) Source() *trace.Source {
	if d.conn == nil {
		return nil
	}
	s := d.conn.Source()
	return &s
}

func (d *dialed) Close() error {
	if d.conn == nil {
		return nil
	}
	return d.conn.Close()
}
