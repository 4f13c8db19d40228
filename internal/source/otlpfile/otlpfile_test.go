package otlpfile

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/trace"
)

func names(tr *trace.Trace, turn int) []string {
	var out []string
	for _, s := range tr.Spans {
		if s.Turn == turn {
			out = append(out, s.Name)
		}
	}
	return out
}

func origins(t trace.Turn) []string {
	var out []string
	for _, e := range t.Events {
		out = append(out, e.Origin)
	}
	return out
}

func TestRead(t *testing.T) {
	tests := []struct {
		file    string
		turns   [][]string // span names per turn
		origins [][]string
		times   [][2]int64 // each turn's start and end, ms
		caps    []string
	}{
		// JSON lines, one trace: a turn per root span; the tool span of
		// the second line is the first root's.
		{"collector.jsonl",
			[][]string{{"invoke_agent weather", "chat gpt-4o-mini", "execute_tool get_weather"}, {"invoke_agent weather"}},
			[][]string{{"collector.jsonl:1", "collector.jsonl:1", "collector.jsonl:2"}, {"collector.jsonl:2"}},
			[][2]int64{{1764286200000, 1764286200900}, {1764286202000, 1764286202500}},
			[]string{capability.Spans, capability.Replay, capability.ToolTrace}},
		// One document over many lines, two traces: a turn per trace,
		// each span's origin the line its object starts at.
		{"export.json",
			[][]string{{"POST /agent"}, {"POST /agent", "execute_tool search"}},
			[][]string{{"export.json:21"}, {"export.json:29", "export.json:37"}},
			[][2]int64{{1764286200000, 1764286200100}, {1764286200200, 1764286200300}},
			[]string{capability.Spans, capability.Replay, capability.ToolTrace}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			tr, err := Read(filepath.Join("testdata", tc.file), tc.file)
			if err != nil {
				t.Fatal(err)
			}
			if len(tr.Turns) != len(tc.turns) {
				t.Fatalf("%d turns, want %d", len(tr.Turns), len(tc.turns))
			}
			for i, want := range tc.turns {
				turn := tr.Turns[i]
				if got := names(tr, i); !slices.Equal(got, want) {
					t.Errorf("turn %d spans %q, want %q", i, got, want)
				}
				if got := origins(turn); !slices.Equal(got, tc.origins[i]) {
					t.Errorf("turn %d origins %q, want %q", i, got, tc.origins[i])
				}
				if turn.Index != i || turn.StartMs != tc.times[i][0] || turn.EndMs != tc.times[i][1] {
					t.Errorf("turn %d: index %d, %d–%d ms, want %d–%d", i, turn.Index, turn.StartMs, turn.EndMs, tc.times[i][0], tc.times[i][1])
				}
				for j, e := range turn.Events {
					var s trace.Span
					if err := json.Unmarshal(e.Raw, &s); err != nil || e.Type != SpanEvent || s.Name != want[j] || s.Turn != i {
						t.Errorf("turn %d event %d: %s %s (%v)", i, j, e.Type, e.Raw, err)
					}
				}
			}
			if tr.TestStartMs != tc.times[0][0] || tr.TestEndMs != tc.times[len(tc.times)-1][1] {
				t.Errorf("test %d–%d ms", tr.TestStartMs, tr.TestEndMs)
			}
			src := tr.Source
			if src == nil || src.Adapter != "otlp" || src.Mode != "import" || src.Path != tc.file || !slices.Equal(src.Capabilities, tc.caps) {
				t.Errorf("source = %+v", src)
			}
			var seq int64
			for _, turn := range tr.Turns {
				for _, e := range turn.Events {
					if seq++; e.Seq != seq {
						t.Errorf("event seq %d, want %d", e.Seq, seq)
					}
				}
			}
		})
	}
}

