package spec

import (
	"fmt"
	"net/http"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/vars"
)

// MaxAttachmentBytes bounds one attached file. Model APIs take images of
// up to about 20 MB; a larger file is a mistake, and every request of the
// test carries it.
const MaxAttachmentBytes = 20 << 20

// Attachment kinds: the AG-UI 1.0 content part types a file is sent as.
const (
	AttachImage    = "image"
	AttachAudio    = "audio"
	AttachVideo    = "video"
	AttachDocument = "document"
)

// Part is one part of a user message written as a list: a text, or a file
// sent as AG-UI binary content (A2A: a file part).
type Part struct {
	Pos  diag.Pos
	Text *vars.Template // a text part
	File *Attachment
}

// Attachment is a file read when the suite loads: a missing or oversize
// file is a load error, never a run error.
type Attachment struct {
	// Path is the file as found (relative to the current directory or
	// absolute); Name its base name, sent as the part's filename.
	Path, Name string
	// Kind is one of AttachImage, AttachAudio, AttachVideo, AttachDocument.
	Kind string
	MIME string
	Data []byte
}

var (
	partFields   = []string{"type", "text", "source", "mimeType"}
	partTypes    = []string{"text", "image", "file"}
	fileScheme   = "file://"
	mimeByExtRaw = map[string]string{
		".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp",
		".svg": "image/svg+xml", ".bmp": "image/bmp", ".heic": "image/heic", ".tif": "image/tiff", ".tiff": "image/tiff",
		".pdf": "application/pdf", ".txt": "text/plain", ".md": "text/markdown", ".csv": "text/csv",
		".json": "application/json", ".html": "text/html", ".xml": "application/xml",
		".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
		".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
		".mp3":  "audio/mpeg", ".wav": "audio/wav", ".ogg": "audio/ogg", ".m4a": "audio/mp4", ".flac": "audio/flac",
		".mp4": "video/mp4", ".webm": "video/webm", ".mov": "video/quicktime",
	}
)

// parts reads a message written as a list of parts: {type: text, text},
// {type: image | file, source: "file://...", mimeType?}. It returns the
// parts and their text joined with newlines (what the trace shows as the
// user's message).
func (l *loader) parts(n *yaml.Node, what string) ([]Part, vars.Template) {
	items, ok := l.List(n, what)
	if !ok {
		return nil, vars.Template{}
	}
	if len(items) == 0 {
		l.Errorf(l.DerefQuiet(n), "%s is empty: a message needs at least one part", what)
	}
	var out []Part
	var texts []vars.Template
	for i, item := range items {
		w := decode.Index(what, i)
		if d := l.DerefQuiet(item); d.Kind != yaml.MappingNode {
			l.Errorf(d, "%s must be a part, {type: text, text: \"...\"} or {type: image | file, source: \"file://...\"}, not %s", w, decode.KindName(d))
			continue
		}
		f, ok := l.Fields(item, w, partFields)
		if !ok {
			continue
		}
		p := Part{Pos: l.Pos(l.DerefQuiet(item))}
		l.Require(item, f, w, "type")
		typ := ""
		if tp, ok := f["type"]; ok {
			if s, node, ok := l.Text(tp.Val, w+".type"); ok {
				typ = s
				if !slices.Contains(partTypes, s) {
					l.Errorf(node, "%s.type %q is not one of text, image, file", w, s)
					continue
				}
			}
		}
		switch typ {
		case "text":
			for _, k := range []string{"source", "mimeType"} {
				if kp, ok := f[k]; ok {
					l.Errorf(kp.Key, "%s: a text part has no %s", w, k)
				}
			}
			l.Require(item, f, w, "text")
			if tp, ok := f["text"]; ok {
				if t, ok := l.Template(tp.Val, w+".text"); ok {
					p.Text = &t
					texts = append(texts, t)
				}
			}
		case "image", "file":
			if tp, ok := f["text"]; ok {
				l.Errorf(tp.Key, "%s: a %s part has no text; add a text part", w, typ)
			}
			l.Require(item, f, w, "source")
			if sp, ok := f["source"]; ok {
				p.File = l.attachment(sp.Val, f, w, typ)
			}
		}
		out = append(out, p)
	}
	return out, vars.JoinTemplates(texts, "\n")
}

// attachment reads the file a part's source names, relative to the file
// being loaded.
func (l *loader) attachment(n *yaml.Node, f map[string]decode.Pair, what, typ string) *Attachment {
	src, node, ok := l.Text(n, what+".source")
	if !ok {
		return nil
	}
	rel, ok := strings.CutPrefix(src, fileScheme)
	if !ok || rel == "" {
		l.Errorf(node, "%s.source %q must be a file:// path (relative to this file, or absolute)", what, src)
		return nil
	}
	p := filepath.FromSlash(rel)
	if !filepath.IsAbs(p) {
		p = filepath.Join(filepath.Dir(l.File), p)
	}
	a, err := l.readAttachment(p)
	if err != nil {
		l.Errorf(node, "%s.source: %v", what, err)
		return nil
	}
	out := *a
	if mp, ok := f["mimeType"]; ok {
		if s, mnode, ok := l.Text(mp.Val, what+".mimeType"); ok {
			if !strings.Contains(s, "/") {
				l.Errorf(mnode, "%s.mimeType %q is not a MIME type (like image/png)", what, s)
			}
			out.MIME = s
		}
	}
	out.Kind = kindOf(out.MIME)
	if typ == "image" && out.Kind != AttachImage {
		l.Errorf(node, "%s: %s is %s, not an image; use type file", what, out.Name, out.MIME)
	}
	return &out
}

// readAttachment reads a file once per load, however many parts name it.
func (l *loader) readAttachment(p string) (*Attachment, error) {
	if a, ok := l.files[p]; ok {
		return a, nil
	}
	data, err := readFile(p, MaxAttachmentBytes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	a := &Attachment{Path: p, Name: filepath.Base(p), Data: data, MIME: mimeOf(p, data)}
	if l.files == nil {
		l.files = map[string]*Attachment{}
	}
	l.files[p] = a
	return a, nil
}

// mimeOf is the MIME type of a file: by its extension from a fixed table
// (the same on every machine, unlike the system's mime.types), else sniffed
// from its content.
func mimeOf(p string, data []byte) string {
	if m, ok := mimeByExtRaw[strings.ToLower(path.Ext(filepath.ToSlash(p)))]; ok {
		return m
	}
	m := http.DetectContentType(data)
	if i := strings.IndexByte(m, ';'); i >= 0 {
		m = m[:i]
	}
	return m
}

// kindOf is the AG-UI part type a MIME type is sent as.
func kindOf(mime string) string {
	switch {
	case strings.HasPrefix(mime, "image/"):
		return AttachImage
	case strings.HasPrefix(mime, "audio/"):
		return AttachAudio
	case strings.HasPrefix(mime, "video/"):
		return AttachVideo
	}
	return AttachDocument
}

// userMessage reads a turn's user message or a history message's content:
// a string, or a list of parts.
func (l *loader) userMessage(n *yaml.Node, what string) (vars.Template, []Part) {
	if m := l.Deref(n); m != nil && m.Kind == yaml.SequenceNode {
		parts, text := l.parts(m, what)
		return text, parts
	}
	t, _ := l.Template(n, what)
	return t, nil
}
