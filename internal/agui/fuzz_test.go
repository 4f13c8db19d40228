package agui_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/agui"
)

// FuzzDecode: any payload decodes without panicking; a payload that is not
// a JSON object with a type is always an error.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{started, finished, `{"type":"TOOL_CALL_RESULT","messageId":"m","toolCallId":"c","content":[{"type":"text","text":"x"}]}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"interrupt","interrupts":[{"id":"a","reason":"r"}]}}`, `[]`, `null`, `{"type":1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ev, problems := agui.Decode(data)
		if ev.Type == "" {
			for _, p := range problems {
				if p.Severity == agui.Error {
					return
				}
			}
			t.Fatalf("no type and no error for %q", data)
		}
	})
}

// FuzzReadStream: any body — decoding, chunk expansion, verification and
// the reducer together — is consumed without panicking, and a body without
// a terminal event never reads as a success.
func FuzzReadStream(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "streams", "*.sse"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		res, err := (&agui.Client{MaxEventSize: 1 << 16}).ReadStream(context.Background(), strings.NewReader(string(body)), agui.RunAgentInput{ThreadID: "t1", RunID: "r1"}, nil)
		if err != nil {
			return
		}
		if !strings.Contains(string(body), "RUN_FINISHED") && !strings.Contains(string(body), "RUN_ERROR") && !res.Failed() {
			t.Fatalf("a body without a terminal event passed: %q", body)
		}
	})
}