// TestReadKeepsSpans: every span is kept as the reader of OTLP reads
// it — attributes, status, events, service and scope.
func TestReadKeepsSpans(t *testing.T) {
	tr, err := Read(filepath.Join("testdata", "collector.jsonl"), "collector.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var failed *trace.Span
	for i := range tr.Spans {
		s := &tr.Spans[i]
		if s.Service != "weather-agent" || s.Scope != "@mastra/otel-exporter" || s.TraceID != "5b8efff798038103d269b633813fc60c" {
			t.Errorf("span %s: service %q scope %q trace %s", s.SpanID, s.Service, s.Scope, s.TraceID)
		}
		if s.SpanID == "aaa19b7ec3c1b100" {
			failed = s
		}
	}
	if failed == nil || failed.Status != "error" || failed.StatusMessage != "upstream 429" || len(failed.Events) != 1 ||
		failed.Events[0].Attributes["exception.message"] != "rate limited" || failed.Kind != "server" {
		t.Fatalf("failed span = %+v", failed)
	}
	chat := tr.Spans[1]
	if chat.Attributes["gen_ai.usage.input_tokens"] != int64(812) || chat.ParentID != "eee19b7ec3c1b174" || chat.Kind != "client" {
		t.Errorf("chat span = %+v", chat)
	}
}

const one = `{"resourceSpans":[{"scopeSpans":[{"spans":[%s]}]}]}`

func spanJSON(extra string) string {
	return fmt.Sprintf(`{"traceId":"5b8efff798038103d269b633813fc60c","spanId":"eee19b7ec3c1b174","name":"s"%s}`, extra)
}

// TestParseErrors: what is not OTLP, or not whole, is an error at its
// file:line — never a trace with less in it.
func TestParseErrors(t *testing.T) {
	huge := strings.Repeat("x", 16<<10+1)
	var many []string
	for i := range 129 {
		many = append(many, fmt.Sprintf(`{"key":"k%d","value":{"intValue":"1"}}`, i))
	}
	tests := []struct{ name, data, want string }{
		{"empty", "", "t.json: no spans (an OTLP JSON trace file holds resourceSpans, their scopeSpans and spans)"},
		{"no spans", "{}\n{}\n", "t.json: no spans (an OTLP JSON trace file holds resourceSpans, their scopeSpans and spans)"},
		{"not JSON", "hello\n", "t.json:1: not OTLP JSON trace data: ReadObject"},
		{"bad second line", fmt.Sprintf(one, spanJSON("")) + "\n" + `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"5b8e"}]}]}]}` + "\n",
			"t.json:2: not OTLP JSON trace data: ID.UnmarshalJSONIter: length mismatch"},
		{"wrong type, pretty", "{\n  \"resourceSpans\": [\n    {\"scopeSpans\": [{\"spans\": [\n      {\"name\": 3}\n    ]}]}\n  ]\n}\n",
			"t.json:4: not OTLP JSON trace data: ReadString: expects \" or n, but found 3"},
		{"spans not a list", `{"resourceSpans":[{"scopeSpans":[{"spans":{}}]}]}`, "t.json:1: not OTLP JSON trace data: ReadArray"},
		{"attribute of the wrong type", fmt.Sprintf(one, spanJSON(`,"attributes":[{"key":"n","value":{"intValue":"x"}}]`)), "t.json:1: not OTLP JSON trace data: ReadInt64"},
		{"no trace id", "{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[\n" + spanJSON("") + ",\n" + `{"spanId":"eee19b7ec3c1b175","name":"orphan"}` + "\n]}]}]}",
			`t.json:3: span "orphan": no traceId`},
		{"no span id", fmt.Sprintf(one, `{"traceId":"5b8efff798038103d269b633813fc60c","name":"x"}`), `t.json:1: span "x": no spanId`},
		{"huge attribute", fmt.Sprintf(one, spanJSON(`,"attributes":[{"key":"gen_ai.input.messages","value":{"stringValue":"`+huge+`"}}]`)),
			`t.json:1: span "s": attribute "gen_ai.input.messages": 16385 bytes, over the limit of 16384`},
		{"huge nested value", fmt.Sprintf(one, spanJSON(`,"attributes":[{"key":"m","value":{"kvlistValue":{"values":[{"key":"l","value":{"arrayValue":{"values":[{"stringValue":"`+huge+`"}]}}}]}}}]`)),
			`t.json:1: span "s": attribute "m": key "l": 16385 bytes, over the limit of 16384`},
		{"too many attributes", fmt.Sprintf(one, spanJSON(`,"attributes":[`+strings.Join(many, ",")+`]`)), `t.json:1: span "s": 129 attributes, over the limit of 128`},
		{"huge event attribute", fmt.Sprintf(one, spanJSON(`,"events":[{"name":"e","attributes":[{"key":"a","value":{"stringValue":"`+huge+`"}}]}]`)),
			`t.json:1: span "s": event 0 (e): attribute "a": 16385 bytes, over the limit of 16384`},
		{"a cycle of parents", fmt.Sprintf(one, `{"traceId":"5b8efff798038103d269b633813fc60c","spanId":"0000000000000001","parentSpanId":"0000000000000002","name":"a"},`+
			`{"traceId":"5b8efff798038103d269b633813fc60c","spanId":"0000000000000002","parentSpanId":"0000000000000001","name":"b"}`),
			"t.json:1: span 0000000000000001: its parents form a cycle"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := Parse([]byte(tc.data), "t.json")
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("err = %v (trace %v)\nwant %s…", err, tr != nil, tc.want)
			}
			if strings.Contains(err.Error(), "error found in") || len(err.Error()) > 300 {
				t.Errorf("the message is not short: %s", err)
			}
		})
	}
}

