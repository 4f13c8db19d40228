// Package examples holds Ananke's example suites and agent. It embeds the
// quickstart suite and the example agent's source, which `ananke init
// --example` copies into a new directory.
package examples

import "embed"

// FS holds quickstart/ — its snapshots too, which a pattern leaves out
// unless named (their directory starts with _) — and the example agent's
// Go files. The agent's tests are embedded too (a pattern cannot leave
// them out; the copy skips them), but not the binary a local build may
// leave in agent/.
//
//go:embed quickstart quickstart/__snapshots__ agent/*.go
var FS embed.FS

// GoVersion is the go line of this module's go.mod, written into the go.mod
// beside a copied example agent, which uses only the standard library.
// TestGoVersion keeps the two equal.
const GoVersion = "1.26.0"
