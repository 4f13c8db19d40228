package agui_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/agui"
	"github.com/ananke/action/internal/cost"
)

// FuzzDecode: any payload decodes without panicking; a payload that is not
// a JSON object with a type is always an error; a token count read from
// usage is never negative.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{started, finished, `{"type":"TOOL_CALL_RESULT","messageId":"m","toolCallId":"c","content":[{"type":"text","text":"x"}]}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"interrupt","interrupts":[{"id":"a","reason":"r"}]}}`, `[]`, `null`, `{"type":1}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"r","usage":[{"provider":"p","model":"m","inputTokens":3,"outputTokens":1,"totalTokens":4,"reasoningTokens":0,"cachedInputTokens":2,"cacheWriteInputTokens":1}]}`,
		`{"type":"RUN_ERROR","message":"m","usage":[1,{"inputTokens":-1,"model":2},{"outputTokens":1e3}]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ev, problems := agui.Decode(data)
		for _, u := range ev.Usage {
			for fld := range cost.CacheWrite + 1 {
				if n, ok := u.Tokens.Get(fld); ok && n < 0 {
					t.Fatalf("%s read as %d from %q", fld, n, data)
				}
			}
		}
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
