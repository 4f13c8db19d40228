// Package doubles is Ananke's tool doubles (docs/doubles.md): MCP tools
// declared in the config and in test files, which Ananke serves in the
// place of the agent's own backend while a suite runs.
//
// The config's doubles: section declares the tools (name, description,
// input and output schemas) and, optionally, a default answer for each;
// a test file's doubles: and a turn's doubles: give answers for that test
// or that turn only (ReadConfig, ReadAnswers, Check). Every problem is
// reported at its file:line:col at load, among them a result that does
// not match its tool's output schema.
//
// Server serves the tools over MCP's streamable HTTP transport with the
// official Go SDK. Each tools/call is attributed to the test attempt the
// backend board routes it to (internal/backend), answered from that
// test's plan — the turn's answer, else the test's, else the config's —
// and recorded into the attempt's binding as a trace.ToolCall whose
// Served says which answer was chosen. Bridge serves the same tools over
// stdio, for agents that spawn their MCP servers.
package doubles
