// Package replay records what an agent answered while a suite ran
// (ananke run --record DIR) and answers later runs from the recording
// (--replay DIR) without contacting the agent: each request is checked
// against the one recorded, like a cassette, and each response stream is
// given back byte for byte with its recorded timing, so verdicts —
// timing assertions included — are those of the recorded run, in
// milliseconds, anywhere.
//
// A recording directory holds:
//
//	index.json                 ananke.recording/v1: version, target, tests
//	tests/<stem>.json          one test's attempts and their exchanges
//	tests/<stem>.<a>.<x>.sse   the exact response stream of exchange x of attempt a
//
// index.json is written last: once it is there, the recording is complete.
package replay

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Schema names the recording format.
const Schema = "ananke.recording/v1"

// IndexFile is the recording's index.
const IndexFile = "index.json"

// Index is index.json.
type Index struct {
	Schema        string      `json:"schema"`
	AnankeVersion string      `json:"ananke_version"`
	RecordedAt    string      `json:"recorded_at"`
	Target        Target      `json:"target"`
	Tests         []TestEntry `json:"tests"`
}

// Target is what was recorded (masked as in every report).
type Target struct {
	Type     string `json:"type"`
	Endpoint string `json:"endpoint"`
	AgentID  string `json:"agent_id,omitempty"`
}

// TestEntry names one test's recording and the file that declared it.
type TestEntry struct {
	ID string `json:"id"`
	// File is the test's file as loaded, and FileSHA256 its content's hash
	// when recorded: a replay says when the file changed since.
	File       string `json:"file"`
	FileSHA256 string `json:"file_sha256,omitempty"`
	Recording  string `json:"recording"`
}

// TestFile is tests/<stem>.json.
type TestFile struct {
	Test     string         `json:"test"`
	Attempts []AttemptEntry `json:"attempts"`
}

// AttemptEntry is one attempt (run and retry) of a test.
type AttemptEntry struct {
	Run   int `json:"run"`
	Retry int `json:"retry"`
	// Clock is every time the attempt read its clock, in order, in
	// milliseconds since it started: [at_ms, n] is n readings in a row at
	// at_ms. A replay reads the same times (a recording without it moves
	// its clock by the exchanges' times alone).
	Clock     [][2]int64 `json:"clock,omitempty"`
	Exchanges []Exchange `json:"exchanges"`
}

// Exchange is one request and the agent's answer. Times are milliseconds
// since the attempt started.
type Exchange struct {
	AtMs int64 `json:"at_ms"`
	// Request is the body sent, masked.
	Request json.RawMessage `json:"request"`
	// Error is a failure to exchange at all (no response).
	Error       string `json:"error,omitempty"`
	Status      int    `json:"status,omitempty"`
	ContentType string `json:"content_type,omitempty"`
	// Stream is the response body's file (relative to the recording);
	// Chunks are [at_ms, bytes] as the body arrived; EndMs is when it
	// ended.
	Stream string     `json:"stream,omitempty"`
	Chunks [][2]int64 `json:"chunks,omitempty"`
	EndMs  int64      `json:"end_ms"`
}

// ReadIndex reads a recording's index.json.
func ReadIndex(dir string) (*Index, error) {
	var idx Index
	if err := readJSON(filepath.Join(dir, IndexFile), &idx); err != nil {
		if os.IsNotExist(err) {
			return nil, fmt.Errorf("%s is not a recording: it has no %s (ananke run --record %s makes one)", dir, IndexFile, dir)
		}
		return nil, err
	}
	if idx.Schema != Schema {
		return nil, fmt.Errorf("%s: schema %q, want %q", filepath.Join(dir, IndexFile), idx.Schema, Schema)
	}
	return &idx, nil
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	return nil
}
