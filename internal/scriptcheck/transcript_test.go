package scriptcheck

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/ananke/action/internal/trace"
)

// scopeWith is a one-turn scope in which the agent called tool name.
func scopeWith(name string) trace.Scope {
	tr := &trace.Trace{Turns: []trace.Turn{{
		Index: 0, Kind: "user", UserText: "Refund order 42",
		ToolCalls: []trace.ToolCall{{ID: "c1", Name: name, Args: `{"order":42}`, ArgsJSON: true}},
		Texts:     []string{"Done."},
	}}}
	return tr.TurnScope(0)
}

// sample is a two-turn trace with every kind of tool call.
func sample() *trace.Trace {
	return &trace.Trace{
		History: []trace.Message{{Role: "user", Content: "I ordered twice"}, {Role: "assistant", Content: "Which order?"}},
		Turns: []trace.Turn{
			{
				Index: 0, Kind: "user", UserText: "Find order 42", StartMs: 1000, EndMs: 1800,
				ToolCalls: []trace.ToolCall{
					{ID: "c1", Name: "search", Turn: 0, Args: `{"q": "42"}`, ArgsJSON: true,
						Result: &trace.Result{Content: `{"found": true}`, JSON: true}, StartedMs: 1100, TimestampMs: 1250},
					{ID: "c2", Name: "note", Turn: 0, Args: `{"text": "<b>`, ArgsJSON: false,
						Result: &trace.Result{Content: "saved & done"}, StartedMs: 1300, TimestampMs: 1300},
				},
				Texts: []string{"Found it.", "Shall I refund?"},
				State: json.RawMessage(`{"stage": "found"}`),
			},
			{
				Index: 1, Kind: trace.KindSimulated, UserText: "Yes", StartMs: 2000, EndMs: 2500,
				ToolCalls: []trace.ToolCall{
					{ID: "c3", Name: "refund", Turn: 1, Args: `{"order": 42}`, ArgsJSON: true,
						Result: &trace.Result{Content: "card declined", Error: "card declined"}, StartedMs: 2100, TimestampMs: 2400},
					{ID: "c4", Name: "confirm", Turn: 1, Args: `{}`, ArgsJSON: true, Client: true, StartedMs: 2450},
				},
				RunErrors: []trace.RunError{{Message: "upstream timeout", Code: "TIMEOUT", Seq: 9}},
			},
		},
	}
}

// decode unmarshals a transcript, failing the test when it is not one
// JSON document followed by a newline.
func decode(t *testing.T, b []byte) map[string]any {
	t.Helper()
	if !strings.HasSuffix(string(b), "}\n") {
		t.Errorf("transcript ends %q, want one JSON object and a newline", b[max(0, len(b)-10):])
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("transcript is not JSON: %v\n%s", err, b)
	}
	return doc
}

// An empty scope shows the exact shape: every key, in order, with [] for
// lists and null for the state.
func TestTranscriptEmptyScope(t *testing.T) {
	got := string(Transcript(TestInfo{ID: "tests/empty", Name: "empty"}, (&trace.Trace{}).TestScope()))
	want := `{"schema":"ananke.transcript/v1","test":{"id":"tests/empty","name":"empty"},"scope":"test",` +
		`"history":[],"turns":[],"text":"","tool_calls":[],"state":null}` + "\n"
	if got != want {
		t.Errorf("Transcript =\n%s\nwant\n%s", got, want)
	}
}

func TestTranscriptTurnShape(t *testing.T) {
	got := string(Transcript(TestInfo{ID: "t"}, scopeWith("refund")))
	want := `"turns":[{"index":0,"type":"user","user":"Refund order 42","attachments":[],"text":"Done.",` +
		`"tool_calls":[{"id":"c1","name":"refund","turn":0,"args":{"order":42},"result":null,"error":null,"client":false,"duration_ms":0}],` +
		`"run_errors":[],"state":null,"duration_ms":0}]`
	if !strings.Contains(got, want) {
		t.Errorf("Transcript =\n%s\nwant it to contain\n%s", got, want)
	}
}

