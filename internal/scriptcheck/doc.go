// Package scriptcheck evaluates script assertions: a command the user
// wrote, given the scope's transcript as JSON on stdin, whose exit status
// is the verdict.
//
//	assert:
//	  script: {cmd: ["./check.sh", "refund"], timeout_ms: 30000}
//
// Exit status 0 passes; 1 fails, with what the script printed on stdout
// as the message; anything else — another status, a command that could
// not start, ran past its timeout or was killed — is an error: the check
// could not be made, and the message says why, ending with the script's
// stderr. The command runs in the directory of the file that declares it,
// in its own process group, as hooks do (package hooks).
//
// # Transcript
//
// Transcript builds the stdin document, schema "ananke.transcript/v1".
// Its shape is stable: fields are never removed or renamed within v1,
// lists are [] when empty, never null, and absent values are null.
//
//	{
//	  "schema": "ananke.transcript/v1",
//	  "test": {"id": "tests/refund", "name": "refund a late order"},
//	  "scope": "turn[0]",            // or "test"
//	  "history": [{"role": "user", "content": "..."}],
//	  "turns": [{
//	    "index": 0,
//	    "type": "user",              // "user", "simulated", "agui:connect" or "resume"
//	    "user": "Refund order 42",   // the user's message ("" for agui:connect)
//	    "attachments": [{"name": "receipt.png", "mime_type": "image/png", "bytes": 2150}],
//	    "text": "Done: refunded.",   // the agent's text messages joined by "\n"
//	    "tool_calls": [<call>, ...],
//	    "run_errors": [{"message": "...", "code": "..."}],
//	    "state": {...} | null,       // the agent state after the turn
//	    "duration_ms": 840
//	  }],
//	  "text": "...",                 // every turn's text, joined by "\n"
//	  "tool_calls": [<call>, ...],   // every call of the scope, in order
//	  "state": {...} | null          // the state after the scope's last turn
//	}
//
// where a <call> is
//
//	{
//	  "id": "c1", "name": "refund", "turn": 0,
//	  "args": {"order": 42},         // parsed JSON; the raw string when not JSON
//	  "result": {"ok": true},        // parsed JSON; the string when not JSON; null: no result
//	  "error": "..." | null,         // the failure the tool message reported
//	  "client": false,               // a client tool Ananke answered
//	  "duration_ms": 120             // from the call's start until its result
//	}
//
// "history" is what the test placed before its first turn, the same in
// every scope; a turn scope's "turns" holds that one turn.
package scriptcheck
