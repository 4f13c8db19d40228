package registry

import (
	"context"
	"time"

	"github.com/ananke/action/internal/a2a"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/target"
)

// a2aProtocol: an A2A agent, one message/send per turn (docs/a2a.md).
var a2aProtocol = engine.Protocol{
	Open: openA2A,
	// The errors an A2A agent reports: a failed, rejected or canceled
	// task.
	Words: engine.Words{None: "no error from the agent", NoneMessage: "the agent reported no error", Name: "error",
		Message: "the agent reported an error: ", Code: " (%s)"},
	// An agent found by its card is up when the card is served.
	ReadyURL: func(tg *spec.Target, r *engine.Resolver) string {
		if a := tg.A2A; a != nil {
			return r.URL(a.AgentCardURL)
		}
		return ""
	},
}

// openA2A resolves the A2A fields of the target into a session that
// finds the agent at its first turn.
func openA2A(s *engine.Setup) target.Session {
	a, timeout := s.Target.A2A, time.Duration(s.Target.TimeoutMs)*time.Millisecond
	o := a2a.Options{Headers: s.Header(), Endpoint: s.Endpoint(), Timeout: timeout, HTTP: s.HTTP, Now: s.Now}
	if a != nil {
		o.CardURL, o.ContextID = s.URL(a.AgentCardURL), s.Str(a.ContextID)
		o.Blocking, o.AcceptedOutputModes, o.ToolTrace = a.Blocking, a.AcceptedOutputModes, a.ToolTrace
		if !a.AgentCard.IsZero() {
			o.Card = s.JSON(a.AgentCard, "{}")
		}
		if au := a.Auth; au != nil {
			o.Auth = &a2a.Auth{Scheme: au.Scheme, Name: au.Name, In: au.In, Value: s.Str(au.Value), Token: s.Str(au.Token),
				ClientID: s.Str(au.ClientID), ClientSecret: s.Str(au.ClientSecret), TokenURL: s.URL(au.TokenURL),
				Scopes: au.Scopes, ClientAuth: au.ClientAuth}
			s.Secret(o.Auth.Value, o.Auth.Token, o.Auth.ClientSecret)
			// The OAuth2 tokens the session fetches are secrets too.
			o.Secret = func(v string) { s.Secret(v) }
		}
	}
	return target.Dialed(func(ctx context.Context) (target.Conn, error) { return a2a.Dial(ctx, o) }, timeout)
}
