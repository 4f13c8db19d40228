package httpapi

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// excerptBytes bounds the part of a document an error quotes.
const excerptBytes = 300

// textOf is a matched value as text: a string as it is, null as nothing,
// anything else as its JSON text.
func textOf(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case json.Number:
		return x.String()
	}
	return jsonText(v)
}

// jsonText is v's JSON, "<" and "&" as they are.
func jsonText(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // a decoded document always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

// errorText is a value response.error matched, as the agent's error: ""
// for none (null, false, "", [] or {}).
func errorText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case bool:
		if !x {
			return ""
		}
	case []any:
		if len(x) == 0 {
			return ""
		}
	case map[string]any:
		if len(x) == 0 {
			return ""
		}
	}
	return textOf(v)
}

// count reads a token count: a whole number, not negative (or a string of
// one).
func count(v any) (int64, bool) {
	var s string
	switch x := v.(type) {
	case json.Number:
		s = x.String()
	case float64:
		if x < 0 || x != math.Trunc(x) || x >= 1<<53 {
			return 0, false
		}
		return int64(x), true
	case string:
		s = x
	default:
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		// 12.0 is a whole number too.
		f, ferr := strconv.ParseFloat(s, 64)
		if ferr != nil || f != math.Trunc(f) || f < 0 || f >= 1<<53 {
			return 0, false
		}
		return int64(f), true
	}
	return n, n >= 0
}

// validJSON reports whether s is JSON.
func validJSON(s string) bool { return json.Valid([]byte(s)) }

// excerpt is the start of a document for a message: compacted when it is
// JSON, cut at excerptBytes, valid UTF-8.
func excerpt(raw []byte) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) == nil {
		raw = b.Bytes()
	}
	s := strings.ToValidUTF8(string(raw), "\uFFFD")
	if len(s) <= excerptBytes {
		return s
	}
	cut := excerptBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// excerptValue is a decoded value for a message.
func excerptValue(v any) string { return excerpt([]byte(jsonText(v))) }

// bodySuffix quotes a body at the end of a message.
func bodySuffix(body []byte) string {
	if len(bytes.TrimSpace(body)) == 0 {
		return " with an empty body"
	}
	return ": " + excerpt(bytes.TrimSpace(body))
}
