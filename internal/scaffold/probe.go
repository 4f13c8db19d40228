package scaffold

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/ananke/action/internal/agui"
	"github.com/ananke/action/internal/spec"
)

// Observation is what the agent did with the probe's message.
type Observation struct {
	Message string
	// Reply is the assistant's text, its messages joined by newlines.
	Reply string
	// Tools are the tools the agent called, each once, in the order of
	// their first call.
	Tools []string
	// Err says why no test can be built from the answer (the agent could
	// not be reached, sent RUN_ERROR, broke the protocol, called a tool
	// nobody answered, or said and did nothing); nil when it answered.
	Err error
}

// Probe sends message as the only user message of a new thread to the
// agent c talks to, the way `ananke run` sends a first turn, and reports
// what came back.
func Probe(ctx context.Context, c *agui.Client, message string) Observation {
	id := "ananke-init-" + rand.Text()[:12]
	in := agui.RunAgentInput{ThreadID: id, RunID: id + "-1", ProtocolVersion: spec.DefaultProtocolVersion,
		Messages: []agui.Message{agui.TextMessage(id+"-user", agui.RoleUser, message)}}
	res, err := c.Run(ctx, in, nil)
	o := Observation{Message: message, Err: err}
	if err != nil {
		return o
	}
	var text []string
	for _, m := range res.Messages[min(len(in.Messages), len(res.Messages)):] {
		if m.Role != agui.RoleAssistant {
			continue
		}
		if s, ok := m.TextContent(); ok && strings.TrimSpace(s) != "" {
			text = append(text, s)
		}
		for _, tc := range m.ToolCalls {
			if !slices.Contains(o.Tools, tc.Function.Name) {
				o.Tools = append(o.Tools, tc.Function.Name)
			}
		}
	}
	o.Reply = strings.Join(text, "\n")
	o.Err = unusable(res, o)
	return o
}

// unusable says why a test built from the run would not pass, as the
// engine judges a turn: a RUN_ERROR, a protocol error or a call left
// pending fails it. A run with no text and no tool call leaves nothing to
// assert.
func unusable(res *agui.Result, o Observation) error {
	if len(res.RunErrors) > 0 {
		re, code := res.RunErrors[0], ""
		if re.Code != "" {
			code = fmt.Sprintf(" %q", re.Code)
		}
		return fmt.Errorf("the agent sent RUN_ERROR%s: %s", code, re.Message)
	}
	for _, p := range res.Problems {
		if p.Severity == agui.Error {
			return fmt.Errorf("the event stream broke the protocol: %s", p.Message)
		}
	}
	if len(res.Pending) > 0 {
		return fmt.Errorf("the agent called %q and no result came back (a client tool: declare it in the test's tools)", res.Pending[0].Function.Name)
	}
	if o.Reply == "" && len(o.Tools) == 0 {
		return fmt.Errorf("the agent sent no text and called no tool")
	}
	return nil
}

// WrongPath reports whether err says that a server answered at the
// endpoint's host but serves no agent at its path (HTTP 404 Not Found or
// 405 Method Not Allowed): the endpoint is wrong, not the agent away.
func WrongPath(err error) bool {
	wrong := func(status int) bool { return status == http.StatusNotFound || status == http.StatusMethodNotAllowed }
	var te *agui.TransportError
	var se *StatusError
	return errors.As(err, &te) && te.Op == "status" && wrong(te.Status) || errors.As(err, &se) && wrong(se.Status)
}

// usualPaths are where AG-UI servers commonly mount an agent: AG-UI fixes
// no path (docs/init.md names the servers behind each).
var usualPaths = []string{"/agent", "/agui", "/"}

// usualBaseURLs are the paths OpenAI-compatible APIs commonly have their
// base URL at (docs/init.md names the servers behind each).
var usualBaseURLs = []string{"/v1", "/api/v1", "/openai/v1"}

// UsualEndpoints are endpoint's scheme and host with the usual paths of
// AG-UI agents, endpoint's own path left out.
func UsualEndpoints(endpoint string) []string { return usual(endpoint, usualPaths) }

// UsualBaseURLs are endpoint's scheme and host with the usual base paths
// of OpenAI-compatible APIs, endpoint's own path left out.
func UsualBaseURLs(endpoint string) []string { return usual(endpoint, usualBaseURLs) }

func usual(endpoint string, paths []string) []string {
	u, err := url.Parse(endpoint)
	if err != nil || u.Host == "" {
		return nil
	}
	var out []string
	for _, p := range paths {
		if p == u.Path || p == strings.TrimSuffix(u.Path, "/") || p == "/" && u.Path == "" {
			continue
		}
		out = append(out, (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: p}).String())
	}
	return out
}
