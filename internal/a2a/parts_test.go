package a2a

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
)

// reportText is what the "report" task says (gov2_test.go): the status
// message, then the artifact — its text, its data part as a ```json block
// on lines of its own, the CSV's text, the JSON file as a block; the PNG
// and the chart by URI are files only.
const reportText = "Here is your report.\n" +
	"Total: \n```json\n{\"currency\":\"EUR\",\"note\":\"<b>&</b>\",\"total\":42}\n```\n" +
	"a,b\n1,2\n" +
	"```json\n{\"ok\": true}\n```"

var reportFiles = []trace.Attachment{
	{Name: "totals.csv", MIME: "text/csv", Bytes: 8},
	{Name: "chart.png", MIME: "image/png", URI: "https://files.example.com/chart.png"},
	{Name: "logo.png", MIME: "image/png", Bytes: len(pngBytes)},
	{Name: "r.json", MIME: "application/json; charset=utf-8", Bytes: 12},
}

// TestParts: an agent's data and file parts read the same streamed
// (chunk after chunk) and from a task snapshot, over A2A 1.0 and 0.3: the
// data as a ```json block, text files as their text, every file once
// among the turn's agent files.
func TestParts(t *testing.T) {
	nonBlocking := false
	for _, a := range []struct {
		name string
		o    Options
	}{
		{"streamed", Options{CardURL: goAgent(t, "1.0", true)}},
		{"streamed 0.3", Options{CardURL: goAgent(t, "0.3", true)}},
		{"polled", Options{CardURL: goAgent(t, "1.0", false), Blocking: &nonBlocking}},
		{"polled 0.3", Options{CardURL: goAgent(t, "0.3", false), Blocking: &nonBlocking}},
		{"blocking", Options{CardURL: goAgent(t, "1.0", false)}},
		{"blocking 0.3", Options{CardURL: goAgent(t, "0.3", false)}},
	} {
		t.Run(a.name, func(t *testing.T) {
			turn, err := play(t, a.o, "report")
			if err != nil {
				t.Fatal(err)
			}
			if got := turn.Text(); got != reportText {
				t.Errorf("text\n%s\nwant\n%s\n(events %v)", got, reportText, types(turn))
			}
			if !slices.Equal(turn.AgentFiles, reportFiles) {
				t.Errorf("agent files %+v\nwant %+v", turn.AgentFiles, reportFiles)
			}
		})
	}
}

