package console_test

import (
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/reporters/console"
)

// TestModelLine: the judges' and simulator's line says what was used, and
// tokens an endpoint did not report are unknown or a lower bound, never
// a zero.
func TestModelLine(t *testing.T) {
	for _, tc := range []struct {
		name string
		u    report.Usage
		want string
	}{
		{"none", report.Usage{}, ""},
		{"reported", report.Usage{Requests: 12, CacheHits: 3, PromptTokens: 4210, CompletionTokens: 612},
			"Model: 12 requests, 3 answers from the cache, 4,210 prompt + 612 completion tokens"},
		{"some unreported", report.Usage{Requests: 3, PromptTokens: 4210, CompletionTokens: 612, Unreported: 1},
			"Model: 3 requests, 0 answers from the cache, ≥ 4,210 prompt + ≥ 612 completion tokens (1 reply reported no usage)"},
		{"none reported", report.Usage{Requests: 2, Unreported: 2},
			"Model: 2 requests, 0 answers from the cache, tokens unknown (no reply reported usage)"},
	} {
		if got := console.ModelLine(tc.u); got != tc.want {
			t.Errorf("%s: ModelLine = %q, want %q", tc.name, got, tc.want)
		}
	}
}
