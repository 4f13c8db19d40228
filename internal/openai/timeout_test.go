package openai

import (
	"context"
	"errors"
	"io"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ananke/action/internal/inprocess"
	"github.com/ananke/action/internal/target"
)

// TestHang: an API that holds back its answer — before it starts, or in
// the middle of a stream — ends the turn at target.timeout_ms exactly,
// with an error that says so (wrapping target.ErrRunTimeout); what came
// before stays in the trace. In a synctest bubble, with the API in
// process, time moves only when every goroutine waits.
func TestHang(t *testing.T) {
	for _, tc := range []struct {
		name   string
		stream bool
		sent   string // what the API sends before it holds back (no answer at all: "")
		answer bool   // it sends the status line
		err    string
		text   string
	}{
		{name: "no answer", stream: true, err: "no answer within target.timeout_ms (100 ms) after 0 events: run timeout"},
		{name: "a stream that stops", stream: true, answer: true,
			sent: "data: " + `{"choices":[{"index":0,"delta":{"content":"Hel"}}]}` + "\n\n",
			err:  "no answer within target.timeout_ms (100 ms) after 1 events: run timeout", text: "Hel"},
		{name: "a body that stops", answer: true, sent: `{"choices":[{"index":0,"mess`,
			err: "no answer within target.timeout_ms (100 ms) after 0 events: run timeout"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				o := options("http://api.test/v1", APIChat, tc.stream)
				o.Timeout, o.Now = 100*time.Millisecond, time.Now
				o.HTTP = holding(tc.answer, tc.stream, tc.sent)
				start := time.Now()
				p := play(t, New(o), "hi")
				if took := time.Since(start); took != 100*time.Millisecond {
					t.Errorf("the turn took %v, want target.timeout_ms, 100ms", took)
				}
				if !errors.Is(p.err, target.ErrRunTimeout) || errText(p.err) != tc.err {
					t.Errorf("error %v\nwant  %s (wrapping target.ErrRunTimeout)", p.err, tc.err)
				}
				if got := p.turn(0).Text(); got != tc.text {
					t.Errorf("text %q, want %q", got, tc.text)
				}
			})
		})
	}
}

// TestCancelled: a turn whose context ends once the API has the request
// ends with the context's error, not a timeout.
func TestCancelled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		o := options("http://api.test/v1", APIChat, true)
		o.HTTP = holding(false, false, "")
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			synctest.Wait() // the request is held
			cancel()
		}()
		p := playIn(ctx, t, New(o), "hi")
		if !errors.Is(p.err, context.Canceled) || errors.Is(p.err, target.ErrRunTimeout) {
			t.Errorf("error %v; want context.Canceled", p.err)
		}
	})
}

// holding is an API in process that sends sent, after its status line
// when answer is set, then holds the answer until the request ends.
func holding(answer, stream bool, sent string) *http.Client {
	return inprocess.Client(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if answer {
			w.Header().Set("Content-Type", "application/json")
			if stream {
				w.Header().Set("Content-Type", "text/event-stream")
			}
			_, _ = io.WriteString(w, sent)
			w.(http.Flusher).Flush()
		}
		<-r.Context().Done()
	}))
}
