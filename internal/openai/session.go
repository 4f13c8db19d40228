package openai

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
)

// conversation is what one API keeps of the conversation and how it is
// sent.
type conversation interface {
	// path is the API's path under the endpoint.
	path() string
	// user adds a user message.
	user(text string, parts []target.Part)
	// request is the next request's body, without the extra fields.
	request() map[string]any
	// answered adds an answer; result Ananke's answer to call id.
	answered(r *reply)
	result(id, content string)
}

// Session is one attempt's conversation with an agent behind an
// OpenAI-compatible API: each turn sends the user's message, then, while
// the answer calls client tools, their answers, in follow-up requests.
type Session struct {
	o    Options
	url  string
	conv conversation
	rd   reader
	// extra are the extra body fields (Options.Body).
	extra map[string]json.RawMessage
	// parts: some message carries files, whose data the trace does not
	// keep.
	parts bool
}

var _ target.Session = (*Session)(nil)

// New starts a session; nothing is sent before its first turn.
func New(o Options) *Session {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.NewID == nil {
		n := 0
		o.NewID = func() string { n++; return fmt.Sprintf("run-%d", n) }
	}
	s := &Session{o: o}
	if o.API == APIResponses {
		s.conv, s.rd = newResponses(&s.o), responsesReader{}
	} else {
		s.conv, s.rd = newChat(&s.o), chatReader{}
	}
	s.url = join(o.Endpoint, s.conv.path())
	_ = json.Unmarshal(o.Body, &s.extra) // an object, checked when the file was read
	for _, m := range o.History {
		s.parts = s.parts || m.Parts != nil
	}
	return s
}

// join appends path to the base URL's path, keeping its query (an
// api-version).
func join(base, path string) string {
	u, err := url.Parse(base)
	if err != nil {
		return strings.TrimSuffix(base, "/") + "/" + path
	}
	u.Path = strings.TrimSuffix(u.Path, "/") + "/" + path
	u.RawPath = ""
	return u.String()
}

// Turn plays one turn: see target.Session. Its outcome's client_tools
// check is made when the test has client tools or a call could not be
// answered; its warnings note refusals and answers cut short.
func (s *Session) Turn(ctx context.Context, in target.Turn, rec *trace.Recorder) (target.Outcome, error) {
	rec.SetSource(s.source())
	if in.Type != "" && in.Type != target.TurnUser {
		return target.Outcome{}, fmt.Errorf("turn type %q is not a turn of an openai target (it plays user turns)", in.Type)
	}
	if in.Parts != nil {
		rec.Attach(in.Attachments)
		s.parts = true
	}
	s.conv.user(in.Text, in.Parts)
	var out target.Outcome
	for followups := 0; ; followups++ {
		r, err := s.exchange(ctx, rec)
		out.Warnings = append(out.Warnings, r.warnings...)
		if err != nil {
			return out, err
		}
		if r.failed {
			break
		}
		s.conv.answered(r)
		if len(r.calls) == 0 {
			break
		}
		if followups == s.o.MaxFollowups {
			out.ClientFailure = fmt.Sprintf("the agent still called client tools after %d follow-up requests (target.max_followups)", s.o.MaxFollowups)
			break
		}
		if out.ClientFailure = s.answer(rec, r.calls); out.ClientFailure != "" {
			break
		}
	}
	out.ClientTools = len(s.o.Tools) > 0 || out.ClientFailure != ""
	return out, nil
}

// exchange sends one request, recorded as one run of the turn.
func (s *Session) exchange(ctx context.Context, rec *trace.Recorder) (*reply, error) {
	body := s.body()
	runID := s.o.NewID()
	rec.StartRun(runID, s.o.Now())
	r := newReply(rec, s.o.Now, runID)
	err := s.post(ctx, body, r, s.rd)
	usage := r.finish(s.o.Model)
	kept := json.RawMessage(body)
	if s.parts {
		kept = elide(body)
	}
	rec.EndRun(r.frames, kept, s.o.Now())
	rec.RunUsage(usage)
	return r, err
}

// body is the next request's body: the conversation's request, with the
// extra fields it does not set.
func (s *Session) body() []byte {
	req := s.conv.request()
	for k, v := range s.extra {
		if _, ours := req[k]; !ours {
			req[k] = v
		}
	}
	b, err := json.Marshal(req)
	if err != nil { // every value is JSON already
		panic(fmt.Sprintf("openai: encode the request: %v", err))
	}
	return b
}

// answer answers each call from the test, or says why a call cannot be
// answered.
func (s *Session) answer(rec *trace.Recorder, calls []*call) string {
	for _, c := range calls {
		a := s.o.Answers[c.name]
		if a == nil {
			return fmt.Sprintf("the agent called %q (call %s), which is not a client tool declared in this test's tools: no result could be sent back", c.name, c.id)
		}
		content, ok := a(c.arguments())
		if !ok {
			return fmt.Sprintf("no results entry of client tool %q matches the arguments of call %s: %s", c.name, c.id, c.arguments())
		}
		s.conv.result(c.id, content)
		rec.ClientResult(c.id, content, s.o.Now())
	}
	return ""
}

// source says what the session's traces show: the assistant's text, the
// calls of client tools with their arguments and results, when each
// event arrived (streamed answers only), usage when the API reports it
// (capability.Usage follows the trace); no state, no interrupts.
func (s *Session) source() trace.Source {
	caps := []string{capability.ToolTrace}
	if s.o.Stream {
		caps = append(caps, capability.StreamingTiming)
	}
	caps = append(caps, capability.LiveRun, capability.Replay)
	api := s.o.API
	if api == "" {
		api = APIChat
	}
	src := trace.Source{Adapter: "openai", Version: api, Mode: "live", Capabilities: caps, AgentID: s.o.Model}
	if r, ok := s.conv.(*responses); ok {
		src.SessionID = r.previous
	}
	return src
}

// State is {}: the API has no state of its own.
func (s *Session) State() json.RawMessage { return json.RawMessage("{}") }

// Source says what the session's traces show.
func (s *Session) Source() *trace.Source {
	src := s.source()
	return &src
}

// Close ends the session: the API holds no connection between requests.
func (s *Session) Close() error { return nil }
