// Package trace holds what happened during one test: its turns, the tool
// calls each turn made (arguments, results and timing), the assistant text,
// and the raw protocol events with their sequence numbers and receive times.
//
// A Trace is filled by the engine while a test runs and is then read, never
// changed, by the assertion evaluator and the reporters. Times are Unix
// milliseconds taken from the local clock when an event was received.
package trace
