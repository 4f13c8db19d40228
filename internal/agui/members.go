package agui

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// member is one top-level key/value of a JSON object, as slices of the
// frame (no copies).
type member struct {
	key []byte // without quotes, still escaped when escaped is true
	val []byte
	esc bool
}

// members splits a JSON object into its top-level members. data must be
// valid JSON (json.Valid); it returns false when it is not an object. Splitting
// once and slicing avoids encoding/json's map and per-field allocations,
// which dominated the stream pipeline's profile.
func members(data []byte, out []member) ([]member, bool) {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return out, false
	}
	i++
	for {
		i = skipSpace(data, i)
		if data[i] == '}' {
			return out, true
		}
		end, esc := stringEnd(data, i)
		key := data[i+1 : end-1]
		i = skipSpace(data, end)
		i = skipSpace(data, i+1) // ':'
		vend := valueEnd(data, i)
		out = append(out, member{key: key, val: data[i:vend], esc: esc})
		i = skipSpace(data, vend)
		if data[i] == ',' {
			i++
		}
	}
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// stringEnd returns the index just past the string starting at data[i]
// (a quote), and whether it holds escapes.
func stringEnd(data []byte, i int) (int, bool) {
	esc := false
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			esc = true
			j++
		case '"':
			return j + 1, esc
		}
	}
	return len(data), esc
}

// valueEnd returns the index just past the value starting at data[i].
func valueEnd(data []byte, i int) int {
	switch data[i] {
	case '"':
		end, _ := stringEnd(data, i)
		return end
	case '{', '[':
		depth := 0
		for j := i; j < len(data); j++ {
			switch data[j] {
			case '"':
				end, _ := stringEnd(data, j)
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return len(data)
	}
	j := i // a number, true, false or null
	for j < len(data) {
		switch data[j] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return j
		}
		j++
	}
	return j
}

// unquote decodes a JSON string value as encoding/json does (invalid UTF-8
// becomes U+FFFD); the common case, plain UTF-8 without escapes, costs one
// allocation.
func unquote(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	if inner := raw[1 : len(raw)-1]; bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		return string(inner), true
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// keyString returns a member's key as a string.
func (m member) keyString() string {
	if !m.esc && utf8.Valid(m.key) {
		return string(m.key)
	}
	s, _ := unquote(append(append([]byte{'"'}, m.key...), '"'))
	return s
}

// interner hands out one string for every occurrence of the same
// identifier or name in a stream (a message id repeated by a hundred
// thousand deltas is one string, not a hundred thousand).
type interner struct {
	m map[string]string
}

// Identifiers longer than this, and strings past internMax of them, are
// not interned: the table stays small whatever the stream sends.
const (
	internLen = 128
	internMax = 4096
)

// unquote is unquote, interned; a nil interner interns nothing, nor is a
// string with escapes interned.
func (in *interner) unquote(raw []byte) (string, bool) {
	if in == nil || len(raw) < 2 || len(raw) > internLen+2 || raw[0] != '"' {
		return unquote(raw)
	}
	inner := raw[1 : len(raw)-1]
	if s, ok := in.m[string(inner)]; ok { // no copy for the lookup
		return s, true
	}
	s, ok := unquote(raw)
	if ok && len(in.m) < internMax && s == string(inner) {
		if in.m == nil {
			in.m = map[string]string{}
		}
		in.m[s] = s
	}
	return s, ok
}
