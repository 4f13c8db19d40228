// Package decl is the file model of tool doubles (docs/doubles.md): what
// the config's doubles: section declares — the tools, their schemas and
// default answers — and what a test file's and a turn's doubles: answer,
// read with positions through internal/decode (ReadConfig, ReadAnswers)
// and checked against each other when the suite loads (Check): every
// problem is reported at its file:line:col, among them a result that
// does not match its tool's output schema.
//
// Choose picks the reply to one call: the turn's answer, else the test's,
// else the config's default. The server of package doubles, which speaks
// MCP, answers with it; the file model speaks no protocol.
package decl
