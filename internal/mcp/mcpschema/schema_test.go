package mcpschema

import (
	"slices"
	"strings"
	"testing"
)

func TestInvalidSchemas(t *testing.T) {
	tests := []struct {
		name string
		list string
		want []string // substrings, one per message, in order
	}{
		{"valid", `{"tools":[
			{"name":"a","inputSchema":{"type":"object","properties":{"x":{"type":"number"}},"required":["x"]}},
			{"name":"b","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"t":{"type":"number"}}}},
			{"name":"c","inputSchema":{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","definitions":{"d":{"type":"string"}},"properties":{"y":{"$ref":"#/definitions/d"}}}}]}`, nil},
		{"no tools", `{"tools":[]}`, nil},
		{"bad type keyword", `{"tools":[{"name":"a","inputSchema":{"type":"object","properties":{"x":{"type":"strin"}}}}]}`,
			[]string{`tool "a": inputSchema is not a valid JSON Schema: `}},
		{"negative minimum", `{"tools":[{"name":"a","inputSchema":{"type":"object","minProperties":-1}}]}`,
			[]string{`tool "a": inputSchema is not a valid JSON Schema: `}},
		{"not an object type", `{"tools":[{"name":"a","inputSchema":{"type":"string"}}]}`,
			[]string{`tool "a": inputSchema must have "type": "object", has "string"`}},
		{"no type", `{"tools":[{"name":"a","inputSchema":{"properties":{}}}]}`,
			[]string{`has none`}},
		{"missing", `{"tools":[{"name":"a"},{"name":"b","inputSchema":null}]}`,
			[]string{`tool "a" has no inputSchema`, `tool "b" has no inputSchema`}},
		{"not an object", `{"tools":[{"name":"a","inputSchema":[1]}]}`,
			[]string{`tool "a": inputSchema is not a JSON object`}},
		{"external ref", `{"tools":[{"name":"a","inputSchema":{"type":"object","properties":{"x":{"$ref":"file:///etc/passwd"}}}}]}`,
			[]string{`tool "a": inputSchema is not a valid JSON Schema: `}},
		{"bad output schema", `{"tools":[{"name":"a","inputSchema":{"type":"object"},"outputSchema":{"type":"object","required":"x"}}]}`,
			[]string{`tool "a": outputSchema is not a valid JSON Schema`}},
		{"unnamed tool", `{"tools":[{"inputSchema":{"type":"array"}}, 3]}`,
			[]string{`tools[0] (no name): inputSchema must have`, `tools[1] is not a tool object`}},
		{"not JSON", `nope`, []string{"the tools/list result is not a JSON object"}},
		{"no list", `{"items":[]}`, []string{`has no "tools" list`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := InvalidSchemas([]byte(tc.list))
			ok := len(got) == len(tc.want)
			for i := range got {
				ok = ok && i < len(tc.want) && strings.Contains(got[i], tc.want[i])
			}
			if !ok {
				t.Errorf("InvalidSchemas = %q, want messages containing %q", got, tc.want)
			}
			if slices.ContainsFunc(got, func(m string) bool { return strings.Contains(m, "ananke.invalid") }) {
				t.Errorf("a message shows the internal schema URL: %q", got)
			}
		})
	}
}

func FuzzInvalidSchemas(f *testing.F) {
	f.Add([]byte(`{"tools":[{"name":"a","inputSchema":{"type":"object"}}]}`))
	f.Add([]byte(`{"tools":[{"name":"a","inputSchema":{"type":"object","properties":{"x":{"$ref":"#/nope"}}}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		InvalidSchemas(data) // never panics
	})
}
