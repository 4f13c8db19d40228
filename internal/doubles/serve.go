package doubles

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxBody bounds one request's body.
const maxBody = 16 << 20

// errClosed ends a call held when the server closed.
var errClosed = errors.New("the tool doubles closed")

// callKey carries a call from serve to answer in the request's context.
type callKey struct{}

// serve takes each tools/call before the SDK does: it routes the call and
// chooses its reply, plays a fault itself (a fault is what the SDK would
// never send), and hands anything else to the SDK with the call in the
// request's context.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		s.mcp.ServeHTTP(w, r)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		code := http.StatusBadRequest
		if _, big := errors.AsType[*http.MaxBytesError](err); big {
			code = http.StatusRequestEntityTooLarge
		}
		http.Error(w, "cannot read the request: "+err.Error(), code)
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	var req request
	if json.Unmarshal(body, &req) != nil || req.Method != "tools/call" || len(req.ID) == 0 {
		s.mcp.ServeHTTP(w, r) // not one call: a batch, a notification, another method
		return
	}
	var params struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if json.Unmarshal(req.Params, &params) != nil {
		s.mcp.ServeHTTP(w, r) // the SDK says what is wrong
		return
	}
	c := s.begin(r.Header, params.Name, params.Arguments)
	if !c.declared {
		// The SDK answers an unknown tool with its JSON-RPC error.
		s.record(c, traced(errorResult(c.unansweredText())), s.o.Now())
		s.mcp.ServeHTTP(w, r)
		return
	}
	if rep := c.choice.Reply; rep != nil && rep.Fault != "" {
		s.fault(w, r, c, req.ID)
		return
	}
	c.req = r.Context()
	s.mcp.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), callKey{}, c)))
}

// answer is every tool's handler: it answers the call serve took, after
// its latency, and records it.
func (s *Server) answer(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	c, _ := ctx.Value(callKey{}).(*call)
	if c == nil {
		// Only a call inside a JSON-RPC batch reaches here untaken.
		var h http.Header
		if req.Extra != nil {
			h = req.Extra.Header
		}
		c = s.begin(h, req.Params.Name, req.Params.Arguments)
		if rep := c.choice.Reply; rep != nil && rep.Fault != "" {
			err := errors.New("a fault (" + rep.Fault + ") cannot be played inside a JSON-RPC batch")
			s.record(c, nil, s.o.Now())
			return nil, err
		}
	}
	var res *sdk.CallToolResult
	switch rep := c.choice.Reply; {
	case c.bd == nil:
		return errorResult(c.orphanText()), nil
	case rep == nil:
		res = errorResult(c.unansweredText())
	default:
		if c.req != nil {
			// The SDK detaches the handler from the request; the agent
			// that gives up ends the request alone.
			var stop context.CancelFunc
			ctx, stop = context.WithCancel(ctx)
			defer stop()
			defer context.AfterFunc(c.req, stop)()
		}
		if !s.wait(ctx, msDuration(rep.LatencyMs)) {
			s.record(c, nil, s.o.Now()) // the agent gave up first, or the run ended
			if err := context.Cause(ctx); err != nil {
				return nil, err
			}
			return nil, errClosed
		}
		res = toolResult(rep)
	}
	s.record(c, traced(res), s.o.Now())
	return res, nil
}
