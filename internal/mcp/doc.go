// Package mcp is Ananke's MCP target: a target.Conn (a session through
// target.Dialed) that connects to one MCP server — a stdio child process,
// a streamable HTTP endpoint or a legacy HTTP+SSE one — through the
// official Go SDK (github.com/modelcontextprotocol/go-sdk/mcp), and plays
// mcp:call and mcp:list_tools turns.
//
// Each turn is one run of the trace holding one tool call. The call's
// result is what the server sent, byte for byte: the transports are
// tapped (wire.go) below the SDK, so the trace keeps fields the SDK does
// not know and content types newer than it. A tools/call result is the
// CallToolResult; a JSON-RPC error answering it is a failed call
// (Result.Error), not an error of the turn; a transport failure, a server
// that exited and a timeout are. docs/mcp.md describes the trace a turn
// leaves.
//
// Package mcpschema, apart so that assertions need no MCP client, checks
// the schemas of a recorded tools/list.
package mcp
