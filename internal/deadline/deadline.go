// Package deadline bounds a context by a timeout as context.WithTimeoutCause
// does, with an expiry a test can drive instead of the wall clock
// (docs/development.md, "Tests and time"), and waits between retries
// (Sleep) unless the context ends first.
package deadline

import (
	"context"
	"time"
)

// After returns a channel that receives once d has passed: a test's
// stand-in for time.After.
type After func(d time.Duration) <-chan time.Time

// WithTimeoutCause is context.WithTimeoutCause(ctx, d, cause) when after is
// nil. Otherwise the context ends with cause once after(d) receives (or
// when ctx ends). Its release function ends it with context.Canceled.
func WithTimeoutCause(ctx context.Context, d time.Duration, cause error, after After) (context.Context, context.CancelFunc) {
	if after == nil {
		return context.WithTimeoutCause(ctx, d, cause)
	}
	bctx, cancel := context.WithCancelCause(ctx)
	expired := after(d)
	go func() {
		select {
		case <-expired:
			cancel(cause)
		case <-bctx.Done():
		}
	}()
	return bctx, func() { cancel(context.Canceled) }
}

// Sleep waits d unless ctx ends first, returning ctx's error then: the
// wait between retries of the API clients, which tests replace.
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
