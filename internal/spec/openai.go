package spec

import (
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/vars"
)

// APIs an openai target speaks.
const (
	// APIChat is Chat Completions: POST {endpoint}/chat/completions, the
	// conversation sent whole each time as messages.
	APIChat = "chat"
	// APIResponses is the Responses API: POST {endpoint}/responses, the
	// conversation carried by previous_response_id.
	APIResponses = "responses"
)

// OpenAITarget is an agent behind an OpenAI-compatible API (target type
// openai, docs/openai.md). The target's Endpoint is the API's base URL
// (".../v1"), Headers are sent on every request.
type OpenAITarget struct {
	Pos diag.Pos
	// API is APIChat (the default) or APIResponses.
	API string
	// Model is sent as model (required).
	Model vars.Template
	// Stream asks for server-sent events (default true).
	Stream bool
	// Instructions, when set, is the system message (chat) or
	// instructions (responses) of every request.
	Instructions vars.Template
	// Body is extra top-level fields of every request body (a mapping:
	// temperature, seed, …); it never replaces what Ananke sets.
	Body vars.Value
	// Auth is a bearer token or an API key header (masked).
	Auth *Auth
}

// HTTPTarget is an agent behind a JSON API of its own (target type http,
// docs/http.md): each turn is one request made from a template, and the
// response is read through JSON paths. The target's Endpoint is the URL
// (a template: ${conversation_id} may be in it).
type HTTPTarget struct {
	Pos diag.Pos
	// Method is the request's method (default POST).
	Method string
	// Body is the request body's JSON template; a string that is exactly
	// ${messages} becomes the conversation so far as a JSON array.
	Body vars.Value
	Auth *Auth
	// Response says where the reply is in the response.
	Response HTTPResponse
	// Stream, when set, reads the response as server-sent events, each
	// event's data read through its paths.
	Stream *HTTPStream
}

// HTTPResponse maps a JSON response to a turn: each field a JSON path
// ($.a.b[0]) or a JSON Pointer (/a/b/0); "" when not mapped.
type HTTPResponse struct {
	Pos  diag.Pos
	Text string // required
	// ConversationID is carried to the next turn as ${conversation_id}.
	ConversationID string
	Error          string
	ToolCalls      *HTTPToolCalls
	// InputTokens and OutputTokens are the turn's usage.
	InputTokens, OutputTokens string
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
