package assertion

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
)

// fence opens and closes a Markdown code block.
const fence = "```"

// replyDoc is the JSON text of a reply, and where in the reply it was found.
type replyDoc struct {
	text  string
	where string // "the reply" or "the reply's ```json block"
}

// replyJSON finds the reply's JSON (json_schema, json_path): the content of
// its first fenced block that is tagged json (```json, any case) or is
// untagged and holds valid JSON; else the whole reply. Either way the text
// is trimmed. An unclosed block runs to the end of the reply, since a cut-off
// stream may never close it.
func replyJSON(reply string) replyDoc {
	rest := reply
	for {
		i := strings.Index(rest, fence)
		if i < 0 {
			break
		}
		after := rest[i+len(fence):]
		nl := strings.IndexByte(after, '\n')
		if nl < 0 {
			break
		}
		info := strings.Fields(after[:nl])
		body := after[nl+1:]
		end := strings.Index(body, fence)
		content := body
		if end >= 0 {
			content = body[:end]
		}
		content = strings.TrimSpace(content)
		switch {
		case len(info) > 0 && strings.EqualFold(info[0], "json"):
			return replyDoc{content, "the reply's ```json block"}
		case len(info) == 0 && json.Valid([]byte(content)):
			return replyDoc{content, "the reply's code block"}
		}
		if end < 0 {
			break
		}
		rest = body[end+len(fence):]
	}
	return replyDoc{strings.TrimSpace(reply), "the reply"}
}

// notJSON fails r because the reply's JSON does not parse, quoting it.
func notJSON(r *Result, doc replyDoc, err error, s trace.Scope, what string) {
	r.Observed = "not JSON"
	r.Evidence = []Evidence{{Note: doc.where + " (not JSON)", Text: shorten(doc.text, 400), EventRefs: textRefs(s)}}
	if doc.text == "" {
		r.set(status.Fail, "%s in %s is empty, not JSON, so %s", doc.where, s.Name, what)
		return
	}
	r.set(status.Fail, "%s in %s is not JSON (%s), so %s: %s", doc.where, s.Name, oneLine(err.Error()), what, quote(doc.text))
}

// oneLine keeps the first line of a multi-line error.
func oneLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}

// jsonPointer renders instance location tokens as an RFC 6901 pointer, the
// root as "the root".
func jsonPointer(tokens []string) string {
	if len(tokens) == 0 {
		return "the root"
	}
	esc := strings.NewReplacer("~", "~0", "/", "~1")
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(esc.Replace(t))
	}
	return b.String()
}

// valueAt walks decoded JSON along location tokens.
func valueAt(doc any, tokens []string) (any, bool) {
	for _, t := range tokens {
		switch v := doc.(type) {
		case map[string]any:
			next, ok := v[t]
			if !ok {
				return nil, false
			}
			doc = next
		case []any:
			var i int
			if _, err := fmt.Sscan(t, &i); err != nil || i < 0 || i >= len(v) {
				return nil, false
			}
			doc = v[i]
		default:
			return nil, false
		}
	}
	return doc, true
}
