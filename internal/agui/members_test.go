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
		var want map[string]json.RawMessage
		isObject := json.Unmarshal(data, &want) == nil
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
