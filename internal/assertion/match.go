package assertion

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// ArgText returns the text of the argument at path: the value of a
// top-level key named exactly path, else the value reached by the dotted
// path ("customer.email", "items.0.sku"). Strings are returned as is, other
// JSON as compact JSON. ok is false when the argument is missing or the args
// are not a JSON object.
func ArgText(args, path string) (text string, ok bool) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(args), &obj); err != nil {
		return "", false
	}
	if v, ok := obj[path]; ok {
		return jsonText(v), true
	}
	cur := json.RawMessage(args)
	for _, seg := range strings.Split(path, ".") {
		next, ok := child(cur, seg)
		if !ok {
			return "", false
		}
		cur = next
	}
	return jsonText(cur), true
}

// child steps into an object key or an array index.
func child(v json.RawMessage, seg string) (json.RawMessage, bool) {
	switch firstByte(v) {
	case '{':
		var obj map[string]json.RawMessage
		if json.Unmarshal(v, &obj) != nil {
			return nil, false
		}
		c, ok := obj[seg]
		return c, ok
	case '[':
		i, err := strconv.Atoi(seg)
		if err != nil || i < 0 {
			return nil, false
		}
		var arr []json.RawMessage
		if json.Unmarshal(v, &arr) != nil || i >= len(arr) {
			return nil, false
		}
		return arr[i], true
	}
	return nil, false
}

func firstByte(v []byte) byte {
	v = bytes.TrimLeft(v, " \t\r\n")
	if len(v) == 0 {
		return 0
	}
	return v[0]
}

// jsonText renders a JSON value as matching text: a string as itself,
// anything else as compact JSON in its original key order.
func jsonText(v json.RawMessage) string {
	if firstByte(v) == '"' {
		var s string
		if json.Unmarshal(v, &s) == nil {
			return s
		}
	}
	var buf bytes.Buffer
	if json.Compact(&buf, v) != nil {
		return string(v)
	}
	return buf.String()
}

// ResultText is the text result_match sees: JSON results as compact JSON
// (a JSON string as its value), anything else as the raw content.
func ResultText(r *trace.Result) string {
	if r.JSON {
		return jsonText(json.RawMessage(r.Content))
	}
	return r.Content
}

// ArgsMatch reports whether a call's arguments, JSON text, satisfy every
// entry of an args_match list (as tools.require reads it).
func ArgsMatch(args string, ms []ArgMatch) bool {
	return argsMismatch(&trace.ToolCall{Args: args, ArgsJSON: json.Valid([]byte(args))}, ms) == ""
}

// argsMismatch returns why call fails an args_match list, or "".
func argsMismatch(call *trace.ToolCall, ms []ArgMatch) string {
	if len(ms) > 0 && !call.ArgsJSON {
		return fmt.Sprintf("args_match: the arguments are not valid JSON (%s)", quote(call.Args))
	}
	for _, m := range ms {
		v, ok := ArgText(call.Args, m.Path)
		if !ok {
			return fmt.Sprintf("args_match.%s: argument %q is missing", m.Path, m.Path)
		}
		if !matches(m.Regex, v) {
			return fmt.Sprintf("args_match.%s: %s does not match `%s`", m.Path, quote(v), m.Regex)
		}
	}
	return ""
}

// resultMismatch returns why call fails result_match (want=true) or
// result_not_match (want=false), or "". A missing result fails result_match
// and passes result_not_match (docs/files.md).
func resultMismatch(call *trace.ToolCall, re *vars.Regex, want bool) string {
	if re == nil {
		return ""
	}
	key := "result_match"
	if !want {
		key = "result_not_match"
	}
	if call.Result == nil {
		if want {
			return fmt.Sprintf("%s `%s`: the call has no result", key, re)
		}
		return ""
	}
	text := ResultText(call.Result)
	switch got := matches(re, text); {
	case want && !got:
		return fmt.Sprintf("%s `%s`: result %s does not match", key, re, quote(text))
	case !want && got:
		return fmt.Sprintf("%s `%s`: result %s matches", key, re, quote(text))
	}
	return ""
}

// matches reports whether re matches s. An unbound pattern matches nothing;
// the engine binds every pattern before evaluating.
func matches(re *vars.Regex, s string) bool {
	c := re.Compiled()
	return c != nil && c.MatchString(s)
}

// excerptLen bounds the text quoted in one-line messages; evidence keeps the
// full values.
const excerptLen = 80

// quote quotes s for a message, shortened to excerptLen characters.
func quote(s string) string { return strconv.Quote(shorten(s, excerptLen)) }

func shorten(s string, n int) string {
	// Walk n runes at most: s may be megabytes of agent text.
	i := 0
	for k := 0; k < n-1 && i < len(s); k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	if i >= len(s) {
		return s
	}
	if _, size := utf8.DecodeRuneInString(s[i:]); i+size >= len(s) {
		return s // exactly n runes
	}
	return s[:i] + "…"
}
