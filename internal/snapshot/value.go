package snapshot

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
)

// Values a snapshot holds are JSON values as encoding/json decodes them,
// but for numbers, kept as written (json.Number): map[string]any, []any,
// string, json.Number, bool and nil.

// parseArgs reads a call's arguments: a JSON value, numbers as written;
// text that is not JSON is kept as one string, and no text is nil.
func parseArgs(raw string) any {
	if strings.TrimSpace(raw) == "" {
		return nil
	}
	dec := json.NewDecoder(strings.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return raw
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return raw // more than one value
	}
	return v
}

// equal reports whether two values are equal, numbers within tol.
func equal(a, b any, tol float64) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !equal(xv, yv, tol) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equal(x[i], y[i], tol) {
				return false
			}
		}
		return true
	case json.Number:
		y, ok := b.(json.Number)
		return ok && numbersEqual(x, y, tol)
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case nil:
		return b == nil
	}
	return false
}

// numbersEqual compares two numbers as written: the same text, or values
// at most tol apart.
func numbersEqual(a, b json.Number, tol float64) bool {
	if a == b {
		return true
	}
	x, err1 := strconv.ParseFloat(string(a), 64)
	y, err2 := strconv.ParseFloat(string(b), 64)
	if err1 != nil || err2 != nil {
		return false
	}
	return math.Abs(x-y) <= tol
}

// compact renders a value as one line of JSON, numbers as written and
// members in order.
func compact(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "?"
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// clone copies a value deeply.
func clone(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, mv := range x {
			m[k] = clone(mv)
		}
		return m
	case []any:
		s := make([]any, len(x))
		for i := range x {
			s[i] = clone(x[i])
		}
		return s
	}
	return v
}
