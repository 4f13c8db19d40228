package oaiwire

import (
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// MaxDetail caps how much of a server's error message ErrorMessage keeps:
// enough for any real message, not a whole HTML error page.
const MaxDetail = 300

// ErrorMessage finds the server's explanation in an error body: the
// OpenAI error object's message ({"error": {"message": "…"}}), Ollama's
// {"error": "…"}, vLLM's {"message": "…"} or FastAPI's {"detail": "…"},
// else the start of the body text; at most MaxDetail characters.
func ErrorMessage(body []byte) string {
	if len(body) > 64<<10 {
		body = body[:64<<10]
	}
	var shapes struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(body, &shapes) == nil {
		var object struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(shapes.Error, &object) == nil && object.Message != "" {
			return Truncate(object.Message)
		}
		for _, raw := range []json.RawMessage{shapes.Error, shapes.Detail} {
			var s string
			if json.Unmarshal(raw, &s) == nil && s != "" {
				return Truncate(s)
			}
		}
		if shapes.Message != "" {
			return Truncate(shapes.Message)
		}
	}
	return Truncate(strings.Join(strings.Fields(string(body)), " "))
}

// Truncate trims s and cuts it to MaxDetail characters, marking the cut
// with "…".
func Truncate(s string) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= MaxDetail {
		return s
	}
	r := []rune(s)
	return string(r[:MaxDetail]) + "…"
}
