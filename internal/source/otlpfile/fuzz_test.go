package otlpfile

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParse: any input reads into an error, or a trace whose spans all
// belong to one of its turns, whose events are numbered in order, are
// the spans' JSON and name their place in the file.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"collector.jsonl", "export.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		f.Add([]byte(strings.ReplaceAll(string(data), "\n", "\r\n")))
	}
	for _, s := range []string{
		"", "\n", "{}", "[]", "null", `{"resourceSpans":null}`, `{"resource_spans":[{"scope_spans":[{"spans":[]}]}]}`,
		fmt.Sprintf(one, spanJSON("")),
		fmt.Sprintf(one, spanJSON(`,"parentSpanId":"eee19b7ec3c1b174"`)),
		fmt.Sprintf(one, spanJSON(`,"attributes":[{"key":"a","value":{"arrayValue":{"values":[{"kvlistValue":{}}]}}}]`)),
		fmt.Sprintf(one, spanJSON(`,"events":[{"name":"e"}],"status":{"code":2}`)),
		fmt.Sprintf(one, `{"traceId":"5b8efff798038103d269b633813fc60c","spanId":"0000000000000001","parentSpanId":"0000000000000001","name":"self"}`),
		"\xef\xbb\xbf" + fmt.Sprintf(one, spanJSON("")),
		"{\n" + `"resourceSpans":[{"scopeSpans":[{"spans":[` + "\n" + spanJSON("") + "]}]}]}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := Parse(data, "f.json")
		if err != nil {
			if tr != nil {
				t.Fatalf("a trace with an error: %v", err)
			}
			if !strings.HasPrefix(err.Error(), "f.json") {
				t.Errorf("error does not name the file: %v", err)
			}
			return
		}
		if len(tr.Turns) == 0 || len(tr.Spans) == 0 {
			t.Fatalf("%d turns, %d spans without an error", len(tr.Turns), len(tr.Spans))
		}
		events := 0
		for i, turn := range tr.Turns {
			if turn.Index != i {
				t.Errorf("turn %d has index %d", i, turn.Index)
			}
			for _, e := range turn.Events {
				events++
				if e.Seq != int64(events) || !json.Valid(e.Raw) || !strings.HasPrefix(e.Origin, "f.json:") {
					t.Errorf("event %d: seq %d origin %q raw %s", events, e.Seq, e.Origin, e.Raw)
				}
			}
		}
		for _, s := range tr.Spans {
			if s.Turn < 0 || s.Turn >= len(tr.Turns) {
				t.Errorf("span %s in turn %d of %d", s.SpanID, s.Turn, len(tr.Turns))
			}
		}
		if events != len(tr.Spans) {
			t.Errorf("%d events for %d spans", events, len(tr.Spans))
		}
	})
}
