package gateway

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/ananke/action/internal/backend"
)

// count counts a model call of an attempt and returns the fault the
// attempt's test declares for it: one for this call of the turn wins
// over one for this call of the attempt; nil for none.
func (g *Gateway) count(bd *backend.Binding, turn int) *Fault {
	a := g.attemptOf(bd)
	g.mu.Lock()
	a.calls++
	a.turnCalls[turn]++
	n, tn := a.calls, a.turnCalls[turn]
	g.mu.Unlock()
	t := g.o.Tests[bd.TestID]
	if t == nil {
		return nil
	}
	var found *Fault
	for i := range t.Faults {
		f := &t.Faults[i]
		switch {
		case f.Turn != nil && *f.Turn == turn && f.Call == tn:
			return f
		case f.Turn == nil && f.Call == n && found == nil:
			found = f
		}
	}
	return found
}

// inject answers the call with a fault instead of the model.
func (c *call) inject(f Fault) {
	c.mc.Fault = f.Name()
	what := fmt.Sprintf("injected fault %s (the test's gateway.faults)", f.Name())
	switch f.Kind {
	case "":
		if f.RetryAfter != nil {
			c.w.Header().Set("Retry-After", strconv.Itoa(*f.RetryAfter))
		}
		c.mc.Status = f.Status
		writeError(c.w, f.Status, faultCode(f.Status), what)
	case FaultTimeout:
		t := time.NewTimer(c.g.o.Timeout)
		defer t.Stop()
		select {
		case <-c.r.Context().Done():
			// the agent gave up: it got no answer
		case <-t.C:
			c.mc.Status = http.StatusGatewayTimeout
			writeError(c.w, http.StatusGatewayTimeout, "timeout", fmt.Sprintf("%s: held the request for %s (gateway.timeout_ms)", what, c.g.o.Timeout))
		}
	case FaultTruncate:
		c.mc.Status = http.StatusOK
		if c.mc.Stream {
			startStream(c.w, http.StatusOK)
			chunk := fmt.Sprintf(`{"id":"ananke-fault-truncate","object":"chat.completion.chunk","created":0,"model":%q,"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}`, c.mc.Model)
			_ = writeEvent(c.w, []byte(chunk))
		} else {
			c.w.Header().Set("Content-Type", "application/json")
			c.w.WriteHeader(http.StatusOK)
			_, _ = fmt.Fprintf(c.w, `{"id":"ananke-fault-truncate","object":"chat.completion","created":0,"model":%q,"choices":[`, c.mc.Model)
			_ = flush(c.w)
		}
		c.abort = true
	case FaultDrop:
		c.abort = true
	}
}

// faultCode is the error type of an injected status, as OpenAI names
// its own.
func faultCode(status int) string {
	switch {
	case status == http.StatusTooManyRequests:
		return "rate_limit_exceeded"
	case status >= 500:
		return "server_error"
	}
	return "invalid_request_error"
}
