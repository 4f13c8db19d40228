package normalized

import (
	"encoding/json"
	"io"
)

// Write writes a normalized trace as indented JSON, without HTML
// escaping, so that text reads as the agent sent it.
func Write(w io.Writer, t Trace) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(t)
}
