// Package gateway is Ananke's model gateway (docs/gateway.md): an
// OpenAI-compatible endpoint the agent under test uses as its model's base
// URL. It forwards the agent's chat completions to the real model
// (passthrough), forwards and keeps them per test (record), or answers
// them from what was kept (replay), and injects the faults a test declares
// (an HTTP status, a timeout, a truncated stream, a dropped connection).
// Every request is attributed to the test attempt that caused it through
// the backend board (internal/backend) and becomes a trace.ModelCall of
// its turn, with the usage the response reported.
//
// The files, one job each: config.go and read.go declare and read the
// config's gateway: and a test's gateway:, schema.go is their JSON Schema;
// gateway.go holds the Gateway, its options and its recordings, server.go
// its HTTP server; handler.go routes a request and makes its model call,
// upstream.go forwards it, replay.go answers it from the recordings,
// faults.go injects a test's faults and models.go lists the models;
// events.go writes event streams; fingerprint.go and closest.go match
// requests, recording.go and parse.go write and read recording files, and
// usage.go reads what an answer says of its usage.
package gateway
