package spec

import (
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/decode"
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

var (
	// openaiFields are an openai target's own fields (auth and
	// max_followups are other types' too).
	openaiFields = []string{"api", "model", "stream", "instructions", "body", "auth", "max_followups"}
	// APIs are the values of target.api.
	APIs = []string{APIChat, APIResponses}
	// openaiOwnFields are the request fields Ananke sets itself, which
	// target.body may not hold.
	openaiOwnFields = []string{"model", "messages", "input", "instructions", "tools", "stream", "stream_options", "previous_response_id"}
	// openaiAuthSchemes are the schemes an openai target's auth takes,
	// in a header only.
	openaiAuthSchemes = []string{AuthBearer, AuthAPIKey}
)

// openaiTarget reads the openai fields.
func (l *loader) openaiTarget(n *yaml.Node, f map[string]decode.Pair, t *Target) *OpenAITarget {
	l.Require(n, f, "target (type openai)", "endpoint", "model")
	o := l.openaiOwn(n, f)
	if p, ok := f["auth"]; ok {
		o.Auth = l.auth(p.Val, mcpAuthPlaces, openaiAuthSchemes)
	}
	t.MaxFollowups = DefaultMaxFollowups
	if p, ok := f["max_followups"]; ok {
		v, _ := l.Integer(p.Val, "target.max_followups", 0, 1000)
		t.MaxFollowups = int(v)
	}
	return o
}

// openaiOwn reads the fields only an openai target has.
func (l *loader) openaiOwn(n *yaml.Node, f map[string]decode.Pair) *OpenAITarget {
	o := &OpenAITarget{Pos: l.Pos(l.DerefQuiet(n)), API: APIChat, Stream: true}
	if p, ok := f["api"]; ok {
		if s, node, ok := l.Text(p.Val, "target.api"); ok {
			if slices.Contains(APIs, s) {
				o.API = s
			} else {
				l.Errorf(node, "target.api %q is not one of %s%s", s, strings.Join(APIs, ", "), decode.DidYouMean(s, APIs))
			}
		}
	}
	if p, ok := f["model"]; ok {
		if o.Model, ok = l.Template(p.Val, "target.model"); ok && o.Model.Raw == "" && len(o.Model.Refs()) == 0 {
			l.Errorf(l.DerefQuiet(p.Val), "target.model must not be empty")
		}
	}
	if p, ok := f["stream"]; ok {
		if b, ok := l.Boolean(p.Val, "target.stream"); ok {
			o.Stream = b
		}
	}
	if p, ok := f["instructions"]; ok {
		o.Instructions, _ = l.Template(p.Val, "target.instructions")
	}
	if p, ok := f["body"]; ok {
		o.Body = l.openaiBody(p.Val)
	}
	return o
}

// openaiBody reads target.body: a mapping of extra request fields, none
// of them one Ananke sets.
func (l *loader) openaiBody(n *yaml.Node) vars.Value {
	v := l.object(n, "target.body")
	if m := l.DerefQuiet(n); m != nil && m.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(m.Content); i += 2 {
			if k := m.Content[i]; slices.Contains(openaiOwnFields, k.Value) {
				l.Errorf(k, "target.body: %s is set by Ananke%s; it cannot be replaced", k.Value, ownFieldHint(k.Value))
			}
		}
	}
	return v
}

// ownFieldHint says where a field Ananke sets comes from.
func ownFieldHint(field string) string {
	switch field {
	case "model", "stream", "instructions":
		return " (from target." + field + ")"
	case "tools":
		return " (from the test's client tools)"
	case "messages", "input", "previous_response_id":
		return " (the conversation)"
	}
	return ""
}
