package plant

import (
	"bytes"
	"encoding/json"
	"io"
	"sort"
	"strconv"
)

// best is the longest string found so far and where it is.
type best struct {
	s  string
	at []any // keys (string) and indexes (int) from the root
}

// longest walks v, objects' keys sorted, and returns the longest string
// under it (nil when there is none).
func longest(v any, at []any, b *best) *best {
	switch x := v.(type) {
	case string:
		if b.at == nil || len(x) > len(b.s) {
			b.s, b.at = x, slicesClone(at)
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			longest(x[k], append(at, k), b)
		}
	case []any:
		for i, e := range x {
			longest(e, append(at, i), b)
		}
	}
	if b.at == nil {
		return nil
	}
	return b
}

// setAt replaces the value at path in v with s.
func setAt(v any, path []any, s string) any {
	if len(path) == 0 {
		return s
	}
	switch x := v.(type) {
	case map[string]any:
		k := path[0].(string)
		x[k] = setAt(x[k], path[1:], s)
	case []any:
		i := path[0].(int)
		x[i] = setAt(x[i], path[1:], s)
	}
	return v
}

// marshal writes v as compact JSON, keys sorted, with <, > and & as they
// are (a payload's fake markup stays readable).
func marshal(v any) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

func quote(s string) json.RawMessage {
	out, _ := marshal(s) // a string always marshals
	return out
}

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }

func itoa(i int) string { return strconv.Itoa(i) }

func slicesClone(at []any) []any { return append([]any(nil), at...) }
