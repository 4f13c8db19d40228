// Package interop proves Ananke against real AG-UI producers from npm rather
// than its own fakes.
//
// Its test builds the ananke binary, starts the producers pinned in
// testdata/interop (package-lock.json) on free loopback ports — a Mastra agent
// served by @ag-ui/mastra with a scripted AI-SDK mock model
// (mastra-server.mjs), a LangGraph JS graph in LangGraph's API server served
// by @ag-ui/langgraph with a scripted chat model (langgraph-server.mjs), and
// aimock's AG-UI endpoint (aimock.json) — runs the
// suites next to them through the binary, and checks every test's status,
// failing assertions, warnings and exit code against a table. TestOpenAI and
// TestHTTPAPI do the same for agents behind an HTTP API: aimock as an
// OpenAI-compatible server (aimock-openai.json) and a JSON API in plain Node
// (json-api.mjs), and replay each recorded run with the server stopped.
//
// The producers need Node and testdata/interop/node_modules: run
//
//	(cd testdata/interop && npm ci)
//
// first (bash .ci/run does). Without them the test fails; it never skips.
// docs/compatibility.md says what each producer sends and how Ananke reads it.
package interop
