package gateway

import (
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ananke/action/internal/inprocess"

	"github.com/ananke/action/internal/backend"
)

// TestFaults: a test's faults answer its calls by number, of the attempt
// or of a turn (which wins), instead of the model; each counts as a
// call, and only what was forwarded is recorded. Served over a real
// connection, as the agent sees them.
func TestFaults(t *testing.T) {
	two, one := 2, 1
	tests := map[string]*Test{testID: {Faults: []Fault{
		{Call: 1, Status: 429, RetryAfter: &two},
		{Call: 3, Kind: FaultTruncate},
		{Turn: &one, Call: 1, Status: 503},
		{Call: 4, Kind: FaultDrop}, // turn 1's first call: the turn's fault wins
		{Turn: &one, Call: 2, Kind: FaultTruncate},
		{Call: 6, Kind: FaultDrop},
	}}}
	up := newUpstream(t, jsonAnswer(200, toolAnswer))
	dir := t.TempDir()
	r := newRig(t, Options{Mode: Record, Upstream: up.URL, Dir: dir, Tests: tests})
	type got struct {
		status int
		retry  string
		body   string
		err    string
	}
	do := func(body string) got {
		resp, err := http.Post(r.srv.URL+"/v1/chat/completions", "application/json", strings.NewReader(body))
		if err != nil {
			return got{err: "request: " + errors.Unwrap(err).Error()}
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		g := got{status: resp.StatusCode, retry: resp.Header.Get("Retry-After"), body: string(b)}
		if err != nil {
			g.err = "body: " + err.Error()
		}
		return g
	}
	var answers []got
	for i, req := range []string{askStock, askStock, askStream, askStock, askStock, askStock} {
		if i == 3 {
			r.bd.SetTurn(1)
		}
		answers = append(answers, do(req))
	}
	truncated := `data: {"id":"ananke-fault-truncate","object":"chat.completion.chunk","created":0,"model":"gpt-4o-mini","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}` + "\n\n"
	want := []got{
		{status: 429, retry: "2", body: `{"error":{"code":"rate_limit_exceeded","message":"ananke gateway: injected fault 429 (the test's gateway.faults)","type":"rate_limit_exceeded"}}` + "\n"},
		{status: 200, body: toolAnswer},
		{status: 200, body: truncated, err: "body: unexpected EOF"},
		{status: 503, body: `{"error":{"code":"server_error","message":"ananke gateway: injected fault 503 (the test's gateway.faults)","type":"server_error"}}` + "\n"},
		{status: 200, body: `{"id":"ananke-fault-truncate","object":"chat.completion","created":0,"model":"gpt-4o-mini","choices":[`, err: "body: unexpected EOF"},
		{err: "request: EOF"},
	}
	for i := range want {
		if answers[i] != want[i] {
			t.Errorf("call %d: %+v\nwant %+v", i+1, answers[i], want[i])
		}
	}
	_, turn0 := r.bd.Take(0)
	_, turn1 := r.bd.Take(1)
	var faults []string
	for _, mc := range append(turn0, turn1...) {
		faults = append(faults, mc.Fault+"/"+http.StatusText(mc.Status))
	}
	if w := []string{"429/Too Many Requests", "/OK", "truncate/OK", "503/Service Unavailable", "truncate/OK", "drop/"}; strings.Join(faults, " ") != strings.Join(w, " ") {
		t.Errorf("model calls' faults %q, want %q", faults, w)
	}
	if n := len(up.seen()); n != 1 {
		t.Errorf("the upstream got %d requests, want 1: faults are answered instead", n)
	}
	if err := r.g.Save(); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, FileName(testID)))
	if n := strings.Count(string(b), "\n"); n != 2 {
		t.Errorf("the recording has %d lines, want the header and the one forwarded call:\n%s", n, b)
	}
}

