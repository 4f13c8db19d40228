package plant

import "strings"

// Textual reports whether a file of MIME type mime is text a payload can
// be planted in (the attachment channel): text/*, JSON, XML, their +json
// and +xml kinds, and markdown. Parameters (";charset=…") and case are
// ignored.
func Textual(mime string) bool {
	m, _, _ := strings.Cut(mime, ";")
	m = strings.ToLower(strings.TrimSpace(m))
	switch {
	case strings.HasPrefix(m, "text/"):
		return true
	case m == "application/json", m == "application/xml", strings.HasSuffix(m, "+json"), strings.HasSuffix(m, "+xml"),
		strings.HasSuffix(m, "/markdown"), strings.HasSuffix(m, "/x-markdown"):
		return true
	}
	return false
}
