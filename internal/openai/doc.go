// Package openai plays a test's turns against an agent behind an
// OpenAI-compatible API (target type openai, docs/openai.md): Chat
// Completions, the conversation sent whole as messages each time, or the
// Responses API, carried by previous_response_id; streamed (server-sent
// events) or not. The test's client tools are sent as function tools,
// and the calls the API returns are answered from the test and sent back
// in a follow-up request, as an AG-UI session answers its client tools.
//
// One request is one run of the trace: its events (each chunk or event
// of a stream, or the whole body), the assistant's text, its tool calls,
// its usage, and the errors the API reported (an error body, an error
// event, a failed response), which fail the turn's run_error check.
package openai
