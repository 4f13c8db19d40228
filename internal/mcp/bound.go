package mcp

import (
	"context"
	"io"
	"net/http"
	"sync"
)

// A step of the session's life that the SDK runs with a context of its own
// — the stream it opens as soon as it has a session id, the cancellation it
// notifies when a request gives up, the DELETE that ends a session — must
// still end with the step Ananke bounds (the handshake, closing): a server
// that accepts a request and never answers must not hold either past its
// timeout. A bound ties the HTTP requests made while it is open to a
// context Ananke controls.
type bound struct {
	mu    sync.Mutex
	abort context.Context // nil: requests are not bounded
}

// open bounds the requests made from now on by ctx: they end when ctx does,
// until the returned close is called; a request still running then goes on
// (the session's stream outlives its handshake). close reports whether ctx
// ended first.
func (b *bound) open(ctx context.Context) (close func() (ended bool)) {
	abort, cancel := context.WithCancel(context.Background())
	stop := context.AfterFunc(ctx, cancel)
	b.mu.Lock()
	b.abort = abort
	b.mu.Unlock()
	return func() bool {
		ended := !stop()
		b.mu.Lock()
		b.abort = nil
		b.mu.Unlock()
		if ended {
			cancel() // and any request made since
		}
		return ended
	}
}

// tie returns req bound to the open bound, if any, and the function that
// releases it once its response is done with.
func (b *bound) tie(req *http.Request) (*http.Request, func()) {
	b.mu.Lock()
	abort := b.abort
	b.mu.Unlock()
	if abort == nil {
		return req, func() {}
	}
	ctx, cancel := context.WithCancel(req.Context())
	stop := context.AfterFunc(abort, cancel)
	return req.WithContext(ctx), func() { stop(); cancel() }
}

// releaseBody calls release once the body is closed.
type releaseBody struct {
	io.ReadCloser
	once    sync.Once
	release func()
}

func (b *releaseBody) Close() error {
	err := b.ReadCloser.Close()
	b.once.Do(b.release)
	return err
}
