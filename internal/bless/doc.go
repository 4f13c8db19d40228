// Package bless turns a conversation that happened — a recorded test, a
// test of a report, an imported transcript — into a test file that
// asserts what the agent did, so that a run someone judged right becomes
// a regression test (ananke bless, docs/bless.md).
//
// A Conversation holds the traces of one test (one per attempt), the
// original test file when there is one, and the tools the agent had at
// hand. Infer makes the checks the traces support (Inferrers: required
// tools per turn, their order, identifier arguments, repeated
// identifiers in the reply, tools available but never called, the whole
// test's snapshot); each Check says in its comment what it was inferred
// from. Render writes the test file: the original's turns, client tools
// and hooks as written, its assertions replaced by the checks kept; or,
// for a transcript, a test whose source is the transcript. Its Output
// also holds the snapshot entries to store beside the file
// (snapshot.Store.Put), taken as a run takes them (snapshot.Take).
package bless
