package agui

import (
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzMembers checks the member scanner against encoding/json: for every
// valid JSON object, the same keys map to the same values (the last
// duplicate wins, as with a map).
func FuzzMembers(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1}`, ` { "a" : "x\"}" , "b":[1,{"c":"]"}], "d":null } `, `{"k\u0065y":true,"key":false}`, `[1]`, `"s"`, `{"a":{"b":{}}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return
		}
		// An object is what decodes to a map through any: json.Unmarshal
		// into a map also accepts null (leaving the map nil), which is
		// not an object.
		var v any
		_ = json.Unmarshal(data, &v)
		_, isObject := v.(map[string]any)
		var want map[string]json.RawMessage
		if isObject {
			if err := json.Unmarshal(data, &want); err != nil {
				t.Fatalf("encoding/json decodes %q as any but not as a map: %v", data, err)
			}
		}
		ms, ok := members(data, nil)
		if ok != isObject {
			t.Fatalf("members(%q) object = %v; encoding/json says %v", data, ok, isObject)
		}
		if !ok {
			return
		}
		got := map[string]string{}
		for _, m := range ms {
			var v any
			if err := json.Unmarshal(m.val, &v); err != nil {
				t.Fatalf("value %q of %q is not JSON: %v", m.val, data, err)
			}
			got[m.keyString()] = string(m.val)
		}
		norm := func(raw string) any { var v any; json.Unmarshal([]byte(raw), &v); return v }
		if len(got) != len(want) {
			t.Fatalf("members(%q) keys %v; want %v", data, got, want)
		}
		for k, v := range want {
			if !reflect.DeepEqual(norm(got[k]), norm(string(v))) {
				t.Fatalf("members(%q)[%q] = %s; want %s", data, k, got[k], v)
			}
		}
	})
}
