// Package layers holds the project's layering rules and the test that
// checks them against the module's packages (docs/development.md, "How the
// code is laid out"):
//
//   - no package under internal/ other than internal/cli depends on
//     reporters/: reporters read the report model, never the other way;
//   - internal/engine depends on no protocol package (internal/agui,
//     internal/a2a, internal/mcp, internal/openai, internal/httpapi):
//     protocols sit behind target.Session;
//   - internal/trace and internal/target (the seam) depend on no protocol
//     package either; internal/target/registry picks the protocols;
//   - internal/spec and internal/assertion (the file model and the
//     assertion kinds) depend on no protocol package, nor on the seam;
//   - the engine, the trace, the seam, the file model and the assertion
//     kinds depend on no server Ananke runs behind the agent
//     (internal/doubles, internal/gateway, internal/otel/receiver): the
//     command line starts them, the engine knows only internal/backend and
//     the receiver's span store (internal/otel/spanstore), and the file model reads
//     their keys through their file models (internal/doubles/decl,
//     internal/gateway/decl);
//   - only internal/cli and the main packages touch the process: no other
//     package in the ananke binary reads the environment, the arguments, the
//     standard streams or the wall clock (os.Getenv, os.Args, os.Stdout,
//     time.Now, …) or exits; the process's values reach them injected.
//
// The package has no code of its own beyond this documentation.
package layers
