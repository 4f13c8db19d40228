package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// stream is one run in progress: the request it answers and the events it
// has written. Its helpers open, fill and close messages and tool calls in
// the order the protocol requires, so each script only decides *what* to say.
type stream struct {
	*eventWriter
	in  RunAgentInput
	ids map[string]int // per-kind counters for deterministic ids
	// toolTime is how long each backend tool takes ("tools take N ms").
	toolTime time.Duration
	// tosses are the agent's coin tosses so far.
	tosses *tosses
	// wrote counts the bytes of text and tool arguments the run produced,
	// for its usage.
	wrote int
}

func newStream(ew *eventWriter, in RunAgentInput, t *tosses) *stream {
	return &stream{eventWriter: ew, in: in, ids: map[string]int{}, tosses: t}
}

// newID returns "<runId>-<kind>-<n>", e.g. "run-1-msg-1" or "run-1-call-2".
// Ids built from the run id are unique across runs of a thread and identical
// every time the same run is replayed, which keeps tests deterministic.
func (s *stream) newID(kind string) string {
	s.ids[kind]++
	return fmt.Sprintf("%s-%s-%d", s.in.RunID, kind, s.ids[kind])
}

// start opens the run. RUN_STARTED must be the first event and echo the
// request's ids; the state snapshot right after it shows the client the
// agent's shared state: the state the client sent (the agent keeps none of
// its own between runs) with the number of user turns so far.
func (s *stream) start() {
	s.write(Event{Type: "RUN_STARTED", ThreadID: s.in.ThreadID, RunID: s.in.RunID})
	state := map[string]any{}
	_ = json.Unmarshal(s.in.State, &state) // a missing or non-object state starts empty
	state["turns"] = s.userTurns()
	s.write(Event{Type: "STATE_SNAPSHOT", Snapshot: state})
}

// setState changes one member of the shared state with a STATE_DELTA.
func (s *stream) setState(path string, value any) {
	s.send("STATE_DELTA", StateDelta{Type: "STATE_DELTA", Delta: []PatchOp{{Op: "add", Path: path, Value: value}}})
}

// finish closes the run. pending lists client tool calls the agent started
// but expects the client to execute; AG-UI 1.0 asks the agent to name them.
func (s *stream) finish(pending ...string) {
	e := Event{Type: "RUN_FINISHED", ThreadID: s.in.ThreadID, RunID: s.in.RunID, Usage: s.usage()}
	if len(pending) > 0 {
		e.Outcome = &Outcome{Type: "success", PendingToolCallIDs: pending}
	}
	s.write(e)
}

// fail ends the run with RUN_ERROR instead of RUN_FINISHED. Nothing may follow
// it, and everything opened before must already be closed.
func (s *stream) fail(message, code string) {
	s.write(Event{Type: "RUN_ERROR", Message: message, Code: code, Usage: s.usage()})
}

// Model is the name the agent reports its usage under.
const Model = "example-agent-1"

// usage is the run's token counts: the conversation it was sent (and a
// fixed instruction of 120 tokens) in, the text and arguments it wrote
// out, at four bytes a token.
func (s *stream) usage() []TokenUsage {
	read := 0
	for _, m := range s.in.Messages {
		read += len(m.Text())
	}
	in, out := 120+tokens(read), tokens(s.wrote)
	return []TokenUsage{{Provider: "example", Model: Model, InputTokens: in, OutputTokens: out, TotalTokens: in + out}}
}

func tokens(bytes int) int { return (bytes + 3) / 4 }

// say streams one assistant text message as START, a few CONTENT deltas and
// END, the way a model's tokens would arrive.
func (s *stream) say(text string) {
	id := s.newID("msg")
	s.wrote += len(text)
	s.write(Event{Type: "TEXT_MESSAGE_START", MessageID: id, Role: "assistant"})
	for _, piece := range splitWords(text, 4) {
		s.write(Event{Type: "TEXT_MESSAGE_CONTENT", MessageID: id, Delta: piece})
	}
	s.write(Event{Type: "TEXT_MESSAGE_END", MessageID: id})
}

// startCall opens a tool call. parent is the assistant message the call
// belongs to; the client uses it to rebuild the history it sends back.
func (s *stream) startCall(parent, name string) string {
	id := s.newID("call")
	s.write(Event{Type: "TOOL_CALL_START", ToolCallID: id, ToolCallName: name, ParentMessageID: parent})
	return id
}

func (s *stream) callArgs(id, delta string) {
	s.wrote += len(delta)
	s.write(Event{Type: "TOOL_CALL_ARGS", ToolCallID: id, Delta: delta})
}

// endCall says the arguments are complete. It does not mean the tool ran:
// that is what TOOL_CALL_RESULT (backend tools) or the client (frontend
// tools) reports.
func (s *stream) endCall(id string) {
	s.write(Event{Type: "TOOL_CALL_END", ToolCallID: id})
}

// result reports what a backend tool returned. Content is a string, so
// structured results are sent as JSON text.
func (s *stream) result(callID, content string) {
	s.write(Event{Type: "TOOL_CALL_RESULT", MessageID: s.newID("result"), ToolCallID: callID, Role: "tool", Content: content})
}

// callTool streams a complete tool call whose JSON arguments arrive in a few
// deltas; only their concatenation is valid JSON.
func (s *stream) callTool(parent, name, args string) string {
	id := s.startCall(parent, name)
	for _, piece := range splitRunes(args, 3) {
		s.callArgs(id, piece)
	}
	s.endCall(id)
	return id
}

// runTool is a backend tool call: the agent calls the tool and reports its
// result in the same run.
func (s *stream) runTool(parent, name, args, result string) {
	id := s.callTool(parent, name, args)
	if s.err == nil && s.toolTime > 0 {
		s.err = sleep(s.ctx, s.toolTime)
	}
	s.result(id, result)
}

// userTurns counts the user messages in the history.
func (s *stream) userTurns() int {
	n := 0
	for _, m := range s.in.Messages {
		if m.Role == "user" {
			n++
		}
	}
	return n
}

// splitWords cuts text into at most n pieces at word boundaries, keeping the
// spaces, so that the pieces concatenate back to text.
func splitWords(text string, n int) []string {
	words := strings.SplitAfter(text, " ")
	per := (len(words) + n - 1) / n
	var pieces []string
	for i := 0; i < len(words); i += per {
		pieces = append(pieces, strings.Join(words[i:min(i+per, len(words))], ""))
	}
	return pieces
}

// splitRunes cuts s into at most n pieces of about equal length without
// breaking a UTF-8 character.
func splitRunes(s string, n int) []string {
	per := (utf8.RuneCountInString(s) + n - 1) / n
	var pieces []string
	for s != "" {
		end, count := 0, 0
		for end < len(s) && count < per {
			_, size := utf8.DecodeRuneInString(s[end:])
			end += size
			count++
		}
		pieces = append(pieces, s[:end])
		s = s[end:]
	}
	return pieces
}

// jsonText encodes v for tool arguments and results. It is only called with
// the plain structs and maps of this package, which always encode.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("encode %T: %v", v, err))
	}
	return string(b)
}
