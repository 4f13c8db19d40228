// Package inprocess serves HTTP requests with a handler in the test's own
// process, each response through a pipe. With no network, a test runs in
// a testing/synctest bubble, where time moves only once every goroutine
// waits, so a timeout takes exactly its time (docs/development.md, "Tests
// and time"). Tests of the packages that speak HTTP use it; nothing else
// does.
package inprocess

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// Client is an HTTP client whose every request h serves in process.
func Client(h http.Handler) *http.Client { return &http.Client{Transport: Transport(h)} }

// Transport serves every request with h in process. As a server would:
// the response starts at the handler's first write, flush or header (or
// its end); a handler that aborts (panic(http.ErrAbortHandler)) closes
// the connection — RoundTrip fails when nothing was sent, the body ends
// early otherwise; once the request's context is done, RoundTrip fails
// with its cause and reading the body fails with its error, even when
// the handler ended too.
func Transport(h http.Handler) http.RoundTripper { return transport{h} }

// ErrClosed is RoundTrip's error when the handler aborted before it
// answered.
var ErrClosed = errors.New("connection closed by the server")

type transport struct{ h http.Handler }

func (t transport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	pr, pw := io.Pipe()
	w := &writer{header: http.Header{}, body: pw, started: make(chan struct{}), aborted: make(chan struct{})}
	served := make(chan struct{})
	go func() {
		defer close(served)
		defer func() {
			if p := recover(); p != nil {
				if p != http.ErrAbortHandler {
					panic(p)
				}
				close(w.aborted)
				pw.CloseWithError(io.ErrUnexpectedEOF)
				return
			}
			w.WriteHeader(http.StatusOK)
			pw.Close()
		}()
		t.h.ServeHTTP(w, r)
	}()
	go func() {
		// The client gave up: the reader and the handler stop too.
		select {
		case <-r.Context().Done():
			pr.CloseWithError(r.Context().Err())
		case <-served:
		}
	}()
	select {
	case <-w.started:
		return &http.Response{StatusCode: w.code, Status: fmt.Sprintf("%d %s", w.code, http.StatusText(w.code)),
			Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Header: w.sent, Body: body{pr, r.Context()}, ContentLength: -1, Request: r}, nil
	case <-w.aborted:
		return nil, ErrClosed
	case <-r.Context().Done():
		return nil, context.Cause(r.Context())
	}
}

// writer is a response written into the pipe.
type writer struct {
	header  http.Header
	body    *io.PipeWriter
	code    int
	sent    http.Header // the header as sent, once started is closed
	started chan struct{}
	aborted chan struct{}
}

func (w *writer) Header() http.Header { return w.header }

func (w *writer) WriteHeader(code int) {
	if w.sent == nil {
		w.code, w.sent = code, w.header.Clone()
		close(w.started)
	}
}

func (w *writer) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.body.Write(b)
}

func (w *writer) Flush() { w.WriteHeader(http.StatusOK) }

// body reads the response as a transport does: once ctx is done, a read
// fails with its error, whether or not the handler ended.
type body struct {
	pr  *io.PipeReader
	ctx context.Context
}

func (b body) Read(p []byte) (int, error) {
	if err := b.ctx.Err(); err != nil {
		return 0, err
	}
	n, err := b.pr.Read(p)
	if cerr := b.ctx.Err(); err != nil && cerr != nil {
		err = cerr
	}
	return n, err
}

func (b body) Close() error { return b.pr.Close() }
