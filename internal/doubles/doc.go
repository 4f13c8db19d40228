// Package doubles serves Ananke's tool doubles (docs/doubles.md): the MCP
// tools the config declares (package decl, the file model), in the place
// of the agent's own backend while a suite runs.
//
// Server serves them over MCP's streamable HTTP transport with the
// official Go SDK. Each tools/call is attributed to the test attempt the
// backend board routes it to (internal/backend), answered from that
// test's plan — the turn's answer, else the test's, else the config's
// (decl.Config.Choose) — and recorded into the attempt's binding as a
// trace.ToolCall whose Served says which answer was chosen. Faults are
// played below the SDK, which sends only well-formed answers. Bridge
// serves the same tools over stdio, for agents that spawn their MCP
// servers.
package doubles
