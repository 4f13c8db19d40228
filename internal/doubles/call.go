package doubles

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/ananke/action/internal/backend"
	"github.com/ananke/action/internal/doubles/decl"
	"github.com/ananke/action/internal/trace"
)

// call is one tools/call, from its arrival to its record: the attempt it
// belongs to and the reply chosen for it.
type call struct {
	tool    string
	args    string // the arguments' JSON text ("{}" for none)
	argsOK  bool   // args is JSON
	started time.Time

	bd *backend.Binding // nil: no attempt took the call
	// why says why no attempt took it.
	why string
	// turn is the turn that was playing when the call arrived: it
	// chooses the reply, and the call is recorded in it however long the
	// reply takes.
	turn   int
	choice decl.Choice
	// declared is false for a tool the config does not declare.
	declared bool
	// req is the HTTP request's context: done when the agent gives up.
	req context.Context
	// traceparent is the W3C trace context the request carried.
	traceparent string
}

// begin takes a call as it arrives: the binding its header routes it to,
// and the reply the bound test gives it.
func (s *Server) begin(h http.Header, tool string, rawArgs json.RawMessage) *call {
	c := &call{tool: tool, started: s.o.Now(), declared: s.cfg.Tool(tool) != nil, traceparent: h.Get("traceparent")}
	c.args, c.argsOK = "{}", true
	if a := bytes.TrimSpace(rawArgs); len(a) > 0 && string(a) != "null" {
		c.args, c.argsOK = string(a), json.Valid(a)
	}
	c.bd, c.why = s.board.Route(h)
	if c.bd == nil {
		s.board.Orphan("tools/call "+tool, c.why)
		return c
	}
	c.turn = c.bd.Turn()
	c.choice = s.cfg.Choose(s.plans[c.bd.TestID], c.turn, tool, json.RawMessage(c.args))
	return c
}

// unansweredText is what the agent is told when its test gave the tool
// no answer.
func (c *call) unansweredText() string {
	if !c.declared {
		return fmt.Sprintf("unknown tool %q: the doubles declare no such tool", c.tool)
	}
	return fmt.Sprintf("no answer for tool %s in test %s", c.tool, c.bd.TestID)
}

// orphanText is what the agent is told when no attempt took its call.
func (c *call) orphanText() string {
	return "Ananke's tool doubles could not attribute this call to a test: " + c.why
}

// label is the chosen answer as the trace names it, with the fault it
// played.
func (c *call) label() string {
	r := c.choice.Reply
	if r != nil && r.Fault != "" {
		return c.choice.Label + " fault:" + r.Fault
	}
	return c.choice.Label
}

// record adds the call to its binding, in the turn it arrived in: its
// result (nil when none reached the agent) and its end.
func (s *Server) record(c *call, res *trace.Result, ended time.Time) {
	if c.bd == nil {
		return
	}
	tc := trace.ToolCall{
		Name: c.tool, Args: c.args, ArgsJSON: c.argsOK, Result: res,
		StartedMs: c.started.UnixMilli(), TimestampMs: ended.UnixMilli(),
		Served: &trace.Served{By: "doubles", Tool: c.tool, Answer: c.label(), Unanswered: c.choice.Reply == nil,
			TraceParent: c.traceparent},
	}
	if res != nil {
		tc.EndedMs = ended.UnixMilli()
	}
	if r := c.choice.Reply; r != nil {
		tc.Served.LatencyMs = r.LatencyMs
	}
	c.bd.AddCallIn(c.turn, tc)
}
