package a2a

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
)

// TestSnapshotsNotRepeated plays two turns of one task where each answer
// is a whole task snapshot repeating the earlier turn's history, status
// message and artifact: each is recorded once, in the turn it came.
func TestSnapshotsNotRepeated(t *testing.T) {
	turn := 0
	f := newFake(t, false, func(w http.ResponseWriter, _ *http.Request, _ string, params, id json.RawMessage) {
		turn++
		var p struct {
			Message struct {
				ID     string `json:"messageId"`
				TaskID string `json:"taskId"`
			} `json:"message"`
		}
		json.Unmarshal(params, &p)
		if turn == 1 {
			result(w, id, `{"task":{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_INPUT_REQUIRED",
				"message":{"messageId":"q","role":"ROLE_AGENT","parts":[{"text":"How many?"}]}},
				"history":[{"messageId":"`+p.Message.ID+`","role":"ROLE_USER","parts":[{"text":"book"}]},
				{"messageId":"w","role":"ROLE_AGENT","parts":[{"text":"Looking…"},
				{"data":{"id":"c1","name":"find_table","args":{}},"metadata":{"adk_type":"function_call"}}]},
				{"messageId":"q","role":"ROLE_AGENT","parts":[{"text":"How many?"}]}],
				"artifacts":[{"artifactId":"a","parts":[{"text":"draft"}]}]}}`)
			return
		}
		if p.Message.TaskID != "t1" {
			rpcErr(w, id, -32602, "want task t1, got "+p.Message.TaskID)
			return
		}
		result(w, id, `{"task":{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"},
			"history":[{"messageId":"w","role":"ROLE_AGENT","parts":[{"text":"Looking…"},
			{"data":{"id":"c1","name":"find_table","args":{}},"metadata":{"adk_type":"function_call"}}]},
			{"messageId":"q","role":"ROLE_AGENT","parts":[{"text":"How many?"}]},
			{"messageId":"`+p.Message.ID+`","role":"ROLE_USER","parts":[{"text":"4"}]},
			{"messageId":"r","role":"ROLE_AGENT","parts":[
			{"data":{"id":"c1","name":"find_table","response":{"ok":true}},"metadata":{"adk_type":"function_response"}}]}],
			"artifacts":[{"artifactId":"a","parts":[{"text":"draft, final"}]}]}}`)
	})
	s, err := Dial(t.Context(), Options{CardURL: f.srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := s.Source().Capabilities; !slices.Equal(got, []string{capability.LiveRun}) {
		t.Errorf("capabilities before any call %v; want live run only", got)
	}
	rec := trace.NewRecorder()
	for i, text := range []string{"book", "4"} {
		rec.StartTurn(i, target.TurnUser, text, time.Now())
		if err := s.Turn(t.Context(), target.Turn{Index: i, Type: target.TurnUser, Text: text}, rec); err != nil {
			t.Fatalf("turn %d: %v", i, err)
		}
		rec.EndTurn(time.Now(), nil)
	}
	turns := rec.Trace().Turns
	if got := turns[0].Texts; !slices.Equal(got, []string{"Looking…", "How many?", "draft"}) {
		t.Errorf("turn 0 texts %q", got)
	}
	if got := turns[1].Texts; !slices.Equal(got, []string{", final"}) {
		t.Errorf("turn 1 texts %q; want only the artifact's new text", got)
	}
	if n := len(turns[0].ToolCalls); n != 1 || turns[0].ToolCalls[0].Result != nil {
		t.Errorf("turn 0 calls %+v; want find_table without a result", turns[0].ToolCalls)
	}
	if n := len(turns[1].ToolCalls); n != 0 {
		t.Errorf("turn 1 calls %+v; want none (the call was turn 0's)", turns[1].ToolCalls)
	}
	if got := s.Source().Capabilities; !slices.Equal(got, []string{capability.LiveRun}) {
		t.Errorf("capabilities after a call, without Options.ToolTrace: %v", got)
	}
	s.opts.ToolTrace = true
	if got := s.Source().Capabilities; !slices.Equal(got, []string{capability.ToolTrace, capability.LiveRun}) {
		t.Errorf("capabilities with Options.ToolTrace: %v", got)
	}
}
