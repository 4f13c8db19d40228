package spec

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/jsonpath"
	"github.com/ananke/action/internal/vars"
)

// HTTPTarget is an agent behind a JSON API of its own (target type http,
// docs/http.md): each turn is one request made from a template, and the
// response is read through JSON paths. The target's Endpoint is the URL
// (a template: ${conversation_id} may be in it).
type HTTPTarget struct {
	Pos diag.Pos
	// Method is the request's method (default POST).
	Method string
	// Body is the request body's JSON template (a mapping; zero: no
	// body); a string that is exactly ${messages} becomes the
	// conversation so far as a JSON array.
	Body vars.Value
	Auth *Auth
	// Response says where the reply is in the response (zero with Stream:
	// the events say it all).
	Response HTTPResponse
	// Stream, when set, reads the response as server-sent events, each
	// event's data read through its paths.
	Stream *HTTPStream
}

// HTTPResponse maps a JSON response to a turn: each field a JSON path
// ($.a.b[0]) or a JSON Pointer (/a/b/0); "" when not mapped.
type HTTPResponse struct {
	Pos diag.Pos
	// Text is the reply (required without Stream; with one, Stream.Text
	// is read instead).
	Text string
	// ConversationID is carried to the next turn as ${conversation_id}.
	ConversationID string
	// Error, when it matches a value that is not empty, is the agent's
	// error (the turn's run_error check).
	Error     string
	ToolCalls *HTTPToolCalls
	// InputTokens and OutputTokens are the turn's usage, and Model the
	// model it names (what pricing: prices it).
	InputTokens, OutputTokens, Model string
}

// HTTPToolCalls maps the tool calls of a response: Path selects each
// call, and the others are read from it.
type HTTPToolCalls struct {
	Pos                               diag.Pos
	Path, Name, Arguments, Result, ID string
}

// HTTPStream reads a streamed response: each event's data is JSON, read
// through the paths (Text appended, the others as in HTTPResponse); Done
// is the data that ends the stream ("" : the end of the body).
type HTTPStream struct {
	Pos  diag.Pos
	Text string
	Done string
}

// The variables an http target's endpoint and body may reference beside
// the test's, set by the session at each turn (docs/http.md).
const (
	// HTTPVarMessage is the turn's user message.
	HTTPVarMessage = "message"
	// HTTPVarConversationID is the id the last response gave
	// (response.conversation_id; "" until one did).
	HTTPVarConversationID = "conversation_id"
	// HTTPVarMessages is the conversation so far, this turn's message
	// last: as a JSON array of {role, content} where a body string is
	// exactly ${messages}, as its JSON text elsewhere.
	HTTPVarMessages = "messages"
	// HTTPVarTurn is the turn's index (0 for the first).
	HTTPVarTurn = "turn"
)

// HTTPTurnVars are the per-turn variables, in the order docs/http.md
// lists them.
var HTTPTurnVars = []string{HTTPVarMessage, HTTPVarConversationID, HTTPVarMessages, HTTPVarTurn}

// HTTPTurnVar reports whether r is a per-turn variable of an http target.
func HTTPTurnVar(r vars.Ref) bool { return !r.Env && slices.Contains(HTTPTurnVars, r.Name) }

var (
	httpTargetFields = []string{"method", "body", "response", "stream", "auth"}
	httpMethods      = []string{http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodGet, http.MethodDelete}
	responseFields   = []string{"text", "conversation_id", "error", "tool_calls", "input_tokens", "output_tokens", "model"}
	toolCallFields   = []string{"path", "name", "arguments", "result", "id"}
	streamFields     = []string{"text", "done"}
	// httpAuthSchemes are the schemes an http target takes: its credential
	// goes in a header (an API key in the query is written in the
	// endpoint).
	httpAuthSchemes = []string{AuthAPIKey, AuthBearer}
)

