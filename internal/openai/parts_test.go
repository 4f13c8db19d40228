package openai

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
)

// TestParts: a user message with files is sent as each API's content
// parts, the files inline as data URLs; the trace keeps the request with
// each file's data replaced by its size.
func TestParts(t *testing.T) {
	parts := []target.Part{
		{Type: "text", Text: "What is in these?"},
		{Type: "image", MIME: "image/png", Filename: "a.png", Data: []byte("PNGDATA")},
		{Type: "audio", MIME: "audio/wav", Filename: "a.wav", Data: []byte("WAVDATA")},
		{Type: "document", MIME: "application/pdf", Filename: "a.pdf", Data: []byte("PDFDATA")},
	}
	for _, tc := range []struct {
		api, sent, kept string
	}{
		{APIChat,
			`[{"text":"What is in these?","type":"text"},{"image_url":{"url":"data:image/png;base64,UE5HREFUQQ=="},"type":"image_url"},{"input_audio":{"data":"V0FWREFUQQ==","format":"wav"},"type":"input_audio"},{"file":{"file_data":"data:application/pdf;base64,UERGREFUQQ==","filename":"a.pdf"},"type":"file"}]`,
			`[{"text":"What is in these?","type":"text"},{"image_url":{"url":"data:image/png;base64,(12 bytes of base64 data, not kept in the trace)"},"type":"image_url"},{"input_audio":{"data":"(12 bytes of base64 data, not kept in the trace)","format":"wav"},"type":"input_audio"},{"file":{"file_data":"data:application/pdf;base64,(12 bytes of base64 data, not kept in the trace)","filename":"a.pdf"},"type":"file"}]`},
		{APIResponses,
			`[{"text":"What is in these?","type":"input_text"},{"image_url":"data:image/png;base64,UE5HREFUQQ==","type":"input_image"},{"file_data":"data:audio/wav;base64,V0FWREFUQQ==","filename":"a.wav","type":"input_file"},{"file_data":"data:application/pdf;base64,UERGREFUQQ==","filename":"a.pdf","type":"input_file"}]`,
			`[{"text":"What is in these?","type":"input_text"},{"image_url":"data:image/png;base64,(12 bytes of base64 data, not kept in the trace)","type":"input_image"},{"file_data":"data:audio/wav;base64,(12 bytes of base64 data, not kept in the trace)","filename":"a.wav","type":"input_file"},{"file_data":"data:application/pdf;base64,(12 bytes of base64 data, not kept in the trace)","filename":"a.pdf","type":"input_file"}]`},
	} {
		t.Run(tc.api, func(t *testing.T) {
			f := newFake(t, func(w http.ResponseWriter, r request, n int) {
				if tc.api == APIChat {
					body(w, 200, `{"choices":[{"index":0,"message":{"content":"a cat"}}]}`)
				} else {
					body(w, 200, `{"id":"r","status":"completed","output":[{"type":"message","content":[{"type":"output_text","text":"a cat"}]}]}`)
				}
			})
			s := New(options(f.endpoint(), tc.api, false))
			rec := trace.NewRecorder()
			rec.StartTurn(0, target.TurnUser, "What is in these?", s.o.Now())
			atts := []trace.Attachment{{Name: "a.png", MIME: "image/png", Bytes: 7}}
			if _, err := s.Turn(context.Background(), target.Turn{Type: target.TurnUser, Text: "What is in these?", Parts: parts, Attachments: atts}, rec); err != nil {
				t.Fatal(err)
			}
			tt := rec.EndTurn(s.o.Now(), nil)
			content := func(body map[string]any) string {
				key := "messages"
				if tc.api == APIResponses {
					key = "input"
				}
				msgs, _ := body[key].([]any)
				return jsonOf(msgs[len(msgs)-1].(map[string]any)["content"])
			}
			if got := content(f.requests()[0].Body); got != tc.sent {
				t.Errorf("sent\n%s\nwant\n%s", got, tc.sent)
			}
			var kept map[string]any
			if err := json.Unmarshal(tt.Runs[0].Request, &kept); err != nil {
				t.Fatal(err)
			}
			if got := content(kept); got != tc.kept {
				t.Errorf("kept\n%s\nwant\n%s", got, tc.kept)
			}
			if len(tt.Attachments) != 1 || tt.Text() != "a cat" {
				t.Errorf("attachments %v, text %q", tt.Attachments, tt.Text())
			}
		})
	}
}

// TestJoin: the API's path goes after the endpoint's, whose query is
// kept.
func TestJoin(t *testing.T) {
	for _, c := range [][3]string{
		{"http://x/v1", "chat/completions", "http://x/v1/chat/completions"},
		{"http://x/v1/", "responses", "http://x/v1/responses"},
		{"https://x.openai.azure.com/openai/v1?api-version=preview", "responses", "https://x.openai.azure.com/openai/v1/responses?api-version=preview"},
	} {
		if got := join(c[0], c[1]); got != c[2] {
			t.Errorf("join(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}
