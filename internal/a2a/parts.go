package a2a

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
)

// What an agent's parts become in the trace (docs/a2a.md, "What becomes
// text, JSON, files and tool calls"): a text part is text, as it is; a
// data part is a ```json block holding its JSON, so that json_path and
// json_schema read it as they read a reply's ```json block; a file part
// is one of the turn's agent files, and when its bytes came inline and
// are text — text/* (as it is), JSON (application/json, …+json: a ```json
// block) — its content is text too. A block and a file's text sit on
// lines of their own. ADK's tool-call data parts are tool calls, not
// text (adk.go).

// flow is the text of a message or an artifact as its parts are added:
// block is whether the last thing added was a block or a file's text
// that did not end its line, so that what follows starts a line.
type flow struct {
	text  string
	block bool
}

// add appends what one part says, and returns what it added and the
// file it carried, if any.
func (f *flow) add(p *a2a.Part) (string, *trace.Attachment) {
	if p == nil {
		return "", nil
	}
	if _, ok := adkPart(p); ok {
		return "", nil
	}
	switch c := p.Content.(type) {
	case a2a.Text:
		s := string(c)
		if f.block && s != "" {
			if !strings.HasPrefix(s, "\n") {
				s = "\n" + s
			}
			f.block = false
		}
		f.text += s
		return s, nil
	case a2a.Data:
		return f.addBlock(jsonBlock(compactJSON(c.Value))), nil
	case a2a.Raw:
		att := &trace.Attachment{Name: p.Filename, MIME: p.MediaType, Bytes: len(c)}
		if att.MIME == "" {
			att.MIME = http.DetectContentType(c)
		}
		return f.addBlock(fileText(att.MIME, c)), att
	case a2a.URL:
		att := &trace.Attachment{Name: p.Filename, MIME: p.MediaType, URI: string(c)}
		if att.Name == "" {
			att.Name = uriName(string(c))
		}
		return "", att
	}
	return "", nil
}

// addBlock appends s on lines of its own.
func (f *flow) addBlock(s string) string {
	if s == "" {
		return ""
	}
	if f.text != "" && !strings.HasSuffix(f.text, "\n") {
		s = "\n" + s
	}
	f.text += s
	f.block = !strings.HasSuffix(s, "\n")
	return s
}

// contentOf is what parts say from their start: their text, and the
// files they carried.
func contentOf(parts a2a.ContentParts) (flow, []trace.Attachment) {
	var f flow
	var files []trace.Attachment
	for _, p := range parts {
		if _, att := f.add(p); att != nil {
			files = append(files, *att)
		}
	}
	return f, files
}

// jsonBlock is a fenced ```json block holding text.
func jsonBlock(text string) string {
	return "```json\n" + strings.TrimRight(text, "\n") + "\n```"
}

// compactJSON is a data part's value as compact JSON, as encoding/json
// writes it (object keys sorted), with <, > and & as they are.
func compactJSON(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "null"
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// fileText is the text a file's bytes say: text/* as it is, JSON as a
// ```json block; "" for any other type, or bytes that are not UTF-8.
func fileText(mediaType string, b []byte) string {
	if len(b) == 0 || !utf8.Valid(b) {
		return ""
	}
	mt, _, err := mime.ParseMediaType(mediaType)
	if err != nil {
		return ""
	}
	switch {
	case isJSONType(mt):
		return jsonBlock(string(b))
	case strings.HasPrefix(mt, "text/"):
		return string(b)
	}
	return ""
}

// isJSONType reports whether a media type is JSON: application/json, or
// a structured syntax suffix +json (application/ld+json).
func isJSONType(mt string) bool {
	return mt == "application/json" || strings.HasSuffix(mt, "+json")
}

// uriName is the name a file given by its URI goes by when its part
// names none: the last segment of the URI's path, or the URI.
func uriName(uri string) string {
	u, err := url.Parse(uri)
	if err == nil {
		if base := path.Base(u.Path); base != "." && base != "/" && base != "" {
			return base
		}
	}
	return uri
}

// userParts are the parts of the message a turn sends: its text, or its
// parts — a text part each, a file as its bytes with its media type and
// name.
func userParts(in target.Turn) []*a2a.Part {
	if in.Parts == nil {
		return []*a2a.Part{a2a.NewTextPart(in.Text)}
	}
	out := make([]*a2a.Part, 0, len(in.Parts))
	for _, p := range in.Parts {
		if p.Type == "text" {
			out = append(out, a2a.NewTextPart(p.Text))
			continue
		}
		out = append(out, &a2a.Part{Content: a2a.Raw(p.Data), MediaType: p.MIME, Filename: p.Filename})
	}
	return out
}

// elideRaw returns a recorded request with the bytes of each file part
// of its message replaced by a note of their size, as AG-UI's requests
// are recorded (docs/datasets.md#attachments): the bytes are in the
// test's files already. A request it cannot read is returned as is.
func elideRaw(req json.RawMessage) json.RawMessage {
	var in map[string]json.RawMessage
	var msg map[string]json.RawMessage
	var parts []map[string]json.RawMessage
	if json.Unmarshal(req, &in) != nil || json.Unmarshal(in["message"], &msg) != nil || json.Unmarshal(msg["parts"], &parts) != nil {
		return req
	}
	changed := false
	for _, p := range parts {
		var b64 string
		if raw, ok := p["raw"]; ok && json.Unmarshal(raw, &b64) == nil {
			p["raw"], _ = json.Marshal(fmt.Sprintf("(%d bytes of base64 data, not kept in the trace)", len(b64)))
			changed = true
		}
	}
	if !changed {
		return req
	}
	msg["parts"], _ = json.Marshal(parts)
	in["message"], _ = json.Marshal(msg)
	out, err := json.Marshal(in)
	if err != nil {
		return req
	}
	return out
}
