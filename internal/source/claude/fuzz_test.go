package claude

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
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
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := Parse(bytes.NewReader(data), "f.jsonl")
		if err != nil {
			if tr != nil || err.Error() == "" {
				t.Fatalf("error %v with trace %v", err, tr)
			}
			return
		}
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
			for _, tc := range tu.ToolCalls {
				if tc.Turn != i || tc.StartSeq < tu.Events[0].Seq || (tc.Result != nil && tc.ResultSeq <= tc.StartSeq) {
					t.Fatalf("turn %d: call %#v", i, tc)
				}
			}
		}
	})
}
