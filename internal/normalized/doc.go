// Package normalized turns Ananke traces into the normalized trace
// (docs/traces.md): one runtime-agnostic JSON document per test attempt, with the
// adapter and its capability flags, the scenario's runtime context, the
// input messages, an ordered list of typed events (messages, tool calls
// and results, memory reads and writes, errors, the final output), the
// final output, a status and metrics.
//
// Build maps one trace; Open and Report.Export read a report directory's
// summary.json and trace files and build a normalized trace for each test
// (`ananke trace export`). The raw protocol events are not copied: each
// normalized event keeps the sequence number of the trace event it came
// from (data.trace_seq), so a report's event_refs can be followed.
package normalized
