package gateway

import (
	"bytes"
	"net/http"
)

// done is the data of the event that ends an OpenAI-compatible stream.
const done = "[DONE]"

// startStream sends an event stream's headers.
func startStream(w http.ResponseWriter, status int) {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	w.WriteHeader(status)
	flush(w)
}

// writeEvent sends one event whose data is data (a line of its own for
// each of its lines) and flushes it: the agent gets each chunk as it
// comes.
func writeEvent(w http.ResponseWriter, data []byte) error {
	var buf bytes.Buffer
	for line := range bytes.SplitSeq(data, []byte("\n")) {
		buf.WriteString("data: ")
		buf.Write(line)
		buf.WriteByte('\n')
	}
	buf.WriteByte('\n')
	if _, err := w.Write(buf.Bytes()); err != nil {
		return err
	}
	return flush(w)
}

// flush sends what is buffered; a writer that cannot flush sends it at
// the end.
func flush(w http.ResponseWriter) error {
	err := http.NewResponseController(w).Flush()
	if err == http.ErrNotSupported {
		return nil
	}
	return err
}
