package model_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ananke/action/internal/model"
	"github.com/ananke/action/internal/model/modeltest"
)

var schema = map[string]any{"type": "object"}

func TestCompleteFailures(t *testing.T) {
	ok := modeltest.Answer("fine")
	tests := []struct {
		name         string
		script       []modeltest.Responder
		edit         func(*model.Config)
		req          model.Request
		wantKind     model.Kind // "": success with content "fine"
		wantStatus   int
		wantRequests int
		wantWaits    []time.Duration
		wantMsg      string // after "model gpt-test at <endpoint>: "
	}{
		{
			name:         "401 echoing the key",
			script:       []modeltest.Responder{modeltest.EchoAuth(401)},
			wantKind:     model.KindUnauthorized,
			wantStatus:   401,
			wantRequests: 1,
			wantMsg:      "401 unauthorized: check model.api_key",
		},
		{
			name:         "403",
			script:       []modeltest.Responder{modeltest.EchoAuth(403)},
			wantKind:     model.KindUnauthorized,
			wantStatus:   403,
			wantRequests: 1,
			wantMsg:      "403 forbidden: check model.api_key",
		},
		{
			name: "400 quoting the key",
			script: []modeltest.Responder{modeltest.Respond(400,
				`{"error":{"message":"Incorrect API key provided: `+testKey+`","type":"invalid_request_error"}}`)},
			wantKind:     model.KindBadRequest,
			wantStatus:   400,
			wantRequests: 1,
			wantMsg:      "400 bad request: Incorrect API key provided: ***",
		},
		{
			name:         "404 in Ollama's shape",
			script:       []modeltest.Responder{modeltest.Respond(404, `{"error":"model \"gpt-test\" not found, try pulling it first"}`)},
			wantKind:     model.KindBadRequest,
			wantStatus:   404,
			wantRequests: 1,
			wantMsg:      `404 not found: model "gpt-test" not found, try pulling it first`,
		},
		{
			name:         "429 with Retry-After 2, then success",
			script:       []modeltest.Responder{modeltest.Respond(429, `{}`, "Retry-After", "2"), ok},
			wantRequests: 2,
			wantWaits:    []time.Duration{2 * time.Second},
		},
		{
			name:         "retry-after-ms wins over Retry-After",
			script:       []modeltest.Responder{modeltest.Respond(429, `{}`, "Retry-After", "2", "Retry-After-Ms", "1500"), ok},
			wantRequests: 2,
			wantWaits:    []time.Duration{1500 * time.Millisecond},
		},
		{
			name:         "Retry-After above the cap is capped",
			script:       []modeltest.Responder{modeltest.Respond(429, `{}`, "Retry-After", "120"), ok},
			edit:         func(c *model.Config) { c.MaxRetryWait = 5 * time.Second },
			wantRequests: 2,
			wantWaits:    []time.Duration{5 * time.Second},
		},
		{
			name:         "429 forever",
			script:       []modeltest.Responder{modeltest.Respond(429, ``)},
			wantKind:     model.KindRateLimited,
			wantStatus:   429,
			wantRequests: 3,
			wantWaits:    []time.Duration{500 * time.Millisecond, time.Second},
			wantMsg:      "rate limited (429) after 3 attempts",
		},
		{
			name:         "429 forever, 4 retries, backoff capped",
			script:       []modeltest.Responder{modeltest.Respond(429, `{"error":{"message":"Rate limit reached"}}`)},
			edit:         func(c *model.Config) { c.MaxRetries, c.MaxRetryWait = 4, 1500*time.Millisecond },
			wantKind:     model.KindRateLimited,
			wantStatus:   429,
			wantRequests: 5,
			wantWaits:    []time.Duration{500 * time.Millisecond, time.Second, 1500 * time.Millisecond, 1500 * time.Millisecond},
			wantMsg:      "rate limited (429) after 5 attempts: Rate limit reached",
		},
		{
			name:         "500 then success",
			script:       []modeltest.Responder{modeltest.Respond(500, `{"error":{"message":"oops"}}`), ok},
			wantRequests: 2,
			wantWaits:    []time.Duration{500 * time.Millisecond},
		},
		{
			name:         "503 forever",
			script:       []modeltest.Responder{modeltest.Respond(503, `{"error":{"message":"overloaded"}}`)},
			wantKind:     model.KindServer,
			wantStatus:   503,
			wantRequests: 3,
			wantWaits:    []time.Duration{500 * time.Millisecond, time.Second},
			wantMsg:      "server error (503) after 3 attempts: overloaded",
		},
		{
			name:         "500 in plain text, no retries",
			script:       []modeltest.Responder{modeltest.Respond(500, "Internal\nServer Error\n", "Content-Type", "text/plain")},
			edit:         func(c *model.Config) { c.MaxRetries = -1 },
			wantKind:     model.KindServer,
			wantStatus:   500,
			wantRequests: 1,
			wantMsg:      "server error (500) after 1 attempt: Internal Server Error",
		},
		{
			name:         "400 is not retried",
			script:       []modeltest.Responder{modeltest.Respond(400, `{"error":{"message":"Invalid schema for response_format"}}`)},
			wantKind:     model.KindBadRequest,
			wantStatus:   400,
			wantRequests: 1,
			wantMsg:      "400 bad request: Invalid schema for response_format",
		},
		{
			name:         "structured reply not JSON",
			script:       []modeltest.Responder{modeltest.Answer("hello")},
			req:          model.Request{Messages: user("x").Messages, Schema: schema},
			wantKind:     model.KindMalformed,
			wantRequests: 1,
			wantMsg:      "the reply is not JSON: invalid character 'h' looking for beginning of value",
		},
		{
			name:         "empty choices",
			script:       []modeltest.Responder{modeltest.Respond(200, `{"id":"x","object":"chat.completion","choices":[]}`)},
			wantKind:     model.KindMalformed,
			wantRequests: 1,
			wantMsg:      "the reply has no choices",
		},
		{
			name:         "empty content",
			script:       []modeltest.Responder{modeltest.Answer("")},
			wantKind:     model.KindMalformed,
			wantRequests: 1,
			wantMsg:      "the reply is empty",
		},
		{
			name: "refusal",
			script: []modeltest.Responder{modeltest.Respond(200,
				`{"choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":"I can't help with that."}}]}`)},
			wantKind:     model.KindMalformed,
			wantRequests: 1,
			wantMsg:      "the model refused: I can't help with that.",
		},
		{
			name:         "not a chat completion",
			script:       []modeltest.Responder{modeltest.Respond(200, "<html>hi</html>", "Content-Type", "text/html")},
			wantKind:     model.KindMalformed,
			wantRequests: 1,
			wantMsg:      "the reply is not a chat completion: it is text/html, not JSON: <html>hi</html>",
		},
		{
			// A signed URL carries its token in the query.
			name:         "redirect to a signed URL",
			script:       []modeltest.Responder{modeltest.Respond(http.StatusTemporaryRedirect, "", "Location", "https://u:pw-1234@cdn.example/v1/chat/completions?sig=abc123&exp=99")},
			wantKind:     model.KindMalformed,
			wantStatus:   307,
			wantRequests: 1,
			wantMsg:      "the endpoint answered 307 temporary redirect to https://u:***@cdn.example/v1/chat/completions?sig=***&exp=***: set model.endpoint to the final URL",
		},
		{
			name:         "redirect is not followed",
			script:       []modeltest.Responder{modeltest.Respond(http.StatusFound, "", "Location", "/v2/chat/completions"), ok},
			wantKind:     model.KindMalformed,
			wantStatus:   302,
			wantRequests: 1,
			wantMsg:      "the endpoint answered 302 found to /v2/chat/completions: set model.endpoint to the final URL",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := modeltest.New(t, tc.script...)
			c, sleep := newClient(t, srv, tc.edit)
			req := tc.req
			if req.Messages == nil {
				req = user("hi")
			}
			reply, err := c.Complete(context.Background(), req)
			if got := len(srv.Requests()); got != tc.wantRequests {
				t.Errorf("server got %d requests, want %d", got, tc.wantRequests)
			}
			if reply.Usage.Requests != tc.wantRequests || c.Usage().Requests != tc.wantRequests {
				t.Errorf("Usage.Requests = %d (client %d), want %d", reply.Usage.Requests, c.Usage().Requests, tc.wantRequests)
			}
			if got := sleep.Waits(); !reflect.DeepEqual(got, tc.wantWaits) {
				t.Errorf("waits = %v, want %v", got, tc.wantWaits)
			}
			if tc.wantKind == "" {
				if err != nil || reply.Content != "fine" {
					t.Fatalf("Complete() = %q, %v; want %q, nil", reply.Content, err, "fine")
				}
				return
			}
			if err == nil {
				t.Fatalf("Complete() = %q, nil; want a %s error", reply.Content, tc.wantKind)
			}
			merr := asError(t, err)
			if merr.Kind != tc.wantKind || merr.Status != tc.wantStatus || merr.Attempts != tc.wantRequests {
				t.Errorf("Kind, Status, Attempts = %s, %d, %d; want %s, %d, %d",
					merr.Kind, merr.Status, merr.Attempts, tc.wantKind, tc.wantStatus, tc.wantRequests)
			}
			want := fmt.Sprintf("model gpt-test at %s: %s", srv.URL, tc.wantMsg)
			if err.Error() != want {
				t.Errorf("error =\n%s\nwant\n%s", err, want)
			}
		})
	}
}

