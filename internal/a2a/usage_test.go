package a2a

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
)

// TestUsageOf: the metadata keys and fields read, and what is not.
func TestUsageOf(t *testing.T) {
	for _, c := range []struct {
		name, meta string
		want       string // the usage as JSON; "" when none
	}{
		{"ADK's usage metadata", `{"adk_app_name":"a","adk_usage_metadata":{"promptTokenCount":120,"candidatesTokenCount":30,"totalTokenCount":150,"cachedContentTokenCount":100}}`,
			`{"tokens":{"input_tokens":120,"output_tokens":30,"total_tokens":150,"cached_input_tokens":100}}`},
		{"thoughts are output, tool-use prompts input", `{"adk_usage_metadata":{"promptTokenCount":10,"toolUsePromptTokenCount":5,"candidatesTokenCount":3,"thoughtsTokenCount":7,"totalTokenCount":25}}`,
			`{"tokens":{"input_tokens":15,"output_tokens":10,"total_tokens":25,"reasoning_tokens":7}}`},
		{"as JSON text", `{"adk_usage_metadata":"{\"promptTokenCount\":4,\"candidatesTokenCount\":2}"}`,
			`{"tokens":{"input_tokens":4,"output_tokens":2,"total_tokens":6}}`},
		{"kagent's prefix", `{"kagent_usage_metadata":{"promptTokenCount":415,"candidatesTokenCount":15,"totalTokenCount":430}}`,
			`{"tokens":{"input_tokens":415,"output_tokens":15,"total_tokens":430}}`},
		{"a usage total in OpenAI's names", `{"usage":{"prompt_tokens":156,"completion_tokens":89,"total_tokens":245,"prompt_tokens_details":{"cached_tokens":6},"completion_tokens_details":{"reasoning_tokens":9}}}`,
			`{"tokens":{"input_tokens":156,"output_tokens":89,"total_tokens":245,"reasoning_tokens":9,"cached_input_tokens":6}}`},
		{"a usage total naming its model", `{"usage":{"input_tokens":7,"output_tokens":3,"model":"gpt-4o-mini","provider":"openai"}}`,
			`{"provider":"openai","model":"gpt-4o-mini","tokens":{"input_tokens":7,"output_tokens":3,"total_tokens":10}}`},
		{"the AI SDK's names", `{"usage":{"inputTokens":7,"outputTokens":3,"totalTokens":11}}`,
			`{"tokens":{"input_tokens":7,"output_tokens":3,"total_tokens":11}}`},
		{"absent counts stay unknown", `{"adk_usage_metadata":{"candidatesTokenCount":3}}`, `{"tokens":{"output_tokens":3}}`},
		{"counts that are no counts", `{"adk_usage_metadata":{"promptTokenCount":-1,"candidatesTokenCount":2.5,"totalTokenCount":"x"}}`, ``},
		{"no usage", `{"adk_app_name":"a","usage":"lots"}`, ``},
		{"no metadata", `null`, ``},
	} {
		t.Run(c.name, func(t *testing.T) {
			var meta map[string]any
			if err := json.Unmarshal([]byte(c.meta), &meta); err != nil {
				t.Fatal(err)
			}
			got := ""
			if u, ok := usageOf(meta); ok {
				b, _ := json.Marshal(u)
				got = string(b)
			}
			if got != c.want {
				t.Errorf("usage %s; want %s", got, c.want)
			}
		})
	}
}

// adkUsage is ADK's usage metadata of a call of n prompt tokens and m
// candidates.
func adkUsage(n, m int) string {
	b, _ := json.Marshal(map[string]any{"adk_usage_metadata": map[string]int{"promptTokenCount": n, "candidatesTokenCount": m, "totalTokenCount": n + m}})
	return string(b)
}