// TestFaultsPerAttempt: every attempt counts its own calls, so a retry
// of the test meets the same faults.
func TestFaultsPerAttempt(t *testing.T) {
	tests := map[string]*Test{testID: {Faults: []Fault{{Call: 1, Status: 500}}}}
	up := newUpstream(t, jsonAnswer(200, toolAnswer))
	r := newRig(t, Options{Mode: Passthrough, Upstream: up.URL, Tests: tests})
	var statuses []int
	for range 2 {
		s, _, _ := r.post(t, askStock)
		statuses = append(statuses, s)
	}
	r.bd.Release()
	r.bd = r.board.Bind(testID)
	s, _, _ := r.post(t, askStock)
	if statuses = append(statuses, s); statuses[0] != 500 || statuses[1] != 200 || statuses[2] != 500 {
		t.Errorf("statuses %v, want 500 200, then 500 for the next attempt", statuses)
	}
}

// bubble is a gateway in a synctest bubble: the agent and the upstream
// in process, the clock the bubble's.
func bubble(t *testing.T, o Options, upstream http.HandlerFunc) (*http.Client, *backend.Binding) {
	t.Helper()
	o.Board = backend.NewBoard(false, func(string) bool { return true })
	o.Upstream = "http://model.test/v1"
	o.HTTP = &http.Client{Transport: inprocess.Transport(upstream)}
	g, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return &http.Client{Transport: inprocess.Transport(g.Handler())}, o.Board.Bind(testID)
}

// TestTimeouts: a timeout fault holds the request until the agent gives
// up, or until the gateway's timeout; an upstream slower than the
// timeout is a 504, and a stream that stalls is cut. Each takes exactly
// its time.
func TestTimeouts(t *testing.T) {
	hold := func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }
	stall := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: "+streamChunks[0]+"\n\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}
	timeout := []Fault{{Call: 1, Kind: FaultTimeout}}
	for _, tc := range []struct {
		name     string
		faults   []Fault
		upstream http.HandlerFunc
		agent    time.Duration // the agent's own timeout (0: none)
		req      string
		status   int    // the agent gets
		err      string // the agent's error
		mcStatus int
		mcError  string
		took     time.Duration
	}{
		{name: "the agent gives up", faults: timeout, upstream: hold, agent: 100 * time.Millisecond, req: askStock,
			err: "context deadline exceeded", took: 100 * time.Millisecond},
		{name: "the gateway gives up", faults: timeout, upstream: hold, req: askStock,
			status: 504, mcStatus: 504, took: time.Second},
		{name: "slow upstream", upstream: hold, req: askStock,
			status: 504, mcStatus: 504, mcError: "the upstream did not answer within 1s (gateway.timeout_ms)", took: time.Second},
		{name: "stalled stream", upstream: stall, req: askStream,
			status: 200, err: "unexpected EOF", mcStatus: 200, mcError: "the upstream's stream broke after 1 chunks: it did not end within 1s (gateway.timeout_ms)", took: time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				agent, bd := bubble(t, Options{Mode: Passthrough, Timeout: time.Second, Tests: map[string]*Test{testID: {Faults: tc.faults}}}, tc.upstream)
				ctx := context.Background()
				if tc.agent > 0 {
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, tc.agent)
					defer cancel()
				}
				req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://gateway.test/v1/chat/completions", strings.NewReader(tc.req))
				status, errText := 0, ""
				resp, err := agent.Do(req)
				if err == nil {
					status = resp.StatusCode
					_, err = io.ReadAll(resp.Body)
					resp.Body.Close()
				}
				if err != nil {
					errText = err.Error()
					if ue := errors.Unwrap(err); ue != nil {
						errText = ue.Error()
					}
				}
				synctest.Wait()
				if status != tc.status || errText != tc.err {
					t.Errorf("the agent got %d, %q; want %d, %q", status, errText, tc.status, tc.err)
				}
				_, mcs := bd.Take(0)
				if len(mcs) != 1 {
					t.Fatalf("%d model calls", len(mcs))
				}
				mc := mcs[0]
				if took := time.Duration(mc.EndedMs-mc.StartedMs) * time.Millisecond; took != tc.took || mc.Status != tc.mcStatus || mc.Error != tc.mcError {
					t.Errorf("model call took %v, status %d, error %q; want %v, %d, %q", took, mc.Status, mc.Error, tc.took, tc.mcStatus, tc.mcError)
				}
			})
		})
	}
}
