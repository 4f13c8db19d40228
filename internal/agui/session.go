package agui

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
)

// SessionOptions say how a session talks to an AG-UI agent.
type SessionOptions struct {
	Client *Client
	// ThreadID is the thread every run joins ("": a fresh id, made when
	// the first turn starts).
	ThreadID string
	// ProtocolVersion is sent as RunAgentInput.protocolVersion, and says
	// how content parts are encoded.
	ProtocolVersion string
	// State is the state the first run starts from; ForwardedProps are
	// sent with every run.
	State, ForwardedProps json.RawMessage
	// History are the messages placed before the first turn.
	History []Message
	// Tools are the client tools the runs declare; Answers answer their
	// calls by tool name: the result for a call's arguments, or false
	// when none matches.
	Tools   []Tool
	Answers map[string]func(args string) (string, bool)
	// MaxFollowups bounds the follow-up runs of a turn that answer client
	// tools.
	MaxFollowups int
	// RunTimeout bounds each run (its context ends with cause
	// target.ErrRunTimeout).
	RunTimeout time.Duration
	// NewID makes thread, run and message ids; Now is the clock.
	NewID func() string
	Now   func() time.Time
}

// Session is one attempt's conversation with an AG-UI agent: each turn
// sends its message (if any) in a run on the session's thread — or, a
// resume turn, the answers to the interrupts the last run ended with
// (interrupts.go) — then runs again with the answers to the client tools
// the agent called, until it calls none.
type Session struct {
	o        SessionOptions
	threadID string
	messages []Message
	state    json.RawMessage
	// pending are the interrupts the last run ended with (interrupts.go).
	pending []trace.Interrupt
	// rec writes into the trace of the turn being played.
	rec *Recording
}

var _ target.Session = (*Session)(nil)

// NewSession starts a session; nothing is sent before its first turn.
func NewSession(o SessionOptions) *Session {
	return &Session{o: o, threadID: o.ThreadID, messages: o.History, state: o.State}
}

// Turn plays one turn: see target.Session. Its outcome's protocol check
// fails on every protocol error of the turn's runs, and its Pending are
// the interrupts the turn's last run ended with; a turn that does not
// answer those the last turn left pending is an error.
func (s *Session) Turn(ctx context.Context, in target.Turn, rec *trace.Recorder) (target.Outcome, error) {
	if s.threadID == "" {
		s.threadID = s.o.NewID()
	}
	if s.rec == nil || s.rec.rec != rec {
		s.rec = NewRecording(rec)
	}
	resumes, err := s.resumes(in)
	if err != nil {
		return target.Outcome{Pending: s.pending}, err
	}
	if in.Type != target.TurnConnect && in.Type != target.TurnResume {
		if in.Parts != nil {
			rec.Attach(in.Attachments)
		}
		s.messages = append(s.messages, Message{ID: s.o.NewID(), Role: RoleUser, Content: Content(in.Text, in.Parts, s.o.ProtocolVersion)})
	}
	out := target.Outcome{Conformance: true}
	agentErrors, answered := false, resumes
	for followups := 0; ; followups++ {
		res, err := s.run(ctx, rec, resumes)
		resumes = nil // the first run carries them
		for _, pr := range res.Problems {
			p := target.Problem{Seq: rec.Seq(pr.Frame), Rule: pr.Rule, Message: pr.Message}
			if pr.Severity == Error {
				out.Violations = append(out.Violations, p)
			} else {
				out.Warnings = append(out.Warnings, p)
			}
		}
		agentErrors = agentErrors || len(res.RunErrors) > 0
		if err != nil {
			return out, err
		}
		s.messages, s.state, s.pending = res.Messages, res.State, interrupted(res)
		out.Warnings = append(out.Warnings, s.settle(answered, rec)...)
		answered = nil
		if len(out.Violations) > 0 || agentErrors || len(res.Pending) == 0 {
			break
		}
		if followups == s.o.MaxFollowups {
			out.ClientFailure = fmt.Sprintf("the agent still called client tools after %d follow-up runs (target.max_followups)", s.o.MaxFollowups)
			break
		}
		pending := slices.DeleteFunc(slices.Clone(res.Pending), func(c ToolCall) bool {
			return s.o.Answers[c.Function.Name] == nil && in.Served != nil && in.Served(c.Function.Name, c.Function.Arguments)
		})
		if len(pending) == 0 {
			break // the doubles answered them: no follow-up run
		}
		if out.ClientFailure = s.answer(rec, pending); out.ClientFailure != "" {
			break
		}
	}
	out.ClientTools = len(s.o.Tools) > 0 || out.ClientFailure != ""
	out.Pending = s.pending
	return out, nil
}

// Content is a message's content: its text, or its parts when it has
// them, encoded for an agent of protocolVersion (PartsContent).
func Content(text string, ps []target.Part, protocolVersion string) json.RawMessage {
	if ps == nil {
		return StringContent(text)
	}
	parts := make([]Part, len(ps))
	for i, p := range ps {
		parts[i] = Part{Type: p.Type, Text: p.Text, MimeType: p.MIME, Filename: p.Filename, Data: p.Data}
	}
	return PartsContent(parts, protocolVersion)
}

// run posts one run of the conversation, answering pending interrupts
// with resumes.
func (s *Session) run(ctx context.Context, rec *trace.Recorder, resumes []trace.Resume) (*Result, error) {
	in := RunAgentInput{ThreadID: s.threadID, RunID: s.o.NewID(), ProtocolVersion: s.o.ProtocolVersion, State: s.state,
		Messages: ForInput(s.messages), Tools: s.o.Tools, ForwardedProps: s.o.ForwardedProps, Resume: entries(resumes)}
	rec.StartRun(in.RunID, s.o.Now())
	for _, r := range resumes {
		rec.Resume(r)
	}
	runCtx, cancel := context.WithTimeoutCause(ctx, s.o.RunTimeout, target.ErrRunTimeout)
	defer cancel()
	res, err := s.o.Client.Run(runCtx, in, s.rec.Observe)
	s.rec.EndRun(res.Frames, ElideData(res.Request), res.Streamed, s.o.Now())
	rec.RunUsage(res.Usage)
	return res, err
}

// answer appends one tool message per pending call, or says why a call
// cannot be answered.
func (s *Session) answer(rec *trace.Recorder, pending []ToolCall) string {
	for _, c := range pending {
		a := s.o.Answers[c.Function.Name]
		if a == nil {
			return fmt.Sprintf("the agent called %q (call %s) and no result came back: it is not a backend tool that answered with TOOL_CALL_RESULT, nor a client tool declared in this test's tools",
				c.Function.Name, c.ID)
		}
		content, ok := a(c.Function.Arguments)
		if !ok {
			return fmt.Sprintf("no results entry of client tool %q matches the arguments of call %s: %s", c.Function.Name, c.ID, c.Function.Arguments)
		}
		s.messages = append(s.messages, Message{ID: s.o.NewID(), Role: RoleTool, ToolCallID: c.ID, Content: StringContent(content)})
		rec.ClientResult(c.ID, content, s.o.Now())
	}
	return ""
}

// State is the agent's state after the last run that finished.
func (s *Session) State() json.RawMessage { return s.state }

// Source is nil: an AG-UI run's trace is the trace model's own.
func (s *Session) Source() *trace.Source { return nil }

// Close ends the session; an AG-UI agent holds no connection between
// runs.
func (s *Session) Close() error { return nil }
