// Package a2a plays a test's turns against an A2A agent (A2A 1.0 through
// the SDK's client, and 0.3 through a transport of its own, v03.go) and
// records what happened into the test's trace: it is the A2A target.Conn,
// which target.Dialed makes a session.
//
// Dial resolves the agent's card (a card URL, an inline card, or a bare
// JSON-RPC endpoint) and picks the interface to speak; each Turn sends the
// user's text as one message in the session's conversation, streamed when
// the card says the agent streams, sent and polled otherwise, and records
// the events that came back as one run. docs/a2a.md describes the mapping.
package a2a
