// Package snapshot takes, stores and compares snapshots of an agent's
// trajectory (docs/snapshots.md): the tool calls a scope of a trace made,
// in order and grouped by turn, each with its arguments parsed as JSON,
// and — when the rules ask — the shape or the words of its replies.
//
// A snapshot is normalised before it is stored or compared (Rules): UUIDs,
// timestamps and long random ids become placeholders, ignored argument
// paths become <ignored>, the user's replacements apply to every string,
// and numbers compare within a tolerance.
//
// Snapshots live beside their test file, one YAML file per test file
// (Path: __snapshots__/<name>.snap.yaml), keyed by test id and assertion
// id. A Store reads them lazily, compares each check with its entry
// (Store.Check), and writes what changed once the run is over
// (Store.Flush), atomically.
//
// The API other commands use:
//
//   - Take(scope, rules) makes a scope's snapshot, exactly as a run does.
//   - Store.Put(testFile, id, snapshot) puts one entry for an assertion of a
//     test of testFile, whatever the store's mode; Store.Flush writes it
//     (with whatever else changed). A command that writes a test file and
//     its snapshots (ananke bless) makes a Store in Update mode, puts its
//     entries and flushes.
//   - Diff(want, got, tolerance) says how two snapshots differ, one line
//     per difference.
//
// The package reads no process state: the CLI says which mode a run is in
// (NewStore) and the engine reaches the store through engine.Options.
package snapshot
