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
