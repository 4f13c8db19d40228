// Package target is the seam between the engine and the protocols (AG-UI,
// A2A, MCP): a session plays a test's turns against one target and
// records what happened into the test's trace, in the trace model every
// assertion and report reads. The engine speaks only to a Session; which
// protocol's session a run opens is chosen outside it (package
// target/registry).
package target

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/ananke/action/internal/trace"
)

// Turn types: a test file's turn "type" (docs/files.md).
const (
	TurnUser    = "user"           // a user message (A2A: a message/send)
	TurnConnect = "agui:connect"   // an AG-UI run without a new message
	TurnA2ASend = "a2a:send"       // a user message, named for A2A
	TurnMCPCall = "mcp:call"       // call one tool
	TurnMCPList = "mcp:list_tools" // list the server's tools (recorded as a trace.ListToolsCall call)
	TurnResume  = "resume"         // answer the interrupts pending on the thread (resume.go)
)

// Turn is one resolved turn of a test: variables substituted. A simulated
// user's turn is a TurnUser turn.
type Turn struct {
	Index int
	Type  string
	// Text is the user message (user, a2a:send, a simulated user's).
	Text string
	// Parts are the message as content parts (nil: Text alone), and
	// Attachments what the trace records of the files among them.
	Parts       []Part
	Attachments []trace.Attachment
	// Tool and Arguments are an mcp:call turn's tool and its arguments (a
	// JSON object; null or empty: none).
	Tool      string
	Arguments json.RawMessage
	// Resume is a resume turn's answers to the pending interrupts.
	Resume []Answer
	// Served, when set, reports whether Ananke's tool doubles answered a
	// call of this name and arguments in the turn (docs/backend.md): a
	// call the agent streamed with no result is then its backend's — a
	// double that failed, timed out or dropped — not a client tool left
	// unanswered. nil without doubles.
	Served func(name, args string) bool
}

// Shown is the turn as the trace shows its user message: the message, or
// the call a turn that sends none makes.
func (t Turn) Shown() string {
	switch t.Type {
	case TurnMCPCall:
		return t.Tool + " " + string(t.Arguments)
	case TurnMCPList:
		return trace.ListToolsCall
	case TurnResume:
		return shownResume(t.Resume)
	}
	return t.Text
}

// Part is one content part of a user message: a text, or a file carried
// inline.
type Part struct {
	// Type is "text", or the file's kind: "image", "audio", "video" or
	// "document".
	Type     string
	Text     string
	MIME     string
	Filename string
	Data     []byte
}

// Message is one message of a test's history, resolved.
type Message struct {
	Role string
	Text string
	// Parts are its content as parts (nil: Text alone).
	Parts []Part
}

// ErrRunTimeout is the cause of a context that ended because a run (or a
// turn) took longer than target.timeout_ms.
var ErrRunTimeout = errors.New("run timeout")

// Session is one attempt's conversation with a target. The engine opens
// it before the first turn, calls Turn for each turn in order, between
// its recorder's StartTurn and EndTurn, and closes it after the last,
// whatever happened.
type Session interface {
	// Turn plays one turn: it records each exchange as a run
	// (rec.StartRun ... rec.EndRun) holding the raw protocol events it
	// received, the assistant's text, the tool calls it observed and the
	// errors the agent reported (rec.RunError: these fail the turn), and
	// returns what the turn's built-in checks judge beyond the trace. It
	// returns an error when the exchange itself failed — unreachable, bad
	// JSON-RPC, a stream that ended without a final state, a timeout: the
	// test then errors, and never passes; the Outcome's warnings still
	// count.
	Turn(ctx context.Context, in Turn, rec *trace.Recorder) (Outcome, error)
	// State is the agent's state as the trace shows it at the end of a
	// turn (json.RawMessage; {} for a protocol without one).
	State() json.RawMessage
	// Source says what the session's traces can show: the adapter, its
	// protocol version, mode, and the capabilities assertions are gated
	// on (internal/capability). nil: the trace has no source of its own
	// (an AG-UI run's).
	Source() *trace.Source
	// Close ends the session (a stdio server's process is stopped).
	Close() error
}

// Outcome is what a turn showed beyond its trace: what its built-in
// checks judge.
type Outcome struct {
	// Conformance makes the turn's protocol check, which fails on each
	// of Violations (the protocol's errors in what the agent sent).
	Conformance bool
	Violations  []Problem
	// Warnings are what the protocol notes without failing the turn.
	Warnings []Problem
	// ClientTools makes the turn's client_tools check, which
	// ClientFailure, when set, fails: a client tool call that could not be
	// answered.
	ClientTools   bool
	ClientFailure string
	// Pending are the interrupts the turn's last run ended with: the
	// next turn must answer them (a resume turn).
	Pending []trace.Interrupt
}

// Problem is a deviation from the protocol, at the event Seq (0: the
// response as a whole).
type Problem struct {
	Seq           int64
	Rule, Message string
}
