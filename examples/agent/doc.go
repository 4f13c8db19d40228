// Command agent is a small, deterministic AG-UI agent used by Ananke's
// quickstart and by its own end-to-end tests.
//
// It has no language model: it picks a canned script from keywords in the last
// user message (or, in a follow-up run, from the tool result the client sent
// back) and streams the AG-UI events a real agent would send for it. Because
// ids are derived from the run id and nothing is random, every run of the same
// input produces the same events, so suites written against it never flake —
// except the coin script, which alternates on purpose to show flaky tests.
//
// When the last user message carries files (AG-UI 1.0 image, audio, video or
// document parts, or the legacy 0.x binary part), the agent reads them
// instead of running a script. It calls the backend tool read_receipt,
// {"filename", "total"} → {"total", "currency": "USD"}, for each text file
// (text/*, application/json) stating an amount ("$85.50", "Total: 85.50"),
// then answers with one sentence per file:
//
//	Received receipt.txt (text/plain, 13 bytes). It says: "Total: $85.50"
//	Received photo.png (image/png, 68 bytes).
//	Received https://example.com/a.pdf (unknown type, by URL).
//
// The quote is the file's text with whitespace collapsed, cut to 200
// characters; a file without a filename is "an attachment". A file it cannot
// read (bad base64, no source) ends the run with RUN_ERROR code
// "invalid_attachment". Text parts alone are not files: their text, joined,
// is the message the scripts below read.
//
// Scripts, tried in this order: the first whose phrase occurs in the last
// user message (ignoring case) runs.
//
//	crash                  text, then RUN_ERROR code "demo_crash"
//	coin                   for the same message, alternately "Tails, I think."
//	                       (1st, 3rd, ... time) and a toss_coin call, "Heads!"
//	as json                get_order, then the order as a ```json block
//	tomorrow               a forecast with a made-up temperature, no tool
//	return policy          get_policy, then its URL and one made up
//	slow, "wait N ms"      a "waiting" step of N ms (default 300, max 5000)
//	chunk                  text as TEXT_MESSAGE_CHUNK events only
//	what is my name        the name from an earlier "my name is X"
//	my name is X           "Nice to meet you, X."
//	what did i say first,  quotes the first user message
//	first message
//	compare                two interleaved get_price calls
//	buy                    validate_cart, then the client tool confirm_purchase
//	weather                get_weather for Paris, London, Tokyo or Berlin
//	search, find           search_products
//	anything else          a one-line help text
//
// When the last message is a tool message, the run continues a purchase:
// "yes" in the confirm_purchase answer charges the card, anything else
// cancels. The purchase keeps its progress in the shared state: /cart after
// validate_cart, /order after charge_card (STATE_DELTA), on top of the state
// the client sent and the user turn count (STATE_SNAPSHOT, every run).
//
// "think for N ms" anywhere in the message delays the first event by N ms
// (at most 5000) before the script the rest of the message picks; "tools
// take N ms" in any user message makes every backend tool call that long.
//
// # Other APIs
//
// The same server also answers as an agent behind an OpenAI-compatible API
// or a JSON API of its own, for Ananke's openai and http targets. A
// scripted model (reply.go) answers both, from the conversation alone:
// "crash" fails after a few words, "password" is refused, "my name is X"
// and "what is my name" remember, "what did i say first" quotes, "weather"
// asks for get_weather once per city named (Paris when none) and answers
// from its result, "buy" asks for confirm_purchase and places the order on
// a "yes"; anything else gets a one-line help text. Usage is counted as
// for AG-UI runs, about four bytes a token.
//
//   - POST /v1/chat/completions and POST /v1/responses (chat.go,
//     responses.go): Chat Completions and the Responses API, streamed
//     (server-sent events as OpenAI sends them) or not. The tools are the
//     caller's: the model asks for get_weather or confirm_purchase only
//     when the request offers it, and the caller sends the result back.
//     Chat Completions get the whole conversation every time; the
//     Responses API keeps each response's conversation in memory for a
//     request naming it as previous_response_id. GET /v1/models lists the
//     model. Errors are OpenAI's error objects (a crash: HTTP 500, or an
//     error chunk or response.failed in a stream).
//   - POST /api/chat (jsonapi.go): {"session", "message"} →
//     {"session_id", "reply", "tool_calls": [{"id", "name", "args",
//     "output"}], "usage": {"in", "out"}}. The agent keeps each session's
//     conversation and runs get_weather itself; a crash is "error".
//
// Point an openai target at http://127.0.0.1:8000/v1, an http target at
// http://127.0.0.1:8000/api/chat.
//
// Read it to see what an AG-UI agent streams:
//
//   - protocol.go: the request body (RunAgentInput) and the SSE event writer;
//   - stream.go: how text messages and tool calls are opened, streamed in
//     pieces and closed;
//   - scripts.go and tools.go: the behaviours, one function each;
//   - attachments.go: reading the files of a message's content parts;
//   - main.go and handler.go: the HTTP server.
//
// Run it with
//
//	go run ./examples/agent -addr 127.0.0.1:8000 -delay-ms 5
//
// and point an Ananke target at http://127.0.0.1:8000/agent.
package main
