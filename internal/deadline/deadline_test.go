package deadline

import (
	"context"
	"errors"
	"testing"
	"time"
)

var errLate = errors.New("late")

// TestAfterDrives: with after given, the context ends with the cause when
// after receives, and not before.
func TestAfterDrives(t *testing.T) {
	fire := make(chan time.Time)
	var asked time.Duration
	ctx, release := WithTimeoutCause(t.Context(), 3*time.Second, errLate, func(d time.Duration) <-chan time.Time {
		asked = d
		return fire
	})
	defer release()
	if asked != 3*time.Second {
		t.Errorf("after asked for %v; want 3s", asked)
	}
	if ctx.Err() != nil {
		t.Fatalf("ended before after received: %v", context.Cause(ctx))
	}
	fire <- time.Time{}
	<-ctx.Done()
	if !errors.Is(context.Cause(ctx), errLate) {
		t.Errorf("cause %v; want %v", context.Cause(ctx), errLate)
	}
}

// TestRelease: releasing ends the context as cancelled, not with the cause.
func TestRelease(t *testing.T) {
	for _, after := range []After{nil, func(time.Duration) <-chan time.Time { return nil }} {
		ctx, release := WithTimeoutCause(t.Context(), time.Hour, errLate, after)
		release()
		if !errors.Is(context.Cause(ctx), context.Canceled) {
			t.Errorf("after given: %v; cause %v, want context.Canceled", after != nil, context.Cause(ctx))
		}
	}
}

// TestParentFirst: a parent that ends first ends the wait with its own
// cause, with or without after.
func TestParentFirst(t *testing.T) {
	errParent := errors.New("parent")
	for _, after := range []After{nil, func(time.Duration) <-chan time.Time { return nil }} {
		parent, cancel := context.WithCancelCause(t.Context())
		ctx, release := WithTimeoutCause(parent, time.Hour, errLate, after)
		cancel(errParent)
		<-ctx.Done()
		if !errors.Is(context.Cause(ctx), errParent) {
			t.Errorf("after given: %v; cause %v, want the parent's", after != nil, context.Cause(ctx))
		}
		release()
	}
}

// TestSleepEnds: Sleep returns the context's error once it ends, and at
// once for a wait of nothing.
func TestSleepEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := Sleep(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Errorf("Sleep on an ended context: %v", err)
	}
	if err := Sleep(t.Context(), 0); err != nil {
		t.Errorf("Sleep(0): %v", err)
	}
}
