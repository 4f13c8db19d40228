// Package httpapi plays a test's turns against an agent behind a JSON API
// of its own (target type http): each turn is one request made from the
// config's template — the endpoint and the body, with the turn's
// variables (${message}, ${conversation_id}, ${messages}, ${turn}) set
// — and its response, one JSON document or a stream of server-sent
// events, is read through the config's JSON paths into the trace: the
// reply, the conversation id carried to the next turn, the agent's error,
// its tool calls and its usage. A path that matches nothing where it must
// is an error naming the path, never a pass. The Session is a
// target.Conn, which target.Dialed makes a session; docs/http.md
// describes the mapping.
package httpapi
