package spec

import (
	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/vars"
)

// MCP transports.
const (
	// MCPStdio starts the server as a subprocess and speaks JSON-RPC over
	// its stdin and stdout.
	MCPStdio = "stdio"
	// MCPHTTP is MCP's Streamable HTTP transport, at the target's
	// endpoint; the file may also say "streamable-http".
	MCPHTTP = "http"
	// MCPSSE is the legacy HTTP+SSE transport (MCP 2024-11-05), which
	// Streamable HTTP replaced: an event stream from the endpoint names
	// the URL messages are posted to.
	MCPSSE = "sse"
)

// MCPTarget is an MCP server (target type mcp, version 1.2). Its turns call
// tools and list them: mcp:call and mcp:list_tools.
type MCPTarget struct {
	// Transport is MCPStdio, or MCPHTTP or MCPSSE (at the target's
	// Endpoint).
	Transport string
	// Command, Env and Cwd start a stdio server: the program and its
	// arguments (no shell), extra environment variables (values may be
	// secrets) and the working directory, relative to the config file.
	Command []vars.Template
	Env     []NamedValue
	Cwd     vars.Template
	// Auth is the credential sent with every HTTP request (http and sse):
	// a bearer token, or an API key in a header.
	Auth *Auth
}

var (
	mcpFields = []string{"transport", "command", "env", "cwd", "auth"}
	// stdioFields and httpFields are the fields only one transport takes
	// (a stdio server is started by its command, so it has no server).
	stdioFields = []string{"command", "env", "cwd"}
	httpFields  = []string{"endpoint", "headers", "server", "auth"}
	// mcpAuthPlaces is where an MCP target's apiKey may go, and
	// mcpAuthSchemes the schemes it takes.
	mcpAuthPlaces  = []string{"header"}
	mcpAuthSchemes = []string{AuthAPIKey, AuthBearer}
	// MCPTransports are the values of target.transport.
	MCPTransports = []string{MCPStdio, MCPHTTP, "streamable-http", MCPSSE}
)

// mcpTarget reads the MCP fields.
func (l *loader) mcpTarget(n *yaml.Node, f map[string]decode.Pair) *MCPTarget {
	m := &MCPTarget{}
	l.Require(n, f, "target (type mcp)", "transport")
	if p, ok := f["transport"]; ok {
		m.Transport = l.transport(p.Val)
	}
	var foreign []string // the fields of the other transport
	switch m.Transport {
	case MCPStdio:
		l.Require(n, f, "target (transport stdio)", "command")
		foreign = httpFields
	case MCPHTTP, MCPSSE:
		l.Require(n, f, "target (transport "+m.Transport+")", "endpoint")
		foreign = stdioFields
	}
	for _, k := range foreign {
		if p, ok := f[k]; ok {
			l.Errorf(p.Key, "target: %s is for transport %s; this target's transport is %s", k, otherTransport(m.Transport), m.Transport)
		}
	}
	m.Command, m.Env, m.Cwd = l.mcpFields(f)
	if p, ok := f["auth"]; ok && m.Transport != MCPStdio {
		m.Auth = l.auth(p.Val, mcpAuthPlaces, mcpAuthSchemes)
	}
	return m
}

// mcpFields reads a stdio server's command, env and cwd.
func (l *loader) mcpFields(f map[string]decode.Pair) (command []vars.Template, env []NamedValue, cwd vars.Template) {
	if p, ok := f["command"]; ok {
		command = l.Argv(p.Val, "target.command")
	}
	if p, ok := f["env"]; ok {
		env = l.namedValues(p.Val, "target.env", "environment variable name", vars.IsIdent)
	}
	if p, ok := f["cwd"]; ok {
		cwd, _ = l.Template(p.Val, "target.cwd")
	}
	return command, env, cwd
}

func otherTransport(t string) string {
	if t == MCPStdio {
		return "http and sse"
	}
	return MCPStdio
}

// transport reads target.transport: stdio, http (or streamable-http) or
// sse. sse is MCP's legacy HTTP+SSE transport: a server that
// speaks both is tested as http.
func (l *loader) transport(n *yaml.Node) string {
	s, node, ok := l.Text(n, "target.transport")
	if !ok {
		return ""
	}
	switch s {
	case MCPStdio, MCPHTTP, MCPSSE:
		return s
	case "streamable-http":
		return MCPHTTP
	}
	l.Errorf(node, `target.transport %q is not supported (supported: "stdio", "http", "sse")`, s)
	return ""
}
