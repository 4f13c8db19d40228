// Package agui is a standalone client for the AG-UI protocol (version 1.0):
// it POSTs a RunAgentInput and consumes the Server-Sent Events response.
//
// The pipeline follows the official TypeScript client: SSE framing
// (internal/sse) → lenient decoding of each event (unknown types and fields
// are kept and reported as warnings; malformed known fields are errors) →
// translation of retired THINKING_* events → expansion of *_CHUNK events
// into their START/CONTENT/END form → verification of event order → a
// reducer that rebuilds the conversation history and applies state
// snapshots and deltas.
//
// The client knows nothing of Ananke's tests or assertions. It reports
// what happened as Problems (errors and warnings naming the rule and the
// frame) and returns transport failures as errors. Session plays a test's
// turns through it as a target.Session — a run per turn, follow-up runs
// that answer client tools — and Recording writes each run into the
// test's trace.
package agui
