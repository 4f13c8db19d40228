package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// excerptLen is how much of a hook's stdout an error quotes: enough to
// recognise what was printed, short enough for a one-line message.
const excerptLen = 120

// emptyStdout is the detail for a hook that printed nothing; it shows the
// expected shape because a first-time user may not know it.
const emptyStdout = `stdout is empty; a hook must print one JSON object such as {"TOKEN": "..."}`

// parseVars turns a hook's stdout into variables. stdout must hold exactly
// one JSON object whose values are strings, numbers or booleans. On failure
// it returns a message for Error.Detail.
func parseVars(stdout []byte) (map[string]string, string) {
	if len(bytes.TrimSpace(stdout)) == 0 {
		return nil, emptyStdout
	}
	dec := json.NewDecoder(bytes.NewReader(stdout))
	// UseNumber keeps a number's text as written: 1.50 stays "1.50" and a
	// large ID is not rounded through float64.
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, fmt.Sprintf("stdout is not complete JSON (%v): %s", err, excerpt(stdout))
		}
		return nil, fmt.Sprintf("stdout is not JSON (%v): %s", err, excerpt(stdout))
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Sprintf("stdout is %s, not a JSON object: %s", jsonType(v), excerpt(stdout))
	}
	end := dec.InputOffset()
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Sprintf("stdout has more after the JSON object (print exactly one object): %s",
			excerpt(bytes.TrimSpace(stdout[end:])))
	}

	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	// Sorted, so the same bad output always names the same key.
	sort.Strings(keys)
	vars := make(map[string]string, len(obj))
	for _, k := range keys {
		if !validName(k) {
			return nil, fmt.Sprintf("variable name %q is not valid: use letters, digits and _, not starting with a digit (it is referenced as ${NAME})", k)
		}
		switch x := obj[k].(type) {
		case string:
			vars[k] = x
		case json.Number:
			vars[k] = x.String()
		case bool:
			vars[k] = strconv.FormatBool(x)
		default:
			return nil, fmt.Sprintf("value of %q is %s; values must be strings, numbers or booleans", k, jsonType(x))
		}
	}
	return vars, ""
}

// ParseOutput reads variables as a hook prints them: one JSON object whose
// values are strings, numbers or booleans (a hook's output kept in a
// fixture file).
func ParseOutput(b []byte) (map[string]string, error) {
	vars, detail := parseVars(b)
	if detail != "" {
		return nil, errors.New(strings.Replace(detail, "stdout", "output", 1))
	}
	return vars, nil
}

// validName reports whether name matches ^[A-Za-z_][A-Za-z0-9_]*$, the
// names ${NAME} can refer to.
func validName(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '_', 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case '0' <= c && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// jsonType names the JSON type of a value decoded with UseNumber.
func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	}
	return fmt.Sprintf("%T", v)
}

// excerpt quotes the start of b for a one-line message, cut at a rune
// boundary.
func excerpt(b []byte) string {
	if len(b) <= excerptLen {
		return strconv.Quote(string(b))
	}
	cut := excerptLen
	for cut > 0 && !utf8.RuneStart(b[cut]) {
		cut--
	}
	return strconv.Quote(string(b[:cut])) + fmt.Sprintf(" (%d bytes in all)", len(b))
}
