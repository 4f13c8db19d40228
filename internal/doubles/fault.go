package doubles

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/ananke/action/internal/doubles/decl"
	"github.com/ananke/action/internal/trace"
)

// malformedResult is the result a malformed fault sends: its content is
// not a list of content blocks, and isError is not a boolean, so no MCP
// client can read it as a CallToolResult.
const malformedResult = `{"content":"this is not a list of content blocks","isError":"no"}`

// fault plays the fault chosen for a call, below the SDK, which sends
// only well-formed answers:
//
//   - timeout: nothing is sent until the agent gives up (its request ends),
//     the server closes, or Hold passes; then the connection is closed.
//   - drop: after the latency, the connection is closed without a
//     response.
//   - malformed: after the latency, a JSON-RPC response whose result is
//     not a CallToolResult.
//
// A timeout or a drop is recorded without a result, as no result reached
// the agent; the timeout as soon as it arrives, so that the turn it was
// made in has it even when it outlasts the turn.
func (s *Server) fault(w http.ResponseWriter, r *http.Request, c *call, id json.RawMessage) {
	rep := c.choice.Reply
	switch rep.Fault {
	case decl.FaultTimeout:
		s.record(c, nil, c.started)
		s.wait(r.Context(), s.o.Hold)
		panic(http.ErrAbortHandler)
	case decl.FaultDrop:
		s.wait(r.Context(), msDuration(rep.LatencyMs))
		s.record(c, nil, s.o.Now())
		panic(http.ErrAbortHandler)
	case decl.FaultMalformed:
		s.wait(r.Context(), msDuration(rep.LatencyMs))
		body := `{"jsonrpc":"2.0","id":` + string(id) + `,"result":` + malformedResult + `}`
		s.record(c, &trace.Result{Content: malformedResult, JSON: true, Error: "malformed result (fault: malformed): not a CallToolResult"}, s.o.Now())
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte(body))
	}
}
