// Package engine runs tests: for each test it runs the hooks, resolves the
// variables, then plays the turns against the agent through a
// target.Session — which the target's Protocol opens (Options.Protocols;
// the engine knows no protocol of its own) — recording a trace and
// evaluating the assertions after every turn (stopping at the first
// failure) and once more over the whole test. It also starts and stops
// target.server and runs tests in parallel. What Ananke serves behind the
// agent — its tool doubles, its model gateway — reaches each attempt's
// trace through Options.Backend (backend.go). An attack run — a copy of a
// test with spec.Test.Attack set, run in the follow-up wave
// (Options.Followup) — has its payload planted where each value it goes
// into is resolved (plant.go lists where).
//
// The engine decides each test's status; it writes nothing: callers read
// the results (and an Observer sees each test as it finishes).
package engine