// TestSendFiles: a turn's parts go out as a text part and file parts
// (bytes, media type, name) over A2A 1.0 and 0.3; the trace keeps the
// turn's attachments and, in the request, each file's size, not its
// bytes.
func TestSendFiles(t *testing.T) {
	in := target.Turn{Type: target.TurnUser, Text: "what did I send", Parts: []target.Part{
		{Type: "text", Text: "what did I send"},
		{Type: "image", MIME: "image/png", Filename: "receipt.png", Data: []byte("PNG!")},
	}, Attachments: []trace.Attachment{{Name: "receipt.png", MIME: "image/png", Bytes: 4}}}
	for _, version := range []string{"1.0", "0.3"} {
		t.Run(version, func(t *testing.T) {
			s, err := Dial(t.Context(), Options{CardURL: goAgent(t, version, false)})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			rec := trace.NewRecorder()
			rec.StartTurn(0, target.TurnUser, in.Text, time.Now())
			err = s.Turn(t.Context(), in, rec)
			turn := rec.EndTurn(time.Now(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := turn.Text(), `text what did I send; file receipt.png image/png "PNG!"`; got != want {
				t.Errorf("the agent got %q; want %q", got, want)
			}
			if !slices.Equal(turn.Attachments, in.Attachments) {
				t.Errorf("attachments %+v", turn.Attachments)
			}
			req := string(turn.Runs[0].Request)
			if !strings.Contains(req, `"raw":"(8 bytes of base64 data, not kept in the trace)"`) || strings.Contains(req, "UE5HIQ==") {
				t.Errorf("request %s; want the file's bytes replaced by their size", req)
			}
		})
	}
}

// TestPartsText: what each kind of part adds to a message's text.
func TestPartsText(t *testing.T) {
	data := func(v any) *a2a.Part { return a2a.NewDataPart(v) }
	raw := func(mt, s string) *a2a.Part { return &a2a.Part{Content: a2a.Raw(s), MediaType: mt} }
	adk := &a2a.Part{Content: a2a.Data{Value: map[string]any{"id": "c", "name": "f", "args": map[string]any{}}}, Metadata: map[string]any{"adk_type": "function_call"}}
	for _, tc := range []struct {
		name  string
		parts []*a2a.Part
		want  string
		files int
	}{
		{"texts as they are", []*a2a.Part{a2a.NewTextPart("a"), a2a.NewTextPart("b\n"), a2a.NewTextPart("c")}, "ab\nc", 0},
		{"data alone", []*a2a.Part{data(map[string]any{"b": 1, "a": []any{true, nil}})}, "```json\n{\"a\":[true,null],\"b\":1}\n```", 0},
		{"data between texts", []*a2a.Part{a2a.NewTextPart("x"), data("s"), a2a.NewTextPart("y")}, "x\n```json\n\"s\"\n```\ny", 0},
		{"data after a line", []*a2a.Part{a2a.NewTextPart("x\n"), data(1.5), a2a.NewTextPart("\ny")}, "x\n```json\n1.5\n```\ny", 0},
		{"two data parts", []*a2a.Part{data(1), data(2)}, "```json\n1\n```\n```json\n2\n```", 0},
		{"ADK's data parts are calls", []*a2a.Part{adk, a2a.NewTextPart("t")}, "t", 0},
		{"text files", []*a2a.Part{raw("text/plain", "one\n"), raw("text/markdown; charset=utf-8", "# two")}, "one\n# two", 2},
		{"a JSON file", []*a2a.Part{a2a.NewTextPart("see"), raw("application/ld+json", "{\"@id\":1}\n")}, "see\n```json\n{\"@id\":1}\n```", 1},
		{"a file sniffed", []*a2a.Part{raw("", "plain words")}, "plain words", 1},
		{"binary, not UTF-8, by URI: files only", []*a2a.Part{raw("image/png", "x"), raw("text/plain", "\xff\xfe"),
			{Content: a2a.URL("https://x/a/b.pdf?sig=1")}, raw("bad/type/x", "y")}, "", 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, files := contentOf(tc.parts)
			if f.text != tc.want || len(files) != tc.files {
				t.Errorf("text %q, %d files; want %q, %d", f.text, len(files), tc.want, tc.files)
			}
			// Part by part, as chunks appended, the same text.
			var chunked flow
			for _, p := range tc.parts {
				chunked.add(p)
			}
			if chunked != f {
				t.Errorf("chunked %+v; whole %+v", chunked, f)
			}
		})
	}
	_, files := contentOf([]*a2a.Part{{Content: a2a.URL("https://x/a/b.pdf?sig=1")}, {Content: a2a.URL("urn:x")}, raw("", "\x89PNG\r\n\x1a\n")})
	want := []trace.Attachment{{Name: "b.pdf", URI: "https://x/a/b.pdf?sig=1"}, {Name: "urn:x", URI: "urn:x"}, {MIME: "image/png", Bytes: 8}}
	if !slices.Equal(files, want) {
		t.Errorf("files %+v; want %+v", files, want)
	}
}

// TestElideRaw: only the message's file bytes are replaced.
func TestElideRaw(t *testing.T) {
	req := json.RawMessage(`{"message":{"messageId":"m","parts":[{"text":"raw"},{"raw":"UE5HIQ==","mediaType":"image/png"}],"role":"ROLE_USER"}}`)
	got := string(elideRaw(req))
	if !strings.Contains(got, `{"mediaType":"image/png","raw":"(8 bytes of base64 data, not kept in the trace)"}`) || !strings.Contains(got, `{"text":"raw"}`) {
		t.Errorf("elided %s", got)
	}
	for _, same := range []string{`{"message":{"parts":[{"text":"a"}]}}`, `not json`, `{"message":1}`} {
		if got := string(elideRaw(json.RawMessage(same))); got != same {
			t.Errorf("%s became %s", same, got)
		}
	}
}
