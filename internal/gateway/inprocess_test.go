package gateway

import (
	"io"
	"net/http"
	"strconv"
)

// inProcess is a transport that serves each request with a handler in
// the test's own process, the answer through a pipe: with no network, a
// test runs in a synctest bubble, where time moves only once every
// goroutine waits, so a timeout takes exactly its time. A handler that
// aborts (http.ErrAbortHandler) cuts the answer as a server would.
type inProcess struct{ h http.Handler }

func (t inProcess) RoundTrip(r *http.Request) (*http.Response, error) {
	pr, pw := io.Pipe()
	w := &pipeWriter{header: http.Header{}, body: pw, started: make(chan struct{})}
	served := make(chan struct{})
	go func() {
		defer close(served)
		defer func() {
			if v := recover(); v != nil {
				if v != http.ErrAbortHandler {
					panic(v)
				}
				w.abort()
				pw.CloseWithError(io.ErrUnexpectedEOF)
			}
		}()
		t.h.ServeHTTP(w, r)
		w.WriteHeader(http.StatusOK)
		pw.Close()
	}()
	go func() {
		select {
		case <-r.Context().Done():
			pw.CloseWithError(r.Context().Err())
		case <-served:
		}
	}()
	select {
	case <-w.started:
		if w.code == 0 {
			return nil, io.EOF // aborted before answering
		}
		return &http.Response{StatusCode: w.code, Status: strconv.Itoa(w.code) + " " + http.StatusText(w.code),
			Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Header: w.sent, Body: ctxBody{pr, r}, ContentLength: -1, Request: r}, nil
	case <-r.Context().Done():
		return nil, r.Context().Err()
	}
}

// pipeWriter is a response written into a pipe.
type pipeWriter struct {
	header  http.Header
	body    *io.PipeWriter
	code    int
	sent    http.Header
	started chan struct{}
}

func (w *pipeWriter) Header() http.Header { return w.header }

func (w *pipeWriter) WriteHeader(code int) {
	if w.sent == nil {
		w.code, w.sent = code, w.header.Clone()
		close(w.started)
	}
}

// abort ends a response that never started.
func (w *pipeWriter) abort() {
	if w.sent == nil {
		w.sent = http.Header{}
		close(w.started)
	}
}

func (w *pipeWriter) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.body.Write(b)
}

func (w *pipeWriter) Flush() { w.WriteHeader(http.StatusOK) }

// ctxBody reads an answer as a transport does: once the request's
// context is done, reading fails with its error, even when the handler
// ended too.
type ctxBody struct {
	pr *io.PipeReader
	r  *http.Request
}

func (b ctxBody) Read(p []byte) (int, error) {
	if err := b.r.Context().Err(); err != nil {
		return 0, err
	}
	n, err := b.pr.Read(p)
	if cerr := b.r.Context().Err(); err != nil && cerr != nil {
		err = cerr
	}
	return n, err
}

func (b ctxBody) Close() error { return b.pr.Close() }
