package registry

import (
	"context"
	"path/filepath"
	"time"

	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/mcp"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/target"
)

// mcpProtocol: an MCP server, one tool call or listing per turn
// (docs/mcp.md).
var mcpProtocol = engine.Protocol{
	Open: openMCP,
	// An MCP server reports no error beside its answer: a failed call is
	// the call's result (is_error checks it), and a server that does not
	// answer errors the turn, so the check says it answered.
	Words: engine.Words{None: "an answer from the server", NoneMessage: "the server answered", Name: "error",
		Message: "the server reported an error: ", Code: " (%s)"},
}

// openMCP resolves the MCP fields of the target into a session that
// starts or reaches the server at its first turn.
func openMCP(s *engine.Setup) target.Session {
	m, timeout := s.Target.MCP, time.Duration(s.Target.TimeoutMs)*time.Millisecond
	header := s.Header()
	o := mcp.Options{Endpoint: s.Endpoint(), Headers: header, Timeout: timeout, HTTP: s.HTTP, Now: s.Now}
	if m != nil {
		o.Transport, o.Dir = m.Transport, serverDir(s.Dir, s.Str(m.Cwd))
		if au := m.Auth; au != nil {
			// A credential is a header like the others: sent with every
			// request, never recorded, masked in errors.
			o.Headers = header.Clone() // Setup.Header is never nil
			switch au.Scheme {
			case spec.AuthBearer:
				token := s.Str(au.Token)
				o.Headers.Set("Authorization", "Bearer "+token)
				s.Secret(token)
			case spec.AuthAPIKey:
				key := s.Str(au.Value)
				o.Headers.Set(au.Name, key)
				s.Secret(key)
			}
		}
		for _, c := range m.Command {
			o.Command = append(o.Command, s.Str(c))
		}
		for _, v := range m.Env {
			val := s.Str(v.Value)
			o.Env = append(o.Env, v.Name+"="+val)
			s.Secret(val)
		}
	}
	return target.Dialed(func(ctx context.Context) (target.Conn, error) { return mcp.Dial(ctx, o) }, timeout)
}

// serverDir is where a stdio server runs: cwd relative to the config's
// directory dir, or dir.
func serverDir(dir, cwd string) string {
	if cwd == "" {
		return dir
	}
	if filepath.IsAbs(cwd) {
		return cwd
	}
	return filepath.Join(dir, cwd)
}