// TestErrorRedactsEchoedKey checks the server's echo of the key is kept in
// Detail only in redacted form.
func TestErrorRedactsEchoedKey(t *testing.T) {
	srv := modeltest.New(t, modeltest.EchoAuth(401))
	c, _ := newClient(t, srv, nil)
	_, err := c.Complete(context.Background(), user("hi"))
	merr := asError(t, fmt.Errorf("judge: %w", err))
	if want := "bad credentials: Bearer ***"; merr.Detail != want {
		t.Errorf("Detail = %q, want %q", merr.Detail, want)
	}
	if s := fmt.Sprintf("%+v %#v", err, merr); strings.Contains(s, testKey) {
		t.Errorf("formatted error contains the key: %s", s)
	}
}

func TestCompleteUnreachable(t *testing.T) {
	srv := modeltest.New(t)
	srv.Close()
	// The package's own HTTP client, for once.
	c, sleep := newClient(t, srv, func(c *model.Config) { c.HTTP = nil })
	_, err := c.Complete(context.Background(), user("hi"))
	merr := asError(t, err)
	if merr.Kind != model.KindUnreachable || merr.Attempts != 3 {
		t.Errorf("Kind, Attempts = %s, %d; want %s, 3", merr.Kind, merr.Attempts, model.KindUnreachable)
	}
	if want := fmt.Sprintf("model gpt-test at %s: unreachable after 3 attempts: connection refused", srv.URL); err.Error() != want {
		t.Errorf("error =\n%s\nwant\n%s", err, want)
	}
	if got, want := sleep.Waits(), []time.Duration{500 * time.Millisecond, time.Second}; !reflect.DeepEqual(got, want) {
		t.Errorf("waits = %v, want %v", got, want)
	}
	if got := c.Usage().Requests; got != 3 {
		t.Errorf("Usage().Requests = %d, want 3", got)
	}
}

