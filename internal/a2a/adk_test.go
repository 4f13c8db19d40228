package a2a

import (
	"encoding/json"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

func TestADKPart(t *testing.T) {
	part := func(js string) *a2a.Part {
		var p a2a.Part
		if err := json.Unmarshal([]byte(js), &p); err != nil {
			t.Fatal(err)
		}
		return &p
	}
	tests := []struct {
		name string
		part string
		want *toolPart
	}{
		{"ADK call", `{"data":{"id":"c1","name":"get_weather","args":{"city":"Paris"}},"metadata":{"adk_type":"function_call"}}`,
			&toolPart{kind: adkCall, id: "c1", name: "get_weather", value: json.RawMessage(`{"city":"Paris"}`)}},
		{"ADK response", `{"data":{"id":"c1","name":"get_weather","response":{"temp_c":21}},"metadata":{"adk_type":"function_response"}}`,
			&toolPart{kind: adkResponse, id: "c1", name: "get_weather", value: json.RawMessage(`{"temp_c":21}`)}},
		{"ADK error response", `{"data":{"id":"c1","name":"f","response":{"error":"boom"}},"metadata":{"adk_type":"function_response"}}`,
			&toolPart{kind: adkResponse, id: "c1", name: "f", value: json.RawMessage(`{"error":"boom"}`), errText: "boom"}},
		{"unprefixed marker", `{"data":{"name":"f"},"metadata":{"type":"function_call"}}`,
			&toolPart{kind: adkCall, name: "f", value: json.RawMessage(`{}`)}},
		{"wrapped call", `{"data":{"function_call":{"id":"c2","name":"f","args":{"a":1}}}}`,
			&toolPart{kind: adkCall, id: "c2", name: "f", value: json.RawMessage(`{"a":1}`)}},
		{"wrapped response, camelCase", `{"data":{"functionResponse":{"id":"c2","name":"f","response":"ok"}}}`,
			&toolPart{kind: adkResponse, id: "c2", name: "f", value: json.RawMessage(`"ok"`)}},
		{"other data", `{"data":{"temp_c":21}}`, nil},
		{"no name", `{"data":{"id":"x"},"metadata":{"adk_type":"function_call"}}`, nil},
		{"data not an object", `{"data":[1,2],"metadata":{"adk_type":"function_call"}}`, nil},
		{"text", `{"text":"function_call"}`, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := adkPart(part(tc.part))
			if ok != (tc.want != nil) {
				t.Fatalf("adkPart ok %t; want %t", ok, tc.want != nil)
			}
			if !ok {
				return
			}
			if got.kind != tc.want.kind || got.id != tc.want.id || got.name != tc.want.name ||
				string(got.value) != string(tc.want.value) || got.errText != tc.want.errText {
				t.Errorf("adkPart = %+v (value %s); want %+v (value %s)", got, got.value, *tc.want, tc.want.value)
			}
		})
	}
}
