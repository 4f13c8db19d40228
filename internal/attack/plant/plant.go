// Package plant says where an attack's payload goes and plants it: the one
// thing the places that resolve a test's data — the engine's turns and
// history, a target's client tools and state, the tool doubles — need of an
// attack run (docs/attacks.md). It imports nothing of Ananke, so every one
// of them may.
package plant

import (
	"encoding/json"
	"slices"
)

// Channel is a way an attack's payload reaches the agent.
type Channel string

// The channels, in the order docs/attacks.md gives them.
const (
	// ToolResult is a client tool's result (result, result_file or a
	// results entry), as Ananke answers the call; Site is the tool's name.
	ToolResult Channel = "tool_result"
	// Double is a tool double's result; Site is the tool's name.
	Double Channel = "double"
	// Attachment is the text of a file the test attaches (a text MIME type);
	// Site is the file's name.
	Attachment Channel = "attachment"
	// History is one message of the test's history; Site is its index.
	History Channel = "history"
	// State is the agent state the target sends; Site is "state".
	State Channel = "state"
	// Simulator is the simulated user's first message; Site is "".
	Simulator Channel = "simulator"
	// User is the first user turn's message (direct injection); Site is "".
	User Channel = "user"
)

// Channels lists every channel.
var Channels = []Channel{ToolResult, Double, Attachment, History, State, Simulator, User}

// Known reports whether c is a channel.
func Known(c Channel) bool { return slices.Contains(Channels, c) }

// Plant is one attack's payload and the place it is planted.
type Plant struct {
	Channel Channel
	// Site names the place within the channel (see each Channel).
	Site string
	// Payload is the text planted, its canary in it.
	Payload string
}

// At reports whether p plants into site of channel c; false for a nil p.
func (p *Plant) At(c Channel, site string) bool {
	return p != nil && p.Channel == c && p.Site == site
}

// Separator is what comes between the original text and the payload.
const Separator = "\n\n"

// Text is s with the payload planted when p plants at (c, site): appended
// after a blank line, as text found further down a document is. Otherwise
// s as is.
func (p *Plant) Text(c Channel, site, s string) string {
	if !p.At(c, site) {
		return s
	}
	if s == "" {
		return p.Payload
	}
	return s + Separator + p.Payload
}

// JSON is the JSON value js with the payload planted when p plants at (c,
// site), else js as is (see Into).
func (p *Plant) JSON(c Channel, site string, js json.RawMessage) json.RawMessage {
	if !p.At(c, site) {
		return js
	}
	return Into(js, p.Payload)
}

// NoteKey is the key an object with no text gets the payload under.
const NoteKey = "note"

// Into plants payload into the JSON value js, where a reader of the data
// would meet it: appended to its longest string (the free text of a
// record: a description, a body), the first of equal length in key order
// (an object's keys sorted, as the result writes them); an object with no string gets a "note" member (or "note_2", …
// when taken), an array with none a new last element, and any other
// value, or text that is not JSON, becomes a string: its text, a blank
// line, the payload. The result is always valid JSON.
func Into(js json.RawMessage, payload string) json.RawMessage {
	var v any
	d := json.NewDecoder(bytesReader(js))
	d.UseNumber()
	if err := d.Decode(&v); err != nil || d.More() {
		return quote(joinText(string(js), payload))
	}
	if s, ok := v.(string); ok {
		return quote(joinText(s, payload))
	}
	if path := longest(v, nil, &best{}); path != nil {
		v = setAt(v, path.at, joinText(path.s, payload))
	} else {
		switch x := v.(type) {
		case map[string]any:
			key := NoteKey
			for i := 2; taken(x, key); i++ {
				key = NoteKey + "_" + itoa(i)
			}
			x[key] = payload
		case []any:
			v = append(x, payload)
		default:
			return quote(joinText(string(js), payload))
		}
	}
	out, err := marshal(v)
	if err != nil {
		return quote(joinText(string(js), payload))
	}
	return out
}

func joinText(s, payload string) string {
	if s == "" {
		return payload
	}
	return s + Separator + payload
}

func taken(m map[string]any, key string) bool {
	_, ok := m[key]
	return ok
}