func TestTranscript(t *testing.T) {
	tr := sample()
	test := TestInfo{ID: "tests/refund", Name: "refund a late order"}
	tests := []struct {
		name      string
		scope     trace.Scope
		want      map[string]any // top-level fields
		wantTurns int
		wantCalls []map[string]any
	}{
		{
			name:  "turn scope",
			scope: tr.TurnScope(0),
			want: map[string]any{
				"schema": Schema, "scope": "turn[0]",
				"test":    map[string]any{"id": "tests/refund", "name": "refund a late order"},
				"history": []any{map[string]any{"role": "user", "content": "I ordered twice"}, map[string]any{"role": "assistant", "content": "Which order?"}},
				"text":    "Found it.\nShall I refund?",
				"state":   map[string]any{"stage": "found"},
			},
			wantTurns: 1,
			wantCalls: []map[string]any{
				{"id": "c1", "name": "search", "turn": 0.0, "args": map[string]any{"q": "42"}, "result": map[string]any{"found": true}, "error": nil, "client": false, "duration_ms": 150.0},
				{"id": "c2", "name": "note", "turn": 0.0, "args": `{"text": "<b>`, "result": "saved & done", "error": nil, "client": false, "duration_ms": 0.0},
			},
		},
		{
			name:  "test scope",
			scope: tr.TestScope(),
			want: map[string]any{
				"schema": Schema, "scope": "test",
				"text":  "Found it.\nShall I refund?",
				"state": nil, // the last turn reported none
			},
			wantTurns: 2,
			wantCalls: []map[string]any{
				{"id": "c1"}, {"id": "c2"},
				{"id": "c3", "name": "refund", "turn": 1.0, "args": map[string]any{"order": 42.0}, "result": "card declined", "error": "card declined", "client": false, "duration_ms": 300.0},
				{"id": "c4", "name": "confirm", "turn": 1.0, "args": map[string]any{}, "result": nil, "error": nil, "client": true, "duration_ms": 0.0},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc := decode(t, Transcript(test, tc.scope))
			for k, want := range tc.want {
				if !reflect.DeepEqual(doc[k], want) {
					t.Errorf("%s = %#v, want %#v", k, doc[k], want)
				}
			}
			turns, _ := doc["turns"].([]any)
			if len(turns) != tc.wantTurns {
				t.Fatalf("%d turns, want %d", len(turns), tc.wantTurns)
			}
			var perTurn []any
			for _, tu := range turns {
				perTurn = append(perTurn, tu.(map[string]any)["tool_calls"].([]any)...)
			}
			calls, _ := doc["tool_calls"].([]any)
			if !reflect.DeepEqual(calls, perTurn) {
				t.Errorf("tool_calls = %v, want the turns' calls in order %v", calls, perTurn)
			}
			if len(calls) != len(tc.wantCalls) {
				t.Fatalf("%d tool calls, want %d", len(calls), len(tc.wantCalls))
			}
			for i, want := range tc.wantCalls {
				got := calls[i].(map[string]any)
				for k, v := range want {
					if !reflect.DeepEqual(got[k], v) {
						t.Errorf("tool_calls[%d].%s = %#v, want %#v", i, k, got[k], v)
					}
				}
			}
		})
	}
}

func TestTranscriptTurns(t *testing.T) {
	doc := decode(t, Transcript(TestInfo{}, sample().TestScope()))
	turns := doc["turns"].([]any)
	want := []map[string]any{
		{"index": 0.0, "type": "user", "user": "Find order 42", "text": "Found it.\nShall I refund?",
			"run_errors": []any{}, "state": map[string]any{"stage": "found"}, "duration_ms": 800.0},
		{"index": 1.0, "type": "simulated", "user": "Yes", "text": "",
			"run_errors": []any{map[string]any{"message": "upstream timeout", "code": "TIMEOUT"}}, "state": nil, "duration_ms": 500.0},
	}
	for i, w := range want {
		got := turns[i].(map[string]any)
		for k, v := range w {
			if !reflect.DeepEqual(got[k], v) {
				t.Errorf("turns[%d].%s = %#v, want %#v", i, k, got[k], v)
			}
		}
	}
}

// Characters a script may grep for are not escaped, and an invalid state
// or args flagged as JSON by mistake never break the document.
func TestTranscriptRobust(t *testing.T) {
	tr := &trace.Trace{Turns: []trace.Turn{{
		Kind: "user", Texts: []string{"<b>a & b</b>"},
		ToolCalls: []trace.ToolCall{{ID: "c1", Name: "x", Args: `{"broken"`, ArgsJSON: true,
			Result: &trace.Result{Content: "not json", JSON: true}}},
		State: json.RawMessage(`{"half"`),
	}}}
	b := Transcript(TestInfo{}, tr.TestScope())
	if !strings.Contains(string(b), `"text":"<b>a & b</b>"`) {
		t.Errorf("Transcript = %s, want the text unescaped", b)
	}
	doc := decode(t, b)
	call := doc["tool_calls"].([]any)[0].(map[string]any)
	if call["args"] != `{"broken"` || call["result"] != "not json" {
		t.Errorf("args = %#v, result = %#v; want the invalid JSON as strings", call["args"], call["result"])
	}
	if doc["state"] != nil {
		t.Errorf("state = %#v, want null for invalid JSON", doc["state"])
	}
}
