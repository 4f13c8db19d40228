package hooks

import (
	"maps"
	"strings"
	"testing"
)

func TestParseVars(t *testing.T) {
	tests := []struct {
		name       string
		stdout     string
		want       map[string]string
		wantDetail []string // substrings; empty means success
	}{
		{name: "values", stdout: `{"S":"a","N":1.50,"I":-7,"E":2E-3,"T":true,"F":false}`,
			want: map[string]string{"S": "a", "N": "1.50", "I": "-7", "E": "2E-3", "T": "true", "F": "false"}},
		{name: "escaped string", stdout: `{"S":"line\nnext \"q\" \u2713"}`, want: map[string]string{"S": "line\nnext \"q\" ✓"}},
		{name: "empty object", stdout: "{}\n", want: map[string]string{}},
		{name: "empty", stdout: "", wantDetail: []string{emptyStdout}},
		{name: "blank", stdout: " \r\n\t", wantDetail: []string{emptyStdout}},
		{name: "not JSON", stdout: "TOKEN=abc\n", wantDetail: []string{"not JSON", `"TOKEN=abc\n"`}},
		{name: "truncated", stdout: `{"A":`, wantDetail: []string{"not complete JSON"}},
		{name: "string", stdout: `"abc"`, wantDetail: []string{"a string, not a JSON object"}},
		{name: "number", stdout: `42`, wantDetail: []string{"a number, not a JSON object"}},
		{name: "null", stdout: `null`, wantDetail: []string{"null, not a JSON object"}},
		{name: "two objects", stdout: "{\"A\":\"1\"}\n{\"B\":\"2\"}\n", wantDetail: []string{"more after", `"{\"B\":\"2\"}"`}},
		{name: "trailing garbage", stdout: `{"A":"1"} done`, wantDetail: []string{"more after", `"done"`}},
		{name: "null value", stdout: `{"A":null}`, wantDetail: []string{`value of "A" is null`}},
		{name: "array value", stdout: `{"A":[]}`, wantDetail: []string{`value of "A" is an array`}},
		{name: "object value", stdout: `{"A":{}}`, wantDetail: []string{`value of "A" is an object`}},
		{name: "first bad key in sorted order", stdout: `{"Z":null,"B":[]}`, wantDetail: []string{`"B"`}},
		{name: "name starts with digit", stdout: `{"1A":"x"}`, wantDetail: []string{`variable name "1A" is not valid`}},
		{name: "name with dash", stdout: `{"A-B":"x"}`, wantDetail: []string{`"A-B"`}},
		{name: "empty name", stdout: `{"":"x"}`, wantDetail: []string{`variable name "" is not valid`}},
		{name: "long non-JSON is cut", stdout: strings.Repeat("é", 200), wantDetail: []string{"(400 bytes in all)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, detail := parseVars([]byte(tc.stdout))
			if len(tc.wantDetail) == 0 {
				if detail != "" {
					t.Fatalf("parseVars(%q) failed: %s", tc.stdout, detail)
				}
				if got == nil || !maps.Equal(got, tc.want) {
					t.Errorf("parseVars(%q) = %v, want %v", tc.stdout, got, tc.want)
				}
				return
			}
			if got != nil {
				t.Errorf("parseVars(%q) = %v, want nil", tc.stdout, got)
			}
			for _, want := range tc.wantDetail {
				if !strings.Contains(detail, want) {
					t.Errorf("parseVars(%q) detail = %q, want it to contain %q", tc.stdout, detail, want)
				}
			}
			if strings.ContainsAny(detail, "\n\r") {
				t.Errorf("detail = %q, want one line", detail)
			}
		})
	}
}

func TestValidName(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"A", true}, {"_", true}, {"token_2", true}, {"_9", true}, {"Ab9_z", true},
		{"", false}, {"9A", false}, {"A-B", false}, {"A B", false}, {"A.B", false}, {"é", false}, {"${A}", false},
	}
	for _, tc := range tests {
		if got := validName(tc.name); got != tc.want {
			t.Errorf("validName(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
}