// TestTurnUsage plays three turns against an agent that reports usage the
// ways ADK's A2A servers do: a status update's metadata, its message's, a
// streamed artifact's (whose chunks each carry the usage so far: the last
// counts), a task's own metadata (a copy of the last event's, not counted
// beside them). Each report counts once, in the turn that first saw it; a
// task snapshot repeating an earlier turn's messages adds nothing; a turn
// whose answer reports nothing has no usage.
func TestTurnUsage(t *testing.T) {
	turn := 0
	f := newFake(t, true, func(w http.ResponseWriter, _ *http.Request, method string, _, id json.RawMessage) {
		turn++
		switch turn {
		case 1:
			sse(w, id,
				`{"statusUpdate":{"taskId":"t1","contextId":"c1","status":{"state":"TASK_STATE_WORKING"},"metadata":`+adkUsage(100, 10)+`}}`,
				`{"artifactUpdate":{"taskId":"t1","contextId":"c1","artifact":{"artifactId":"a1","parts":[{"text":"par"}],"metadata":`+adkUsage(200, 1)+`}}}`,
				`{"artifactUpdate":{"taskId":"t1","contextId":"c1","append":true,"artifact":{"artifactId":"a1","parts":[{"text":"tial"}],"metadata":`+adkUsage(200, 5)+`}}}`,
				`{"artifactUpdate":{"taskId":"t1","contextId":"c1","lastChunk":true,"artifact":{"artifactId":"a1","parts":[{"text":"partial"}],"metadata":`+adkUsage(200, 20)+`}}}`,
				`{"statusUpdate":{"taskId":"t1","contextId":"c1","status":{"state":"TASK_STATE_INPUT_REQUIRED","message":{"messageId":"q","role":"ROLE_AGENT","parts":[{"text":"How many?"}],"metadata":`+adkUsage(300, 30)+`}}}}`,
				`{"task":{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_INPUT_REQUIRED"},"metadata":`+adkUsage(300, 30)+`}}`)
		case 2:
			// The task again, with the question of turn 1 in its history,
			// and its total in OpenAI's names: the only report of this turn.
			sse(w, id, `{"task":{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"},"metadata":{"usage":{"prompt_tokens":50,"completion_tokens":5}},`+
				`"history":[{"messageId":"q","role":"ROLE_AGENT","parts":[{"text":"How many?"}],"metadata":`+adkUsage(300, 30)+`},`+
				`{"messageId":"d","role":"ROLE_AGENT","parts":[{"text":"Done."}]}]}}`)
		default:
			sse(w, id, answer)
		}
	})
	s, err := Dial(t.Context(), Options{CardURL: f.srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rec := trace.NewRecorder()
	at := time.UnixMilli(0)
	for i, text := range []string{"book", "4", "thanks"} {
		rec.StartTurn(i, target.TurnUser, text, at)
		if err := s.Turn(t.Context(), target.Turn{Index: i, Type: target.TurnUser, Text: text}, rec); err != nil {
			t.Fatalf("turn %d: %v", i, err)
		}
		rec.EndTurn(at, nil)
	}
	for i, want := range []string{
		// 100+200+300 in, 10+20+30 out: the status update, the artifact's
		// last chunk, the question.
		`{"tokens":{"input_tokens":600,"output_tokens":60,"total_tokens":660},"models":[{"tokens":{"input_tokens":600,"output_tokens":60,"total_tokens":660}}],"reported":3}`,
		`{"tokens":{"input_tokens":50,"output_tokens":5,"total_tokens":55},"models":[{"tokens":{"input_tokens":50,"output_tokens":5,"total_tokens":55}}],"reported":1}`,
		`null`,
	} {
		if got, _ := json.Marshal(rec.Trace().Turns[i].Usage); string(got) != want {
			t.Errorf("turn %d: usage\n%s\nwant\n%s", i, got, want)
		}
	}
}

// FuzzUsageOf: any metadata reads without panicking, and a count read is
// never negative.
func FuzzUsageOf(f *testing.F) {
	for _, s := range []string{
		adkUsage(3, 4),
		`{"adk_usage_metadata":"{\"promptTokenCount\":1e400}","usage":{"prompt_tokens":1}}`,
		`{"kagent_usage_metadata":{"thoughtsTokenCount":2,"toolUsePromptTokenCount":-1}}`,
		`{"usage":{"prompt_tokens":"12","completion_tokens_details":{"reasoning_tokens":1},"model":5}}`,
		`{"usage":[1]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var meta map[string]any
		if json.Unmarshal(data, &meta) != nil {
			return
		}
		u, _ := usageOf(meta)
		for fld := range cost.CacheWrite + 1 {
			if n, ok := u.Tokens.Get(fld); ok && n < 0 {
				t.Fatalf("%s %d from %s", fld, n, data)
			}
		}
	})
}
