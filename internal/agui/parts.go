package agui

import (
	"encoding/base64"
	"encoding/json"
	"strings"
)

// Part is one content part of a user message: a text, or a file carried
// inline. It encodes as an AG-UI 1.0 ContentPart — {"type": "text",
// "text"} or {"type": "image" | "audio" | "video" | "document", "source":
// {"type": "data", "value": base64, "mimeType"}, "metadata": {"filename"}}
// — or, for agents speaking 0.x, as the legacy {"type": "binary",
// "mimeType", "data", "filename"}.
type Part struct {
	// Type is "text", "image", "audio", "video" or "document".
	Type     string
	Text     string
	MimeType string
	Filename string
	Data     []byte
}

type textPart struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type dataPart struct {
	Type     string       `json:"type"`
	Source   dataSource   `json:"source"`
	Metadata partMetadata `json:"metadata"`
}

type dataSource struct {
	Type     string `json:"type"` // always "data"
	Value    string `json:"value"`
	MimeType string `json:"mimeType"`
}

type partMetadata struct {
	Filename string `json:"filename,omitempty"`
}

type binaryPart struct {
	Type     string `json:"type"` // always "binary"
	MimeType string `json:"mimeType"`
	Data     string `json:"data"`
	Filename string `json:"filename,omitempty"`
}

// PartsContent encodes parts as a user message's content for an agent of
// protocolVersion ("" or 1.x: ContentParts; 0.x: the legacy binary part).
func PartsContent(parts []Part, protocolVersion string) json.RawMessage {
	legacy := strings.HasPrefix(protocolVersion, "0.")
	out := make([]any, 0, len(parts))
	for _, p := range parts {
		data := base64.StdEncoding.EncodeToString(p.Data)
		switch {
		case p.Type == "text":
			out = append(out, textPart{Type: "text", Text: p.Text})
		case legacy:
			out = append(out, binaryPart{Type: "binary", MimeType: p.MimeType, Data: data, Filename: p.Filename})
		default:
			out = append(out, dataPart{Type: p.Type, Source: dataSource{Type: "data", Value: data, MimeType: p.MimeType},
				Metadata: partMetadata{Filename: p.Filename}})
		}
	}
	b, _ := json.Marshal(out) // strings and bytes always encode
	return b
}
