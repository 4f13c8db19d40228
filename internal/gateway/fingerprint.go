package gateway

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// A request's fingerprint (docs/gateway.md, "Fingerprint") is the hash of
// its canonical JSON once normalised: the fields gateway.ignore names
// removed, tool call ids replaced by ordinals in the order they appear,
// UUIDs and timestamps inside strings replaced by placeholders. Two
// requests that differ only there answer alike in replay. Normalising a
// normalised request changes nothing, so recordings keep requests
// normalised and are normalised again when read, with the ignore list
// of the run.

// Placeholders that stand for what the fingerprint ignores.
const (
	uuidMark = "<uuid>"
	timeMark = "<time>"
	// idMark is followed by the id's ordinal: "<tool-call-1>".
	idMark = "<tool-call-"
)

var (
	uuidRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	})
	// timeRE matches an ISO 8601 date, with a time and zone when written:
	// 2026-11-27, 2026-11-27T10:04:05.123Z, 2026-11-27 10:04+02:00.
	timeRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?`)
	})
)

// errNotObject is a request body that is not a JSON object.
var errNotObject = errors.New("the request body is not a JSON object")

// decodeJSON reads one JSON value, keeping numbers as written.
func decodeJSON(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("more than one JSON value")
	}
	return v, nil
}

// parseRequest reads a request body: a JSON object.
func parseRequest(body []byte) (map[string]any, error) {
	v, err := decodeJSON(body)
	if err != nil {
		return nil, fmt.Errorf("the request body is not JSON: %w", err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errNotObject
	}
	return m, nil
}

// normalize returns the request as the fingerprint sees it; req is not
// changed.
func normalize(req map[string]any, ignore []string) map[string]any {
	out := clone(req).(map[string]any)
	for _, path := range ignore {
		drop(out, strings.Split(path, "."))
	}
	ids := map[string]string{}
	return normalizeValue(out, "", ids).(map[string]any)
}

// clone copies a decoded JSON value.
func clone(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = clone(e)
		}
		return m
	case []any:
		s := make([]any, len(x))
		for i, e := range x {
			s[i] = clone(e)
		}
		return s
	}
	return v
}

// drop removes the field at path, walking through lists.
func drop(v any, path []string) {
	switch x := v.(type) {
	case map[string]any:
		if len(path) == 1 {
			delete(x, path[0])
			return
		}
		if e, ok := x[path[0]]; ok {
			drop(e, path[1:])
		}
	case []any:
		for _, e := range x {
			drop(e, path)
		}
	}
}

// normalizeValue rewrites ids and strings, visiting mapping keys in
// sorted order so ordinals do not depend on map iteration. key is the
// field v is the value of.
func normalizeValue(v any, key string, ids map[string]string) any {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			x[k] = normalizeValue(x[k], k, ids)
		}
		if key == "tool_calls" {
			// an element of tool_calls: its id is a tool call id
			if id, ok := x["id"].(string); ok {
				x["id"] = ordinal(ids, id)
			}
		}
		return x
	case []any:
		for i, e := range x {
			if key == "tool_calls" {
				if m, ok := e.(map[string]any); ok {
					x[i] = normalizeValue(m, "tool_calls", ids)
					continue
				}
			}
			x[i] = normalizeValue(e, "", ids)
		}
		return x
	case string:
		if key == "tool_call_id" {
			return ordinal(ids, x)
		}
		return scrub(x)
	}
	return v
}

// ordinal is the placeholder of a tool call id: the same id gets the
// same one within a request.
func ordinal(ids map[string]string, id string) string {
	if p, ok := ids[id]; ok {
		return p
	}
	p := idMark + strconv.Itoa(len(ids)+1) + ">"
	ids[id] = p
	return p
}

// scrub replaces UUIDs and timestamps inside a string.
func scrub(s string) string {
	if !strings.ContainsRune(s, '-') {
		return s
	}
	s = uuidRE().ReplaceAllLiteralString(s, uuidMark)
	return timeRE().ReplaceAllLiteralString(s, timeMark)
}

// canonical is v's JSON with sorted keys, no insignificant space and
// no HTML escaping.
func canonical(v any) []byte { return encode(v, "") }

// pretty is v's JSON, indented, for diffs.
func pretty(v any) string { return string(encode(v, "  ")) }

func encode(v any, indent string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", indent)
	if err := enc.Encode(v); err != nil {
		// decoded JSON always encodes
		panic(fmt.Sprintf("gateway: encode JSON: %v", err))
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// fingerprint is the hash of a normalised request.
func fingerprint(norm map[string]any) string {
	sum := sha256.Sum256(canonical(norm))
	return hex.EncodeToString(sum[:])
}