func TestCompleteTimeout(t *testing.T) {
	// In a bubble, against a model that holds every request until the
	// client gives up: the timeout alone ends the call, the request has
	// arrived by then however busy the machine, and the call takes the
	// timeout exactly.
	synctest.Test(t, func(t *testing.T) {
		const endpoint = "http://model.test/v1"
		h := &holding{}
		c, err := model.New(model.Config{Endpoint: endpoint, Name: "gpt-test", APIKey: testKey,
			HTTP: &http.Client{Transport: h}, Timeout: 100 * time.Millisecond, Sleep: (&fakeSleep{}).Sleep})
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		_, err = c.Complete(context.Background(), user("hi"))
		if took := time.Since(start); took != 100*time.Millisecond {
			t.Errorf("Complete took %v, want its timeout, 100ms", took)
		}
		merr := asError(t, err)
		if merr.Kind != model.KindTimeout || !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Kind = %s, errors.Is(DeadlineExceeded) = %v; want %s, true", merr.Kind, errors.Is(err, context.DeadlineExceeded), model.KindTimeout)
		}
		if want := "model gpt-test at " + endpoint + ": no answer within 100ms"; err.Error() != want {
			t.Errorf("error =\n%s\nwant\n%s", err, want)
		}
		if n := h.requests.Load(); n != 1 {
			t.Errorf("the model got %d requests, want 1 (timeouts are not retried)", n)
		}
	})
}

// holding is a model, in process, that holds every request until the
// client gives up.
type holding struct{ requests atomic.Int32 }

func (h *holding) RoundTrip(r *http.Request) (*http.Response, error) {
	h.requests.Add(1)
	<-r.Context().Done()
	return nil, r.Context().Err()
}

func TestCompleteCanceled(t *testing.T) {
	// When the call is cancelled: before it, once the server has the
	// request, or once the server has answered (the client then waits to
	// retry) — by what happened, never after a time.
	const before, arrived, answered = "before", "arrived", "answered"
	tests := []struct {
		name         string
		script       modeltest.Responder
		realSleep    bool
		cancel       string
		wantRequests int
	}{
		{name: "while waiting for the answer", script: modeltest.Hang(), cancel: arrived, wantRequests: 1},
		{name: "while waiting to retry", script: modeltest.Respond(429, `{}`, "Retry-After", "30"),
			realSleep: true, cancel: answered, wantRequests: 1},
		{name: "before the call", script: modeltest.Answer("fine"), cancel: before, wantRequests: 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			srv := modeltest.New(t, func(w http.ResponseWriter, r *http.Request) {
				if tc.cancel == arrived {
					cancel()
				}
				tc.script(w, r)
				if tc.cancel == answered {
					cancel()
				}
			})
			c, _ := newClient(t, srv, func(c *model.Config) {
				c.Timeout = time.Minute
				if tc.realSleep {
					c.Sleep = nil
				}
			})
			if tc.cancel == before {
				cancel()
			}
			err := returns(t, "Complete, cancelled,", func() error {
				_, err := c.Complete(ctx, user("hi"))
				return err
			})
			merr := asError(t, err)
			if merr.Kind != model.KindCanceled || !errors.Is(err, context.Canceled) {
				t.Errorf("Kind = %s, errors.Is(Canceled) = %v; want %s, true", merr.Kind, errors.Is(err, context.Canceled), model.KindCanceled)
			}
			if want := fmt.Sprintf("model gpt-test at %s: interrupted: context canceled", srv.URL); err.Error() != want {
				t.Errorf("error =\n%s\nwant\n%s", err, want)
			}
			if n := len(srv.Requests()); n != tc.wantRequests {
				t.Errorf("server got %d requests, want %d", n, tc.wantRequests)
			}
		})
	}
}

// returns is f's error, or fails the test when f has not returned within a
// minute: a hang, never a slow machine.
func returns(t *testing.T, what string, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(time.Minute):
		t.Fatalf("%s has not returned after a minute", what)
		return nil
	}
}
