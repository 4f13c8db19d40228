package inprocess_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ananke/action/internal/inprocess"
)

// TestTransport: what a client sees of a handler served in process, as of
// a server: the answer streamed, a connection closed before or during the
// answer, and a request given up — in a synctest bubble, where the
// timeout takes exactly its time.
func TestTransport(t *testing.T) {
	for _, tc := range []struct {
		name    string
		handle  http.HandlerFunc
		timeout time.Duration
		wantRT  error  // RoundTrip's error
		body    string // what is read before the read fails
		wantRd  error  // the read's error (nil: the body ends cleanly)
	}{
		{name: "an answer", handle: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, "hello")
		}, body: "hello"},
		{name: "closed before answering", handle: func(http.ResponseWriter, *http.Request) { panic(http.ErrAbortHandler) },
			wantRT: inprocess.ErrClosed},
		{name: "closed while answering", handle: func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, "hel")
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler)
		}, body: "hel", wantRd: io.ErrUnexpectedEOF},
		{name: "given up before the answer", timeout: time.Second, handle: func(w http.ResponseWriter, r *http.Request) {
			<-r.Context().Done()
		}, wantRT: context.DeadlineExceeded},
		{name: "given up during the answer, the handler ending too", timeout: time.Second, handle: func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, "par")
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		}, body: "par", wantRd: context.DeadlineExceeded},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ctx := t.Context()
				if tc.timeout > 0 {
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, tc.timeout)
					defer cancel()
				}
				req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://in.process/", nil)
				start := time.Now()
				resp, err := inprocess.Client(tc.handle).Do(req)
				if !errors.Is(err, tc.wantRT) || (tc.wantRT != nil) != (err != nil) {
					t.Fatalf("Do error %v; want %v", err, tc.wantRT)
				}
				if err != nil {
					if tc.timeout > 0 && time.Since(start) != tc.timeout {
						t.Errorf("gave up after %v; want %v", time.Since(start), tc.timeout)
					}
					return
				}
				defer resp.Body.Close()
				got, err := io.ReadAll(resp.Body)
				if string(got) != tc.body || !errors.Is(err, tc.wantRd) || (tc.wantRd != nil) != (err != nil) {
					t.Errorf("read %q, %v; want %q, %v", got, err, tc.body, tc.wantRd)
				}
				if resp.StatusCode != http.StatusOK {
					t.Errorf("status %d", resp.StatusCode)
				}
			})
		})
	}
}
