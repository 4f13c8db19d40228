package openai

import (
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/ananke/action/internal/target"
)

// jsonString is s as a JSON string.
func jsonString(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}

// dataURL is a file's bytes as a data: URL.
func dataURL(p target.Part) string {
	mt := p.MIME
	if mt == "" {
		mt = "application/octet-stream"
	}
	return "data:" + mt + ";base64," + base64.StdEncoding.EncodeToString(p.Data)
}

// chatParts is a user message's content as Chat Completions parts: texts,
// images (image_url), WAV and MP3 audio (input_audio), other files
// (file).
func chatParts(ps []target.Part) json.RawMessage {
	out := make([]map[string]any, 0, len(ps))
	for _, p := range ps {
		switch {
		case p.Type == "text":
			out = append(out, map[string]any{"type": "text", "text": p.Text})
		case p.Type == "image":
			out = append(out, map[string]any{"type": "image_url", "image_url": map[string]any{"url": dataURL(p)}})
		case p.Type == "audio" && audioFormat(p.MIME) != "":
			out = append(out, map[string]any{"type": "input_audio", "input_audio": map[string]any{
				"data": base64.StdEncoding.EncodeToString(p.Data), "format": audioFormat(p.MIME)}})
		default:
			out = append(out, map[string]any{"type": "file", "file": map[string]any{"filename": p.Filename, "file_data": dataURL(p)}})
		}
	}
	b, _ := json.Marshal(out)
	return b
}

// responsesParts is a user message's content as Responses input parts:
// texts (input_text), images (input_image), other files (input_file).
func responsesParts(ps []target.Part) json.RawMessage {
	out := make([]map[string]any, 0, len(ps))
	for _, p := range ps {
		switch p.Type {
		case "text":
			out = append(out, map[string]any{"type": "input_text", "text": p.Text})
		case "image":
			out = append(out, map[string]any{"type": "input_image", "image_url": dataURL(p)})
		default:
			out = append(out, map[string]any{"type": "input_file", "filename": p.Filename, "file_data": dataURL(p)})
		}
	}
	b, _ := json.Marshal(out)
	return b
}

// audioFormat is input_audio's format of a MIME type ("": none).
func audioFormat(mime string) string {
	switch strings.ToLower(mime) {
	case "audio/wav", "audio/x-wav", "audio/wave":
		return "wav"
	case "audio/mpeg", "audio/mp3":
		return "mp3"
	}
	return ""
}

// partsText is the text of a message that is not the user's: its text
// parts, else text.
func partsText(ps []target.Part, text string) string {
	var b strings.Builder
	for _, p := range ps {
		if p.Type == "text" {
			b.WriteString(p.Text)
		}
	}
	if b.Len() == 0 {
		return text
	}
	return b.String()
}

// contentText is the text of a message's content: a string, or the text
// of its parts.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type, Text string
	}
	if json.Unmarshal(raw, &parts) != nil {
		return ""
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Type == "text" || p.Type == "output_text" {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// argumentsText is a call's arguments as text: a JSON string's value, or
// the JSON of an object a server sent in its place.
func argumentsText(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// hasError reports whether an error field holds an error (not null,
// false or empty).
func hasError(raw json.RawMessage) bool {
	switch strings.TrimSpace(string(raw)) {
	case "", "null", "false", `""`, "{}":
		return false
	}
	return true
}

// errorMessage is an error object's message: {"message": …}, or a string.
func errorMessage(raw json.RawMessage) string {
	var e struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(raw, &e) == nil && e.Message != "" {
		return e.Message
	}
	var s string
	if json.Unmarshal(raw, &s) == nil && s != "" {
		return s
	}
	return excerpt(raw)
}

// elide is a request body as the trace keeps it: the base64 data of the
// files it carries replaced by their size.
func elide(body []byte) json.RawMessage {
	if !strings.Contains(string(body), ";base64,") && !strings.Contains(string(body), `"input_audio"`) {
		return body
	}
	var v any
	if json.Unmarshal(body, &v) != nil {
		return body
	}
	v = elideValue(v, "")
	out, err := json.Marshal(v)
	if err != nil {
		return body
	}
	return out
}

func elideValue(v any, key string) any {
	switch x := v.(type) {
	case map[string]any:
		audio := key == "input_audio"
		for k, e := range x {
			if audio && k == "data" {
				if s, ok := e.(string); ok {
					x[k] = elided(len(s))
					continue
				}
			}
			x[k] = elideValue(e, k)
		}
	case []any:
		for i, e := range x {
			x[i] = elideValue(e, "")
		}
	case string:
		if i := strings.Index(x, ";base64,"); strings.HasPrefix(x, "data:") && i > 0 {
			return x[:i+len(";base64,")] + elided(len(x)-i-len(";base64,"))
		}
	}
	return v
}

// elided stands for n bytes of base64 data.
func elided(n int) string {
	return "(" + strconv.Itoa(n) + " bytes of base64 data, not kept in the trace)"
}
