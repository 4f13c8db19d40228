// Package target is the seam between the engine and the protocols other
// than AG-UI (A2A, MCP): a session plays a test's turns against one target
// and records what happened into the test's trace, in the trace model
// every assertion and report reads.
package target

import (
	"context"
	"encoding/json"

	"github.com/ananke/action/internal/trace"
)

// Turn types of the protocols behind this seam (spec's turn "type").
const (
	TurnUser      = "user"           // a user message (A2A: a message/send)
	TurnA2ASend   = "a2a:send"       // the same, named for A2A
	TurnMCPCall   = "mcp:call"       // call one tool
	TurnMCPList   = "mcp:list_tools" // list the server's tools
	ListToolsCall = "tools/list"     // the name of the call a list_tools turn records
)

// Turn is one resolved turn of a test: variables substituted.
type Turn struct {
	Index int
	Type  string
	// Text is the user message (user, a2a:send).
	Text string
	// Tool and Arguments are an mcp:call turn's tool and its arguments (a
	// JSON object; null or empty: none).
	Tool      string
	Arguments json.RawMessage
}

// Session is one attempt's connection to a target. The engine opens it
// before the first turn, calls Turn for each turn in order, and closes it
// after the last, whatever happened.
type Session interface {
	// Turn plays one turn. Between the engine's rec.StartTurn and
	// rec.EndTurn it records each exchange as a run (rec.StartRun ...
	// rec.EndRun) holding the raw protocol events it received
	// (rec.Record), the assistant's text (rec.Text), the tool calls it
	// observed (rec.AddCall) and the errors the agent reported
	// (rec.RunError: these fail the turn). It returns an error when the
	// exchange itself failed — unreachable, bad JSON-RPC, a stream that
	// ended without a final state, a timeout: the test then errors, and
	// never passes.
	Turn(ctx context.Context, in Turn, rec *trace.Recorder) error
	// Source says what the session's traces can show: the adapter
	// ("a2a", "mcp"), its protocol version, mode "live", and the
	// capabilities assertions are gated on (internal/capability).
	Source() trace.Source
	// Close ends the session (a stdio server's process is stopped).
	Close() error
}