// httpTarget reads the http fields; require says the type is http (an
// unknown type's fields are checked, not required).
func (l *loader) httpTarget(n *yaml.Node, f map[string]decode.Pair, t *Target, require bool) *HTTPTarget {
	h := &HTTPTarget{Pos: l.Pos(l.DerefQuiet(n)), Method: http.MethodPost}
	if require {
		l.Require(n, f, "target (type http)", "endpoint")
	}
	if p, ok := f["method"]; ok {
		h.Method = l.httpMethod(p.Val)
	}
	_, streams := f["stream"]
	if resp, ok := f["response"]; ok {
		h.Response = l.httpResponse(resp.Val, streams)
	}
	if !require {
		// A type Ananke does not speak: its fields only http has are
		// checked; auth, body and stream are other types' too.
		return h
	}
	if p, ok := f["auth"]; ok {
		h.Auth = l.auth(p.Val, mcpAuthPlaces, httpAuthSchemes)
	}
	if p, ok := f["stream"]; ok {
		h.Stream = l.httpStream(p.Val)
	}
	if _, ok := f["response"]; !ok && !streams {
		l.Errorf(l.DerefQuiet(n), `target (type http) is missing required field "response" (where the reply is: response: {text: $.reply})`)
	}
	if p, ok := f["body"]; ok {
		h.Body = l.object(p.Val, "target.body")
		if h.Method == http.MethodGet && !h.Body.IsZero() {
			l.Errorf(p.Key, "target.body: a GET request sends no body; use method POST, or put ${message} in the endpoint's query")
		}
		l.turnRefs(h.Body.Refs(), "target.body", true)
	}
	l.httpEndpoint(f, t, h)
	l.resolvedOnce(t, h)
	return h
}

// resolvedOnce reports the per-turn variables in the fields resolved
// once, before the first turn: headers and auth.
func (l *loader) resolvedOnce(t *Target, h *HTTPTarget) {
	var refs []vars.Ref
	for _, hd := range t.Headers {
		refs = append(refs, hd.Value.Refs()...)
	}
	if h.Auth != nil {
		refs = append(refs, templateRefs(h.Auth.Value, h.Auth.Token)...)
	}
	for _, r := range refs {
		if HTTPTurnVar(r) {
			l.Diags.Add(r.Pos, "%s is set per turn, in target.endpoint and target.body only; headers and auth are resolved once, before the first turn", r)
		}
	}
}

// httpEndpoint checks an http target's endpoint: a URL once its per-turn
// variables are set, that holds no ${messages}; something sends the
// turn's message; and target.server, which starts before any turn, says
// where it is ready when the endpoint holds a per-turn variable.
func (l *loader) httpEndpoint(f map[string]decode.Pair, t *Target, h *HTTPTarget) {
	p, ok := f["endpoint"]
	if !ok {
		return
	}
	refs := t.Endpoint.Refs()
	l.turnRefs(refs, "target.endpoint", false)
	perTurn := slices.ContainsFunc(refs, HTTPTurnVar)
	if perTurn && !slices.ContainsFunc(refs, func(r vars.Ref) bool { return !HTTPTurnVar(r) }) {
		u := t.Endpoint.Placeholder()
		if pu, err := url.Parse(u); err != nil || (pu.Scheme != "http" && pu.Scheme != "https") || pu.Host == "" {
			l.Errorf(l.DerefQuiet(p.Val), "target.endpoint %q is not an http:// or https:// URL", t.Endpoint.Raw)
		}
	}
	sent := func(refs []vars.Ref) bool {
		return slices.ContainsFunc(refs, func(r vars.Ref) bool {
			return !r.Env && (r.Name == HTTPVarMessage || r.Name == HTTPVarMessages)
		})
	}
	if !sent(refs) && !sent(h.Body.Refs()) {
		at := p.Key
		if b, ok := f["body"]; ok {
			at = b.Key
		}
		l.Errorf(at, "target (type http) sends the user's message nowhere: put ${message} (or ${messages}) in target.body or target.endpoint")
	}
	if s := t.Server; perTurn && s != nil && s.ReadyURL.IsZero() {
		l.Diags.Add(s.Pos, "target.server needs ready_url: the endpoint holds a per-turn variable, so it says where the agent is only once a turn runs")
	}
}

// turnRefs reports the per-turn variables a field of an http target may
// not hold: ${messages} outside a body (a URL takes no conversation).
func (l *loader) turnRefs(refs []vars.Ref, what string, body bool) {
	for _, r := range refs {
		if !body && !r.Env && r.Name == HTTPVarMessages {
			l.Diags.Add(r.Pos, "%s cannot hold ${messages}, the conversation as JSON: put it in target.body", what)
		}
	}
}

// httpMethod reads target.method: one of httpMethods, in capitals.
func (l *loader) httpMethod(n *yaml.Node) string {
	s, node, ok := l.Text(n, "target.method")
	if !ok {
		return http.MethodPost
	}
	if slices.Contains(httpMethods, s) {
		return s
	}
	hint := ""
	if up := strings.ToUpper(s); slices.Contains(httpMethods, up) {
		hint = fmt.Sprintf("; write %s", up)
	}
	l.Errorf(node, "target.method %q is not one of %s%s", s, strings.Join(httpMethods, ", "), hint)
	return http.MethodPost
}

