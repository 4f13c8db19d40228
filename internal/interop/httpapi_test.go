//go:build unix

package interop

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/interop/peer"
	"github.com/ananke/action/internal/replay"
)

// TestHTTPAPI runs the http target against json-api.mjs, a team's own
// JSON API in plain Node that keeps a conversation per session: the
// http-api suite, its answers whole and streamed. A three-turn test passes
// only when the session id of turn 0's response is carried to the next
// turns, its tool calls read from each response; the failing tests fail
// where they are written to; and a config whose reply path matches no
// response errors every test with a message naming the path. Each run is
// recorded, and replayed with the API stopped to the same verdicts.
func TestHTTPAPI(t *testing.T) {
	dir := peer.Dir()
	bin := buildAnanke(t)
	api := peer.MustStart(t, dir, nil, lookNode(t), "json-api.mjs", "--port", "0")
	env := []string{"JSON_API_URL=" + api.URL}
	runs := []targetRun{httpRun("http-api", "ananke.config.yaml"), httpRun("http-api stream", "stream.config.yaml"), {
		name: "http-api path that matches nothing", config: "http-api/broken.config.yaml", paths: []string{"http-api/pass"}, wantExit: 2,
		tests: map[string]want{"pass/three-turns": {status: "error", reason: "$.answer"}},
		// The error shows an excerpt of the response read.
		reasons: map[string][]string{"pass/three-turns": {`"session_id"`}},
	}}
	recordReplay(t, bin, env, runs, func(t *testing.T) { stopPeer(t, api) }, checkHTTPRecording)
}

// httpRun is the http-api suite with one of its configs.
func httpRun(name, config string) targetRun {
	return targetRun{
		name: name, config: filepath.Join("http-api", config), paths: []string{"http-api"}, wantExit: 1,
		tests: map[string]want{
			"pass/three-turns": {status: "pass"},
			"fail/wrong-city": {status: "fail", fails: []failure{
				{"turn[1].tools.require[0]", "args_match.city: \"Lyon\" does not match `^Paris$`"}}},
			"fail/agent-error": {status: "fail", fails: []failure{
				{"turn[0].run_error", "the scripted agent failed"}}},
		},
		at: map[string]yamlAt{"fail/wrong-city": {"turn[1].tools.require[0]", `args_match: { city: "^Paris$" }`}},
		// json-api.mjs reports 10 + 10n input and 8 output tokens at a
		// session's n-th turn.
		tokens: map[string][][3]int64{
			"pass/three-turns": {{20, 8, 28}, {30, 8, 38}, {40, 8, 48}},
			"fail/wrong-city":  {{20, 8, 28}, {30, 8, 38}},
			"fail/agent-error": {{20, 8, 28}},
		},
	}
}

// checkHTTPRecording reads the requests a run sent, as recorded: each
// test's first names no session and every later one the session the first
// response opened, with the turn's message and the conversation so far.
func checkHTTPRecording(t *testing.T, r targetRun, rec string) {
	t.Helper()
	if r.wantExit == 2 {
		return // no turn got past its first response
	}
	idx, err := replay.ReadIndex(rec)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range idx.Tests {
		var tf replay.TestFile
		b, err := os.ReadFile(filepath.Join(rec, e.Recording))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &tf); err != nil {
			t.Fatalf("%s: %v", e.Recording, err)
		}
		if len(tf.Attempts) != 1 {
			t.Fatalf("%s: %d attempts, want 1", e.ID, len(tf.Attempts))
		}
		session := ""
		for i, x := range tf.Attempts[0].Exchanges {
			var req struct {
				Session string `json:"session"`
				Message string `json:"message"`
				History []struct {
					Role    string `json:"role"`
					Content string `json:"content"`
				} `json:"history"`
			}
			if err := json.Unmarshal(x.Request, &req); err != nil {
				t.Fatalf("%s: request %d: %v", e.ID, i, err)
			}
			if req.Session != session || req.Message == "" {
				t.Errorf("%s: request %d: session %q, message %q; want session %q and the turn's message", e.ID, i, req.Session, req.Message, session)
			}
			if i == 0 {
				session = sessionOf(t, filepath.Join(rec, x.Stream))
			}
		}
		if session == "" {
			t.Errorf("%s: no response opened a session", e.ID)
		}
	}
}

// sessionOf is the session id in a recorded response: the JSON object's,
// or the streamed events'.
func sessionOf(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var resp struct {
		SessionID string `json:"session_id"`
	}
	if json.Unmarshal(b, &resp) == nil {
		return resp.SessionID
	}
	for _, line := range strings.Split(string(b), "\n") {
		if data, ok := strings.CutPrefix(line, "data: "); ok && json.Unmarshal([]byte(data), &resp) == nil && resp.SessionID != "" {
			return resp.SessionID
		}
	}
	return ""
}
