package oaiwire

import (
	"encoding/json"
	"testing"

	"github.com/ananke/action/internal/cost"
)

// TestUsage: the counts each API's usage reports, each known only when
// reported; nil when none is.
func TestUsage(t *testing.T) {
	for _, tc := range []struct {
		name, js  string
		responses bool
		want      string // the tokens as JSON; "" for nil
	}{
		{"chat", `{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15,"prompt_tokens_details":{"cached_tokens":4},"completion_tokens_details":{"reasoning_tokens":2}}`, false,
			`{"input_tokens":10,"output_tokens":5,"total_tokens":15,"reasoning_tokens":2,"cached_input_tokens":4}`},
		{"chat, a negative count unknown", `{"prompt_tokens":-1,"completion_tokens":5}`, false, `{"output_tokens":5}`},
		{"chat, no counts", `{}`, false, ""},
		{"responses", `{"input_tokens":10,"output_tokens":5,"total_tokens":15,"input_tokens_details":{"cached_tokens":4},"output_tokens_details":{"reasoning_tokens":2}}`, true,
			`{"input_tokens":10,"output_tokens":5,"total_tokens":15,"reasoning_tokens":2,"cached_input_tokens":4}`},
		{"responses, chat's names are not its", `{"prompt_tokens":10}`, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var u *cost.Usage
			if tc.responses {
				var r ResponsesUsage
				_ = json.Unmarshal([]byte(tc.js), &r)
				u = r.Usage("m")
			} else {
				var c Usage
				_ = json.Unmarshal([]byte(tc.js), &c)
				u = c.Usage("m")
			}
			got := ""
			if u != nil {
				b, _ := json.Marshal(u.Tokens)
				got = string(b)
				if u.Model != "m" {
					t.Errorf("model %q", u.Model)
				}
			}
			if got != tc.want {
				t.Errorf("tokens %s, want %s", got, tc.want)
			}
		})
	}
}

func TestErrorMessage(t *testing.T) {
	for body, want := range map[string]string{
		`{"error":{"message":"Invalid key","code":"invalid_api_key"}}`: "Invalid key",
		`{"error":"model not found"}`:                                  "model not found",
		`{"detail":"Not Found"}`:                                       "Not Found",
		"<html>\n<b>Bad</b>   gateway</html>":                          "<html> <b>Bad</b> gateway</html>",
	} {
		if got := ErrorMessage([]byte(body)); got != want {
			t.Errorf("ErrorMessage(%s) = %q, want %q", body, got, want)
		}
	}
}
