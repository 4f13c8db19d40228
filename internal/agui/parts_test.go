package agui_test

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/agui"
)

func TestPartsContent(t *testing.T) {
	parts := []agui.Part{{Type: "text", Text: "What is this?"}, {Type: "image", MimeType: "image/png", Filename: "a.png", Data: []byte("png")}}
	tests := []struct {
		version, want string
	}{
		{"1.0", `[{"type":"text","text":"What is this?"},{"type":"image","source":{"type":"data","value":"cG5n","mimeType":"image/png"},"metadata":{"filename":"a.png"}}]`},
		{"", `[{"type":"text","text":"What is this?"},{"type":"image","source":{"type":"data","value":"cG5n","mimeType":"image/png"},"metadata":{"filename":"a.png"}}]`},
		{"0.3", `[{"type":"text","text":"What is this?"},{"type":"binary","mimeType":"image/png","data":"cG5n","filename":"a.png"}]`},
	}
	for _, tt := range tests {
		if got := string(agui.PartsContent(parts, tt.version)); got != tt.want {
			t.Errorf("version %q:\n got %s\nwant %s", tt.version, got, tt.want)
		}
	}
}

func TestElideData(t *testing.T) {
	big := strings.Repeat("QUJD", 1000)
	tests := []struct {
		name, in, want string
	}{
		{"plain text is untouched", `{"threadId":"t","messages":[{"id":"1","role":"user","content":"hi"}]}`,
			`{"threadId":"t","messages":[{"id":"1","role":"user","content":"hi"}]}`},
		{"1.0 data", `{"messages":[{"id":"1","role":"user","content":[{"type":"text","text":"x"},{"type":"image","source":{"type":"data","value":"` + big + `","mimeType":"image/png"}}]}],"threadId":"t"}`,
			`{"messages":[{"content":[{"text":"x","type":"text"},{"source":{"mimeType":"image/png","type":"data","value":"(4000 bytes of base64 data, not kept in the trace)"},"type":"image"}],"id":"1","role":"user"}],"threadId":"t"}`},
		{"legacy binary", `{"messages":[{"role":"user","content":[{"type":"binary","mimeType":"text/plain","data":"QUJD"}]}]}`,
			`{"messages":[{"content":[{"data":"(4 bytes of base64 data, not kept in the trace)","mimeType":"text/plain","type":"binary"}],"role":"user"}]}`},
		{"a url source is kept", `{"messages":[{"role":"user","content":[{"type":"image","source":{"type":"url","value":"https://x/data"}}]}]}`,
			`{"messages":[{"role":"user","content":[{"type":"image","source":{"type":"url","value":"https://x/data"}}]}]}`},
		{"not JSON is kept", `{"data"`, `{"data"`},
	}
	for _, tt := range tests {
		if got := string(agui.ElideData([]byte(tt.in))); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, got, tt.want)
		}
	}
}
