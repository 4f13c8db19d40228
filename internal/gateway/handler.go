package gateway

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/ananke/action/internal/backend"
	"github.com/ananke/action/internal/trace"
)

// Handler serves the agent: POST …/chat/completions and GET …/models
// under any base path, so the agent's base URL may end in /v1 or not.
func (g *Gateway) Handler() http.Handler { return http.HandlerFunc(g.serve) }

func (g *Gateway) serve(w http.ResponseWriter, r *http.Request) {
	switch path := strings.TrimSuffix(r.URL.Path, "/"); {
	case strings.HasSuffix(path, "/chat/completions"):
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			writeError(w, http.StatusMethodNotAllowed, "method_not_allowed", "chat completions take POST, not "+r.Method)
			return
		}
		g.chat(w, r)
	case strings.HasSuffix(path, "/models"):
		if r.Method != http.MethodGet {
			w.Header().Set("Allow", http.MethodGet)
			writeError(w, http.StatusMethodNotAllowed, "method_not_allowed", "the model list takes GET, not "+r.Method)
			return
		}
		g.models(w, r)
	default:
		writeError(w, http.StatusNotFound, "not_found", "the gateway serves POST …/chat/completions and GET …/models, not "+r.Method+" "+r.URL.Path)
	}
}

// call is one chat completion request on its way through the gateway.
type call struct {
	g    *Gateway
	w    http.ResponseWriter
	r    *http.Request
	bd   *backend.Binding
	why  string
	turn int
	body []byte
	req  map[string]any
	mc   trace.ModelCall
	// abort cuts the agent's connection once the call is recorded.
	abort bool
}

func (g *Gateway) chat(w http.ResponseWriter, r *http.Request) {
	c := &call{g: g, w: w, r: r}
	c.mc.StartedMs = g.now().UnixMilli()
	c.mc.Mode = string(g.o.Mode)
	c.mc.TraceParent = r.Header.Get("traceparent")
	c.bd, c.why = g.o.Board.Route(r.Header)
	if c.bd != nil {
		c.turn = c.bd.Turn()
	}
	defer c.finish()
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxRequestBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			c.fail(http.StatusRequestEntityTooLarge, "request_too_large", "the request body is over 32 MiB")
		} else {
			c.fail(http.StatusBadRequest, "bad_request", "the request body could not be read: "+err.Error())
		}
		return
	}
	c.body = body
	if c.req, err = parseRequest(body); err != nil {
		c.fail(http.StatusBadRequest, "bad_request", err.Error())
		return
	}
	c.rewriteModel()
	c.describe()
	var fault *Fault
	if c.bd != nil {
		fault = g.count(c.bd, c.turn)
	}
	switch {
	case fault != nil:
		c.inject(*fault)
	case g.o.Mode == Replay:
		c.replay()
	default:
		c.forward()
	}
}

// rewriteModel sets the request's model to the one Options.ModelFor
// names for the call's test, if any: the body is then the request
// re-encoded (canonical JSON), the rest of it as the agent sent it.
func (c *call) rewriteModel() {
	if c.g.o.ModelFor == nil || c.bd == nil {
		return
	}
	model := c.g.o.ModelFor(c.bd.TestID)
	if model == "" || c.req["model"] == model {
		return
	}
	c.req["model"] = model
	c.body = canonical(c.req)
}

// describe fills what the model call says of the request.
func (c *call) describe() {
	c.mc.Model, _ = c.req["model"].(string)
	c.mc.Stream, _ = c.req["stream"].(bool)
	if ms, ok := c.req["messages"].([]any); ok {
		c.mc.Messages = len(ms)
	}
	tools, _ := c.req["tools"].([]any)
	for _, t := range tools {
		m, _ := t.(map[string]any)
		fn, _ := m["function"].(map[string]any)
		name, _ := fn["name"].(string)
		if name == "" {
			name, _ = m["name"].(string)
		}
		if name != "" {
			c.mc.Tools = append(c.mc.Tools, name)
		}
	}
}

// finish attributes the call: to its attempt, in the turn that was
// playing when it arrived, or to no one (the board's orphans), then cuts
// the connection if it must.
func (c *call) finish() {
	c.mc.EndedMs = c.g.now().UnixMilli()
	c.mc.Error = c.g.mask(c.mc.Error)
	c.mc.Note = c.g.mask(c.mc.Note)
	if c.bd != nil {
		c.bd.AddModelCallIn(c.turn, c.mc)
	} else {
		what := "chat completions"
		if c.mc.Model != "" {
			what += " " + c.mc.Model
		}
		how := "forwarded to the upstream, not recorded"
		if c.g.o.Mode == Replay {
			how = "answered with an error"
		}
		c.g.o.Board.Orphan(what, c.why+"; "+how)
	}
	if c.abort {
		panic(http.ErrAbortHandler)
	}
}

// fail answers the agent with an error and notes it on the call.
func (c *call) fail(status int, code, msg string) {
	c.mc.Status = status
	c.mc.Error = msg
	writeError(c.w, status, code, c.g.mask(msg))
}

// writeError answers with an OpenAI-style error body.
func writeError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": "ananke gateway: " + msg, "type": code, "code": code}})
	_, _ = w.Write(append(b, '\n'))
}

// errorOf is what an error answer says: its error.message, or the start
// of its body.
func errorOf(status int, body []byte) string {
	var e struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	msg := ""
	if json.Unmarshal(body, &e) == nil && e.Error.Message != "" {
		msg = e.Error.Message
	} else {
		msg = strings.TrimSpace(string(body))
	}
	if r := []rune(msg); len(r) > 300 {
		msg = string(r[:300]) + "…"
	}
	s := "HTTP " + strconv.Itoa(status)
	if t := http.StatusText(status); t != "" {
		s += " " + t
	}
	if msg != "" {
		s += ": " + msg
	}
	return s
}
