package httpapi

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/ananke/action/internal/jsonpath"
	"github.com/ananke/action/internal/target"
)

// Adapter names the session's traces.
const Adapter = "http"

// The per-turn variables (docs/http.md).
const (
	VarMessage        = "message"         // the turn's user message
	VarConversationID = "conversation_id" // the id the last response gave ("" until one did)
	VarMessages       = "messages"        // the conversation so far, this turn's message last
	VarTurn           = "turn"            // the turn's index, 0 for the first
)

// Vars are the per-turn variables, in the order docs/http.md lists them.
var Vars = []string{VarMessage, VarConversationID, VarMessages, VarTurn}

// Mark is how per-turn variable name stands in a template resolved
// before the turn (Options.URL, Options.Body): between two Unicode
// noncharacters, which no text exchanged carries and which JSON and URLs
// keep as they are.
func Mark(name string) string { return "\uFDD0" + name + "\uFDD1" }

// DefaultMaxBytes bounds a response body, and one event of a stream.
const DefaultMaxBytes = 32 << 20

// Options says how to make a turn's request and how to read its answer.
type Options struct {
	// Method is the request's method (default POST).
	Method string
	// URL is the endpoint, its per-turn variables as marks (Mark):
	// escaped for a path before its "?", for a query after it.
	URL string
	// Header is sent with every request (its credential included); its
	// values are secrets, which no error shows.
	Header http.Header
	// Body is the body's JSON, its per-turn variables as marks inside its
	// strings; a string that is exactly Mark(VarMessages) becomes the
	// conversation as a JSON array. nil: no body.
	Body []byte
	// Response says where the turn is in a response: in the whole body,
	// or, with Stream, in each event (Response.Text is then unused).
	Response Response
	Stream   *Stream
	// History are the messages before the first turn: the start of
	// ${messages}.
	History []target.Message
	// MaxBytes bounds a response body and one event (0:
	// DefaultMaxBytes).
	MaxBytes int
	// HTTP is the client requests go through (nil: http.DefaultClient);
	// a turn is bounded by its context, not by HTTP.Timeout.
	HTTP *http.Client
	// Now is the clock events are stamped with (nil: time.Now).
	Now func() time.Time
}

// Response maps a JSON document to a turn: each field a JSON path or a
// JSON Pointer (jsonpath), "" when not mapped.
type Response struct {
	Text, ConversationID, Error string
	ToolCalls                   *ToolCalls
	// Model is where the response names the model its usage is priced
	// as.
	InputTokens, OutputTokens, Model string
}

// ToolCalls maps tool calls: Path selects each call, and the others are
// read from it.
type ToolCalls struct {
	Path, Name, Arguments, Result, ID string
}

// Stream reads a response of server-sent events: each event's data is
// JSON, read through Text (appended to the reply) and the Response's
// other paths; Done is the data that ends the stream ("": the end of the
// body).
type Stream struct {
	Text, Done string
}

// paths are the options' paths, parsed; nil where not mapped.
type paths struct {
	text, conversationID, errPath, inputTokens, outputTokens, model *jsonpath.Path
	calls                                                           *callPaths
}

type callPaths struct {
	each, name, arguments, result, id *jsonpath.Path
}

// parse parses the options' paths, naming the field of one that does not
// parse.
func (o *Options) parse() (paths, error) {
	var p paths
	var errs []error
	one := func(field, s string) *jsonpath.Path {
		if s == "" {
			return nil
		}
		path, err := jsonpath.Parse(s)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s %q: %w", field, s, err))
		}
		return path
	}
	r := o.Response
	if o.Stream != nil {
		p.text = one("stream.text", o.Stream.Text)
		if p.text == nil && len(errs) == 0 {
			errs = append(errs, errors.New("stream.text is not set"))
		}
	} else {
		p.text = one("response.text", r.Text)
		if p.text == nil && len(errs) == 0 {
			errs = append(errs, errors.New("response.text is not set"))
		}
	}
	p.conversationID = one("response.conversation_id", r.ConversationID)
	p.errPath = one("response.error", r.Error)
	p.inputTokens = one("response.input_tokens", r.InputTokens)
	p.outputTokens = one("response.output_tokens", r.OutputTokens)
	p.model = one("response.model", r.Model)
	if c := r.ToolCalls; c != nil {
		p.calls = &callPaths{each: one("response.tool_calls.path", c.Path), name: one("response.tool_calls.name", c.Name),
			arguments: one("response.tool_calls.arguments", c.Arguments), result: one("response.tool_calls.result", c.Result),
			id: one("response.tool_calls.id", c.ID)}
		if (p.calls.each == nil || p.calls.name == nil) && len(errs) == 0 {
			errs = append(errs, errors.New("response.tool_calls needs path and name"))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return paths{}, fmt.Errorf("http target: %w", err)
	}
	return p, nil
}
