package gateway

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Format is the first line's format of a recording file
// (docs/gateway.md, "Recordings").
const Format = "ananke.gateway/v1"

// A recording file holds one test's exchanges: JSON Lines, the first a
// header, each other one exchange, in the order the requests were made.
// It holds no header of any HTTP message, so no key, and no time.

// header is a recording file's first line.
type header struct {
	Format string `json:"format"`
	// Test is the test's id.
	Test string `json:"test"`
}

// Exchange is one request the gateway forwarded while recording and the
// upstream's answer.
type Exchange struct {
	// Attempt is the test's attempt it belongs to in the recording run
	// (1 for the first), Turn the turn's index then.
	Attempt int `json:"attempt"`
	Turn    int `json:"turn"`
	// Request is the request body, normalised (its fingerprint's form).
	Request json.RawMessage `json:"request"`
	// Status is the upstream's HTTP status, and RetryAfter its
	// Retry-After header, if any.
	Status     int    `json:"status"`
	RetryAfter string `json:"retry_after,omitempty"`
	// Stream says the answer was an event stream: Chunks are its data
	// payloads and Done says it ended with [DONE]. Otherwise Body is the
	// answer's body. A payload or body that is a JSON object or array is
	// kept as that value; anything else as a JSON string of its text.
	Stream bool              `json:"stream"`
	Chunks []json.RawMessage `json:"chunks,omitempty"`
	Done   bool              `json:"done,omitempty"`
	Body   json.RawMessage   `json:"body,omitempty"`
}

// keep is how a payload or body is kept: a JSON object or array as that
// value (compacted), anything else as a JSON string of its text.
func keep(data []byte) json.RawMessage {
	t := bytes.TrimSpace(data)
	if len(t) > 0 && (t[0] == '{' || t[0] == '[') && json.Valid(t) {
		var buf bytes.Buffer
		if json.Compact(&buf, t) == nil {
			return buf.Bytes()
		}
	}
	s, _ := json.Marshal(string(data))
	return s
}

// kept is the text keep kept: a string's text, or the value's JSON.
func kept(raw json.RawMessage) []byte {
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return []byte(s)
		}
	}
	return raw
}

// FileName is the recording file of a test: its id made safe for any
// file system (every character but letters, digits, '.', '-' and '_'
// becomes '_', at most 80 of them), then the start of the id's SHA-256,
// which keeps ids apart that differ only in what was replaced or in
// case.
func FileName(testID string) string {
	var b strings.Builder
	for _, r := range testID {
		if b.Len() >= 80 {
			break
		}
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		case r == '.' && b.Len() > 0:
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	sum := sha256.Sum256([]byte(testID))
	return b.String() + "." + hex.EncodeToString(sum[:4]) + ".jsonl"
}

// encodeRecording is a recording file's content.
func encodeRecording(testID string, exchanges []Exchange) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(header{Format: Format, Test: testID})
	for _, e := range exchanges {
		_ = enc.Encode(e)
	}
	return buf.Bytes()
}

// writeRecording writes a test's recording into dir, replacing the file
// whole: a run cut off leaves the old file or the new one.
func writeRecording(dir, testID string, exchanges []Exchange) error {
	path := filepath.Join(dir, FileName(testID))
	tmp, err := os.CreateTemp(dir, ".recording-*")
	if err != nil {
		return fmt.Errorf("write the recording of test %q: %w", testID, err)
	}
	err = tmp.Chmod(0o644)
	if err == nil {
		_, err = tmp.Write(encodeRecording(testID, exchanges))
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write the recording of test %q to %s: %w", testID, path, err)
	}
	return nil
}