// httpResponse reads target.response; stream says the text is the
// stream's (response.text is then optional).
func (l *loader) httpResponse(n *yaml.Node, stream bool) HTTPResponse {
	f, ok := l.Fields(n, "target.response", responseFields)
	if !ok {
		return HTTPResponse{}
	}
	r := HTTPResponse{Pos: l.Pos(l.DerefQuiet(n))}
	if !stream {
		l.Require(n, f, "target.response", "text")
	}
	// Beside a stream, text is checked and not read: stream.text is, so
	// one mapping serves an API that streams or not.
	r.Text = l.path(f, "text", "target.response")
	r.ConversationID = l.path(f, "conversation_id", "target.response")
	r.Error = l.path(f, "error", "target.response")
	r.InputTokens = l.path(f, "input_tokens", "target.response")
	r.OutputTokens = l.path(f, "output_tokens", "target.response")
	r.Model = l.path(f, "model", "target.response")
	if p, ok := f["tool_calls"]; ok {
		r.ToolCalls = l.toolCalls(p.Val)
	}
	return r
}

// toolCalls reads target.response.tool_calls: path selects each call,
// the others are read from it.
func (l *loader) toolCalls(n *yaml.Node) *HTTPToolCalls {
	const what = "target.response.tool_calls"
	f, ok := l.Fields(n, what, toolCallFields)
	if !ok {
		return nil
	}
	l.Require(n, f, what, "path", "name")
	return &HTTPToolCalls{Pos: l.Pos(l.DerefQuiet(n)), Path: l.path(f, "path", what), Name: l.path(f, "name", what),
		Arguments: l.path(f, "arguments", what), Result: l.path(f, "result", what), ID: l.path(f, "id", what)}
}

// httpStream reads target.stream.
func (l *loader) httpStream(n *yaml.Node) *HTTPStream {
	f, ok := l.Fields(n, "target.stream", streamFields)
	if !ok {
		return nil
	}
	s := &HTTPStream{Pos: l.Pos(l.DerefQuiet(n))}
	l.Require(n, f, "target.stream", "text")
	s.Text = l.path(f, "text", "target.stream")
	if p, ok := f["done"]; ok {
		if d, node, ok := l.Text(p.Val, "target.stream.done"); ok {
			if d == "" {
				l.Errorf(node, `target.stream.done must not be empty: leave it out to read to the end of the body, or write the data that ends the stream ("[DONE]")`)
			}
			s.Done = d
		}
	}
	return s
}

// path reads field key of mapping f as a JSON path or JSON Pointer ("":
// absent or invalid), reporting a problem at its character.
func (l *loader) path(f map[string]decode.Pair, key, what string) string {
	p, ok := f[key]
	if !ok {
		return ""
	}
	what += "." + key
	s, node, ok := l.Text(p.Val, what)
	if !ok {
		return ""
	}
	if _, err := jsonpath.Parse(s); err != nil {
		var pe *jsonpath.Error
		if errors.As(err, &pe) {
			l.Diags.Add(vars.OffsetPos(l.File, node)(pe.Offset), "%s %q: %s", what, s, pe.Msg)
		} else {
			l.Errorf(node, "%s %q: %v", what, s, err)
		}
		return ""
	}
	return s
}

// refs lists the references of an http target's own fields.
func (h *HTTPTarget) refs() []vars.Ref {
	refs := h.Body.Refs()
	if a := h.Auth; a != nil {
		refs = append(refs, templateRefs(a.Value, a.Token)...)
	}
	return refs
}

// notPerTurn drops an http target's per-turn variables from refs.
func notPerTurn(refs []vars.Ref) []vars.Ref {
	return slices.DeleteFunc(refs, HTTPTurnVar)
}

// checkHTTP reports what test t asks of an http target that it cannot
// send: files (the body is JSON text), and history when nothing sends
// the conversation (${messages}).
func checkHTTP(cfg *Config, t *Test, diags *diag.Diagnostics) {
	h := cfg.Target.HTTP
	if h == nil {
		return
	}
	files := func(ps []Part) {
		for _, p := range ps {
			if p.File != nil {
				diags.Add(p.Pos, "an http target sends text only (${message}); files need an agui or a2a target")
			}
		}
	}
	for _, turn := range t.Turns {
		files(turn.Parts)
	}
	messages := slices.ContainsFunc(h.Body.Refs(), func(r vars.Ref) bool { return !r.Env && r.Name == HTTPVarMessages })
	for _, m := range t.History {
		files(m.Parts)
		if !messages {
			diags.Add(m.Pos, "history reaches an http target only in ${messages}, which target.body does not hold")
		}
	}
}
