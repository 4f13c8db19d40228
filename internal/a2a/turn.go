package a2a

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
)

// Polling a task that is not done yet: the first wait, and the longest.
const (
	pollFirst = 100 * time.Millisecond
	pollMax   = time.Second
)

// Turn sends the turn's text as a user message and records what came back
// as one run: see target.Conn.
func (s *Session) Turn(ctx context.Context, in target.Turn, rec *trace.Recorder) error {
	if in.Type != "" && in.Type != target.TurnUser && in.Type != target.TurnA2ASend {
		return fmt.Errorf("turn type %q is not an A2A turn", in.Type)
	}
	turnCtx, cancel := s.bound(ctx)
	defer cancel()
	c := &capture{}
	turnCtx = withCapture(turnCtx, c)

	msg := a2a.NewMessage(a2a.MessageRoleUser, userParts(in)...)
	msg.ContextID, msg.TaskID = s.contextID, s.taskID
	req := &a2a.SendMessageRequest{Message: msg}
	if b, modes := s.opts.Blocking, s.opts.AcceptedOutputModes; b != nil && !s.streaming || len(modes) > 0 {
		req.Config = &a2a.SendMessageConfig{AcceptedOutputModes: modes}
		if b != nil && !s.streaming {
			req.Config.ReturnImmediately = !*b
		}
	}
	request, _ := json.Marshal(req)
	if in.Parts != nil {
		rec.Attach(in.Attachments)
		request = elideRaw(request)
	}

	r := &run{s: s, rec: rec, sent: msg.ID, asked: s.asked}
	rec.StartRun(msg.ID, s.now())
	var err error
	if s.streaming {
		err = s.stream(turnCtx, req, r)
	} else {
		err = s.send(turnCtx, req, r)
	}
	s.learn()
	if err != nil {
		err = s.explain(ctx, turnCtx, err, c, r)
	}
	rec.EndRun(r.frames, request, s.now())
	rec.RunUsage(r.endUsage())

	if r.contextID != "" {
		s.contextID = r.contextID
	}
	if r.taskID != "" {
		s.lastTask = r.taskID
	}
	s.taskID, s.asked = "", ""
	if r.state == a2a.TaskStateInputRequired || r.state == a2a.TaskStateAuthRequired {
		s.taskID, s.asked = r.taskID, r.said
	}
	return err
}

// stream sends the message as a streaming request and records its events.
func (s *Session) stream(ctx context.Context, req *a2a.SendMessageRequest, r *run) error {
	for ev, err := range s.client.SendStreamingMessage(ctx, req) {
		if err != nil {
			return err
		}
		r.event(ev)
	}
	if !r.final {
		return errNoFinal
	}
	return nil
}

// send sends the message and, while the task it answered is not done, polls
// it.
func (s *Session) send(ctx context.Context, req *a2a.SendMessageRequest, r *run) error {
	res, err := s.client.SendMessage(ctx, req)
	if err != nil {
		return err
	}
	r.event(res)
	wait := pollFirst
	for !r.final {
		if r.taskID == "" {
			return errors.New("the agent answered a task without an id")
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		wait = min(2*wait, pollMax)
		task, err := s.client.GetTask(ctx, &a2a.GetTaskRequest{ID: r.taskID})
		if err != nil {
			return fmt.Errorf("poll task %s: %w", r.taskID, err)
		}
		r.poll(task)
	}
	return nil
}

// errNoFinal is a stream that ended before the task reached a terminal or
// interrupted state.
var errNoFinal = errors.New("the stream ended without a final task state")

// explain turns a failed exchange into the error the test reports: the
// timeout, the JSON-RPC error or HTTP status the agent answered, with no
// secret in it.
func (s *Session) explain(ctx, turnCtx context.Context, err error, c *capture, r *run) error {
	status, stream, rpc, raw := c.last()
	if rpc != nil {
		r.record("a2a:error", raw)
	}
	var te *TokenError
	switch {
	case timedOut(turnCtx) && ctx.Err() == nil:
		err = fmt.Errorf("no final state after %v%s", s.opts.Timeout, r.lastState())
	case ctx.Err() != nil:
		err = fmt.Errorf("a2a turn: %w", ctx.Err())
	case errors.As(err, &te):
		err = te
	case errors.Is(err, errNoFinal):
		detail := r.lastState()
		if r.frames == 0 || rpc != nil && r.frames == 1 {
			detail = " (no events)"
		}
		if rpc != nil {
			detail += fmt.Sprintf(": the agent answered the streaming request with JSON-RPC error %d: %s", rpc.Code, rpc.Message)
		} else if status == http.StatusOK && !stream {
			detail += ": the agent answered with a plain response, not an event stream"
		}
		err = fmt.Errorf("%w%s", errNoFinal, detail)
	case rpc != nil:
		err = fmt.Errorf("the agent answered JSON-RPC error %d: %s%s", rpc.Code, rpc.Message, s.methodHint(rpc))
	case status != 0 && status != http.StatusOK:
		err = fmt.Errorf("the agent answered HTTP %d %s", status, http.StatusText(status))
	case stream && r.frames > 0:
		err = fmt.Errorf("the stream broke%s: %w", r.lastState(), err)
	default:
		err = fmt.Errorf("a2a turn: %w", err)
	}
	return s.redact(err)
}

// methodNotFound is JSON-RPC's "method not found".
const methodNotFound = -32601

// methodHint explains a method the agent does not know when the session
// had no card to say which version to speak: an endpoint alone is spoken
// to as A2A 1.0, whose methods a 0.3 agent does not know.
func (s *Session) methodHint(rpc *RPCError) string {
	if rpc.Code != methodNotFound || s.opts.CardURL != "" || len(s.opts.Card) > 0 {
		return ""
	}
	return "; an endpoint alone is spoken to as A2A 1.0 (SendMessage): an A2A 0.3 agent does not know its methods — " +
		"set agentCardUrl to the agent's card instead (its protocolVersion says which version to speak)"
}

// redact replaces the session's secrets in an error's text.
func (s *Session) redact(err error) error {
	msg := err.Error()
	clean := msg
	for _, v := range s.secrets {
		if v != "" {
			clean = strings.ReplaceAll(clean, v, "***")
		}
	}
	if clean == msg {
		return err
	}
	return &redacted{msg: clean, err: err}
}

// redacted is an error whose text had a secret masked.
type redacted struct {
	msg string
	err error
}

func (e *redacted) Error() string { return e.msg }
func (e *redacted) Unwrap() error { return e.err }