// TestReadTexts: the user's message and the assistant's text come from
// the GenAI message attributes; a turn without them says so.
func TestReadTexts(t *testing.T) {
	tr, err := Read(filepath.Join("testdata", "collector.jsonl"), "collector.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if u, txt := tr.Turns[0].UserText, tr.Turns[0].Text(); u != "Weather in Paris?" || txt != "Sunny, 23 °C." {
		t.Errorf("turn 0: user %q, text %q", u, txt)
	}
	if len(tr.Turns[1].Texts) != 0 || len(tr.Notices) != 1 || tr.Notices[0].Turn != 1 ||
		tr.Notices[0].Message != "turn[1]: no span of the turn has gen_ai.output.messages with the assistant's text; the turn's text is empty" {
		t.Errorf("turn 1: texts %q, notices %+v", tr.Turns[1].Texts, tr.Notices)
	}
	for _, tc := range []struct {
		v    any
		want []message
		ok   bool
	}{
		{`[{"role":"user","content":"hi"}]`, []message{{"user", "hi"}}, true},
		{[]any{map[string]any{"role": "assistant", "parts": []any{map[string]any{"type": "text", "content": "a"}, "junk", map[string]any{"type": "text", "content": 5}}}}, []message{{"assistant", "a"}}, true},
		{`{"role":"user"}`, nil, false},
		{`not json`, nil, false},
		{nil, nil, false},
	} {
		got, ok := messages(tc.v)
		if ok != tc.ok || fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("messages(%v) = %v %v, want %v %v", tc.v, got, ok, tc.want, tc.ok)
		}
	}
}

// TestParseDuplicate: a span written twice is kept once, and said.
func TestParseDuplicate(t *testing.T) {
	line := fmt.Sprintf(one, spanJSON(""))
	tr, err := Parse([]byte(line+"\n"+line+"\n"), "t.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Spans) != 1 || len(tr.Notices) != 2 || !strings.HasPrefix(tr.Notices[0].Message, "t.json:2: span eee19b7ec3c1b174") {
		t.Errorf("%d spans, notices %+v", len(tr.Spans), tr.Notices)
	}
}
