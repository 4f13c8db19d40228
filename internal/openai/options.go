package openai

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/ananke/action/internal/target"
)

// The APIs a session speaks.
const (
	// APIChat is Chat Completions: POST {endpoint}/chat/completions.
	APIChat = "chat"
	// APIResponses is the Responses API: POST {endpoint}/responses.
	APIResponses = "responses"
)

// Bounds of what the API sends.
const (
	// DefaultMaxEventSize bounds one event of a stream.
	DefaultMaxEventSize = 32 << 20
	// maxBody bounds a response that is not a stream.
	maxBody = 64 << 20
	// maxErrorBody bounds what is read of an error response.
	maxErrorBody = 64 << 10
)

// Options say how a session talks to the API.
type Options struct {
	// Endpoint is the API's base URL (".../v1"); the API's path is
	// appended to it.
	Endpoint string
	// API is APIChat ("" too) or APIResponses.
	API string
	// Model is sent as model.
	Model string
	// Stream asks for server-sent events.
	Stream bool
	// Instructions, when set, are the system message (chat) or the
	// instructions (responses) of every request.
	Instructions string
	// Body holds extra top-level fields of every request (a JSON object);
	// a field the session sets itself is not replaced.
	Body json.RawMessage
	// Header is sent with every request (the credential among them).
	Header http.Header
	// HTTP is the client requests go through (nil: http.DefaultClient);
	// each request is bounded by Timeout, not by HTTP.Timeout.
	HTTP *http.Client
	// History are the messages placed before the first turn.
	History []target.Message
	// Tools are the client tools sent as function tools; Answers answer
	// their calls by name: the result for a call's arguments, or false
	// when none matches.
	Tools   []Tool
	Answers map[string]func(args string) (string, bool)
	// MaxFollowups bounds the follow-up requests of a turn that answer
	// client tools.
	MaxFollowups int
	// Timeout bounds each request, from its sending to the end of its
	// answer (0: only the turn's context); its context ends with cause
	// target.ErrRunTimeout.
	Timeout time.Duration
	// MaxEventSize bounds one event of a stream (0: DefaultMaxEventSize).
	MaxEventSize int
	// Now is the clock (nil: time.Now) and NewID makes run ids.
	Now   func() time.Time
	NewID func() string
}

// Tool is a client tool, sent as a function tool.
type Tool struct {
	Name, Description string
	// Parameters is its JSON Schema.
	Parameters json.RawMessage
}
