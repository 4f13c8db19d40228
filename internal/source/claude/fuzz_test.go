package claude

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/trace"
)

// FuzzParse: any input parses without panicking into either an error or a
// trace whose events are numbered in order, are JSON, and fill its turns'
// runs.
func FuzzParse(f *testing.F) {
	session, err := os.ReadFile(filepath.Join("testdata", "session.jsonl"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(session)
	f.Add(bytes.ReplaceAll(session, []byte("\n"), []byte("\r\n")))
	for _, s := range []string{
		"",
		"\n\n",
		prompt,
		prompt + "\n" + useA + "\n" + result(`,"content":[{"type":"text","text":"a"},{"type":"image"}],"is_error":true`),
		prompt + "\n" + useA + "\n" + prompt + "\n" + result(`,"content":"x"`),
		`{"type":"assistant","message":{"id":"m","content":[{"type":"text","text":"t"}]}}` + "\n" + prompt,
		`{"type":"assistant","isApiErrorMessage":true,"error":"rate_limit","message":{"content":[{"type":"text","text":"API Error: 429"}]}}`,
		`{"type":"user","isSidechain":true,"message":{"content":"x"}}`,
		`{"type":"user","message":{"content":[{"type":"text","text":"[Request interrupted by user]"}]}}`,
		`{"type":"user","timestamp":"2025-13-01T00:00:00Z","message":{"content":"x"}}`,
		`{"type":"user","message":{"content":[{"type":"tool_result"},5,null,"s",{"type":null}]}}`,
		`{"type":5}`,
		`[]`,
		`null`,
		`{"type":"user","message":null}`,
		"\xef\xbb\xbf" + prompt,
		`{"type":"user","message":{"content":"\ud800"}}`,
		prompt + "\n" + `{"type":"user","message":{"content":"<command-name>/review</command-name><command-args>x</command-args>"}}` + "\n" +
			`{"type":"assistant","message":{"model":"m","content":[{"type":"text","text":"ok"}]}}`,
		prompt + "\n" + `{"type":"user","origin":{"kind":"task-notification"},"message":{"content":"<task-notification>done</task-notification>"}}`,
		`{"type":"user","isSidechain":true,"agentId":"a1","message":{"content":"task"}}` + "\n" +
			`{"type":"assistant","isSidechain":true,"agentId":"a1","message":{"content":[{"type":"tool_use","id":"t","name":"Grep","input":{}}]}}`,
		prompt + "\n[1]\n{\n" + useA,
		prompt + "\n" + `{"type":"assistant","message":{"id":"m","model":"a","content":[],"usage":{"input_tokens":1,"output_tokens":2,"cache_read_input_tokens":-3}}}` + "\n" +
			`{"type":"assistant","message":{"id":"m","model":"b","content":[],"usage":{"output_tokens":9}}}` + "\n" +
			`{"type":"result","total_cost_usd":0.5,"modelUsage":{"a":{"costUSD":0.2},"b":{}}}`,
		prompt + "\n" + `{"type":"result","total_cost_usd":"x"}` + "\n" + `{"type":"result","usage":{"input_tokens":4},"modelUsage":{"a":{"inputTokens":1}}}`,
	} {
		f.Add([]byte(s))
	}
	project, err := os.ReadFile(filepath.Join("testdata", "projects", "-home-dev-shop", "0b7e6c1a-5d2f-4c8e-9a31-7f4e2b9d6c05.jsonl"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(project)
	f.Fuzz(func(t *testing.T, data []byte) {
		lenient, err := parseWith(bytes.NewReader(data), "f.jsonl", Options{})
		switch {
		case err != nil && lenient != nil:
			t.Fatalf("error %v with a trace", err)
		case err != nil && err.Error() != "f.jsonl: empty transcript" && err.Error() != "no user prompt in f.jsonl":
			t.Fatalf("read leniently, only an empty transcript or one without a prompt is an error, not %v", err)
		case err == nil:
			check(t, data, lenient)
			for _, n := range lenient.Notices {
				if !strings.HasPrefix(n.Message, "f.jsonl") || n.Turn < 0 || n.Turn >= len(lenient.Turns) {
					t.Fatalf("notice %#v", n)
				}
			}
		}
		tr, err := Parse(bytes.NewReader(data), "f.jsonl")
		if err != nil {
			if tr != nil || err.Error() == "" {
				t.Fatalf("error %v with trace %v", err, tr)
			}
			return
		}
		check(t, data, tr)
	})
}

// check holds what every trace read from data must be: its token counts
// among it, none negative.
func check(t *testing.T, data []byte, tr *trace.Trace) {
	t.Helper()
	if tr == nil || len(tr.Turns) == 0 || tr.Source == nil {
		t.Fatalf("no error and no turns for %q", data)
	}
	seq := int64(0)
	for i := range tr.Turns {
		tu := &tr.Turns[i]
		if tu.Index != i || tu.ToolCalls == nil || tu.Texts == nil || len(tu.Events) == 0 || len(tu.Runs) != 1 {
			t.Fatalf("turn %d: %#v", i, tu)
		}
		if r := tu.Runs[0]; r.FirstSeq != tu.Events[0].Seq || r.Frames != len(tu.Events) {
			t.Fatalf("turn %d: run %#v", i, r)
		}
		for _, e := range tu.Events {
			if seq++; e.Seq != seq {
				t.Fatalf("event %s: seq %d, want %d", e.Origin, e.Seq, seq)
			}
			if _, err := json.Marshal(e); err != nil {
				t.Fatalf("event %s: %v", e.Origin, err)
			}
		}
		if u := tu.Usage; u != nil {
			for _, m := range u.Models {
				for f := range cost.CacheWrite + 1 {
					if n, ok := m.Tokens.Get(f); ok && n < 0 {
						t.Fatalf("turn %d: %s %d", i, f, n)
					}
				}
			}
		}
		for _, tc := range tu.ToolCalls {
			if tc.Turn != i || tc.StartSeq < tu.Events[0].Seq || (tc.Result != nil && tc.ResultSeq <= tc.StartSeq) {
				t.Fatalf("turn %d: call %#v", i, tc)
			}
		}
	}
}
