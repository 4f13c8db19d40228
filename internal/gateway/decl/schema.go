package decl

import (
	"github.com/ananke/action/internal/decode"
)

// ConfigSchema is the JSON Schema of the config's gateway:.
func ConfigSchema() decode.Obj {
	modes := make([]string, len(Modes))
	for i, m := range Modes {
		modes[i] = string(m)
	}
	o := decode.Object("The model gateway: an OpenAI-compatible endpoint the agent uses as its model's base URL, which forwards, records or replays its requests and injects faults (docs/gateway.md).", configFields, decode.Obj{
		"listen":        decode.Str("Address the gateway listens on, host:port (127.0.0.1:4391); ${ENV.X} allowed."),
		"upstream":      decode.Str("The real model's base URL (https://api.openai.com/v1); required unless mode is replay."),
		"api_key":       decode.Str("The upstream's API key, e.g. ${ENV.OPENAI_API_KEY}; sent as a bearer token, never recorded, masked in every output. Without it the agent's own Authorization is forwarded."),
		"mode":          decode.Obj{"enum": modes, "description": "passthrough (default): forward; record: forward and keep per test; replay: answer from the recordings. ananke run --gateway overrides it."},
		"recordings":    decode.Str("Directory of the recordings, one file per test, relative to the config (default " + DefaultRecordings + ")."),
		"ignore":        decode.OneOrMany(decode.Obj{"type": "string", "description": "A request field the replay fingerprint leaves out: a name or a dotted path (metadata, messages.name)."}),
		"timeout_ms":    decode.Positive("Bound on one upstream exchange, streamed answer included, and on a timeout fault's hold (default 300000)."),
		"include_usage": decode.Bool("true (default): a streamed request that does not set stream_options.include_usage is forwarded with it set, so that the stream's last chunk reports the usage; false: forwarded as the agent sent it."),
	}, "listen")
	o["if"] = decode.Obj{"properties": decode.Obj{"mode": decode.Obj{"const": string(Replay)}}, "required": []string{"mode"}}
	o["else"] = decode.Obj{"required": []string{"upstream"}}
	return o
}

// TestSchema is the JSON Schema of a test file's gateway:.
func TestSchema() decode.Obj {
	status := decode.Obj{"type": "integer", "minimum": 400, "maximum": 599, "description": "Answer with this HTTP error status (429, 500, 503, …)."}
	fault := decode.Object("A fault answered instead of the model.", faultFields, decode.Obj{
		"turn":        decode.Obj{"type": "integer", "minimum": 0, "description": "The turn's index (0 for the first): call counts that turn's model calls only."},
		"call":        decode.Positive("Which model call of the attempt (of the turn, with turn), 1 for the first."),
		"status":      status,
		"retry_after": decode.Obj{"type": "integer", "minimum": 0, "description": "With status: the Retry-After header, in seconds."},
		"fault":       decode.Obj{"enum": FaultKinds, "description": "timeout: hold the request until the agent gives up; truncate: cut the answer part-way; drop: close the connection."},
	}, "call")
	fault["oneOf"] = []any{decode.Obj{"required": []string{"status"}}, decode.Obj{"required": []string{"fault"}}}
	fault["dependentRequired"] = decode.Obj{"retry_after": []string{"status"}}
	return decode.Object("What the model gateway does for this test (docs/gateway.md).", testFields, decode.Obj{
		"faults": decode.List(fault, "Faults injected by call number, to test the agent's own retries."),
	})
}
