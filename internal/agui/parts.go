package agui

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
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

// ElideData returns a run request with the inline data of every content
// part replaced by a note of its size, for traces: the exact bytes sent
// are in the test's files already, and repeating them in every run of
// every turn would make traces as large as the attachments times the runs.
// A request without inline parts is returned as is.
func ElideData(req json.RawMessage) json.RawMessage {
	if !bytes.Contains(req, []byte(`"data"`)) {
		return req
	}
	var in map[string]json.RawMessage
	var msgs []map[string]json.RawMessage
	if json.Unmarshal(req, &in) != nil || json.Unmarshal(in["messages"], &msgs) != nil {
		return req
	}
	changed := false
	for _, m := range msgs {
		var parts []map[string]any
		if json.Unmarshal(m["content"], &parts) != nil {
			continue
		}
		for _, p := range parts {
			if src, ok := p["source"].(map[string]any); ok && src["type"] == "data" {
				if v, ok := src["value"].(string); ok {
					src["value"], changed = elided(v), true
				}
			}
			if p["type"] == "binary" {
				if v, ok := p["data"].(string); ok {
					p["data"], changed = elided(v), true
				}
			}
		}
		if changed {
			m["content"], _ = json.Marshal(parts)
		}
	}
	if !changed {
		return req
	}
	in["messages"], _ = json.Marshal(msgs)
	out, err := json.Marshal(in)
	if err != nil {
		return req
	}
	return out
}

func elided(b64 string) string {
	return fmt.Sprintf("(%d bytes of base64 data, not kept in the trace)", len(b64))
}
