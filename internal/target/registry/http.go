package registry

import (
	"context"
	"time"

	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/httpapi"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// httpProtocol: an agent behind a JSON API of its own, one request per
// turn made from the config's template (docs/http.md). Its requests go
// through the attempt's client and its clock is the attempt's, so
// --record and --replay keep and answer them.
var httpProtocol = engine.Protocol{
	Open: openHTTP,
	// The errors an agent reports: what response.error names, in a
	// response or in the body of an error status.
	Words: engine.Words{None: "no error from the agent", NoneMessage: "the agent reported no error", Name: "error",
		Message: "the agent reported an error: ", Code: " (HTTP %s)"},
	Replayed: &trace.Source{Adapter: httpapi.Adapter, Mode: "replay", Capabilities: []string{capability.Replay}},
}

// openHTTP resolves the http fields of the target into a session: the
// endpoint and the body with the per-turn variables set aside
// (httpapi.Mark), which the session sets at each turn.
func openHTTP(s *engine.Setup) target.Session {
	tg, timeout := s.Target, time.Duration(s.Target.TimeoutMs)*time.Millisecond
	perTurn := func(r vars.Ref) (string, bool) {
		if spec.HTTPTurnVar(r) {
			return httpapi.Mark(r.Name), true
		}
		return "", false
	}
	o := httpapi.Options{URL: s.URL(tg.Endpoint.Substitute(perTurn)), Header: s.Header().Clone(), History: s.History(),
		HTTP: s.HTTP, Now: s.Now}
	if h := tg.HTTP; h != nil {
		o.Method = h.Method
		if !h.Body.IsZero() {
			o.Body = s.JSON(h.Body.Substitute(perTurn), "{}")
		}
		if au := h.Auth; au != nil {
			// A credential is a header like the others: sent with every
			// request, masked in every output.
			switch au.Scheme {
			case spec.AuthBearer:
				token := s.Str(au.Token)
				o.Header.Set("Authorization", "Bearer "+token)
				s.Secret(token)
			case spec.AuthAPIKey:
				key := s.Str(au.Value)
				o.Header.Set(au.Name, key)
				s.Secret(key)
			}
		}
		r := h.Response
		o.Response = httpapi.Response{Text: r.Text, ConversationID: r.ConversationID, Error: r.Error,
			InputTokens: r.InputTokens, OutputTokens: r.OutputTokens, Model: r.Model}
		if c := r.ToolCalls; c != nil {
			o.Response.ToolCalls = &httpapi.ToolCalls{Path: c.Path, Name: c.Name, Arguments: c.Arguments, Result: c.Result, ID: c.ID}
		}
		if st := h.Stream; st != nil {
			o.Stream = &httpapi.Stream{Text: st.Text, Done: st.Done}
		}
	}
	return target.Dialed(func(context.Context) (target.Conn, error) { return httpapi.New(o) }, timeout)
}
