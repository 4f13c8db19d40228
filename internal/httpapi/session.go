package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
)

// Session is one attempt's conversation with an agent behind a JSON API.
type Session struct {
	o     Options
	p     paths
	hc    *http.Client
	now   func() time.Time
	max   int
	convo []message // the conversation so far
	// conversationID is what the last response gave
	// (response.conversation_id).
	conversationID string
}

var _ target.Conn = (*Session)(nil)

// message is one message of ${messages}.
type message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// New opens a session; it sends nothing until the first turn.
func New(o Options) (*Session, error) {
	p, err := o.parse()
	if err != nil {
		return nil, err
	}
	s := &Session{o: o, p: p, hc: o.HTTP, now: o.Now, max: o.MaxBytes}
	if s.hc == nil {
		s.hc = http.DefaultClient
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.max <= 0 {
		s.max = DefaultMaxBytes
	}
	if s.o.Method == "" {
		s.o.Method = http.MethodPost
	}
	for _, m := range o.History {
		s.convo = append(s.convo, message{Role: m.Role, Content: m.Text})
	}
	return s, nil
}

// Turn sends the turn's request and records its answer as one run: see
// target.Conn. The agent's error (response.error, or an error status
// whose body names one) is recorded, not returned; what is returned is an
// exchange that failed, or an answer the mapping cannot read.
func (s *Session) Turn(ctx context.Context, in target.Turn, rec *trace.Recorder) error {
	if in.Type != "" && in.Type != target.TurnUser {
		return fmt.Errorf("turn type %q is not an http turn", in.Type)
	}
	convo := append(s.convo[:len(s.convo):len(s.convo)], message{Role: "user", Content: in.Text})
	req, body, err := s.request(ctx, in, convo)
	if err != nil {
		return err
	}
	rec.StartRun("turn-"+strconv.Itoa(in.Index), s.now())
	r := &reading{s: s, rec: rec, turn: in.Index}
	err = s.exchange(ctx, req, r)
	rec.EndRun(r.frames, body, s.now())
	rec.RunUsage(r.usage())
	s.convo = convo
	if r.text != nil {
		s.convo = append(s.convo, message{Role: "assistant", Content: r.text.String()})
	}
	if r.conversationID != "" {
		s.conversationID = r.conversationID
	}
	return err
}

// request makes the turn's request from the template: the variables set,
// the URL's escaped where they fall, the body's as JSON. The body is
// returned too, for the trace.
func (s *Session) request(ctx context.Context, in target.Turn, convo []message) (*http.Request, json.RawMessage, error) {
	all, _ := json.Marshal(convo)
	vals := map[string]string{VarMessage: in.Text, VarConversationID: s.conversationID, VarMessages: string(all), VarTurn: strconv.Itoa(in.Index)}
	var body json.RawMessage
	var rd io.Reader
	if s.o.Body != nil {
		body = fillBody(s.o.Body, vals, all)
		if !json.Valid(body) {
			return nil, nil, errors.New("http target: the request body is not JSON once its variables are set")
		}
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, s.o.Method, fillURL(s.o.URL, vals), rd)
	if err != nil {
		return nil, nil, fmt.Errorf("http target: the request: %w", err)
	}
	for k, vs := range s.o.Header {
		req.Header[k] = append([]string(nil), vs...)
	}
	if body != nil && req.Header.Get("Content-Type") == "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if req.Header.Get("Accept") == "" {
		req.Header.Set("Accept", "application/json")
		if s.o.Stream != nil {
			req.Header.Set("Accept", "text/event-stream")
		}
	}
	return req, body, nil
}

// fillBody sets the variables in a body template: a string that is
// exactly ${messages} becomes the conversation, and each mark inside a
// string its value, escaped for JSON.
func fillBody(tmpl []byte, vals map[string]string, convo []byte) json.RawMessage {
	out := bytes.ReplaceAll(tmpl, []byte(`"`+Mark(VarMessages)+`"`), convo)
	for _, name := range Vars {
		m := []byte(Mark(name))
		if bytes.Contains(out, m) {
			js := jsonText(vals[name])
			out = bytes.ReplaceAll(out, m, []byte(js[1:len(js)-1]))
		}
	}
	return out
}

// fillURL sets the variables in a URL template: escaped as a path segment
// before the query, as a query value in it.
func fillURL(tmpl string, vals map[string]string) string {
	path, query, hasQuery := strings.Cut(tmpl, "?")
	for _, name := range Vars {
		m := Mark(name)
		path = strings.ReplaceAll(path, m, url.PathEscape(vals[name]))
		query = strings.ReplaceAll(query, m, url.QueryEscape(vals[name]))
	}
	if hasQuery {
		return path + "?" + query
	}
	return path
}

// Source says what the session's traces show: the text always; tool
// calls, usage and timing when the config maps them (docs/http.md).
func (s *Session) Source() trace.Source {
	var caps []string // in capability.All's order
	if s.p.calls != nil {
		caps = append(caps, capability.ToolTrace)
	}
	if s.o.Stream != nil {
		caps = append(caps, capability.StreamingTiming)
	}
	caps = append(caps, capability.LiveRun, capability.Replay)
	if s.p.inputTokens != nil || s.p.outputTokens != nil {
		caps = append(caps, capability.Usage)
	}
	return trace.Source{Adapter: Adapter, Mode: "live", Capabilities: caps, SessionID: s.conversationID}
}

// Close ends the session, which holds nothing open between turns.
func (s *Session) Close() error { return nil }
