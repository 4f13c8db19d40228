// Package decl is the file model of the model gateway (docs/gateway.md):
// the config's gateway: and a test's gateway.faults, read with their
// positions, and their schemas. It speaks no HTTP, so that internal/spec
// reads the gateway's keys without depending on the gateway itself
// (internal/gateway), which serves them.
package decl
