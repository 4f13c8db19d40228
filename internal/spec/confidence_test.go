package spec

import "testing"

// TestConfidence: the config's confidence level, its default, and an
// out-of-range or non-numeric level reported at its place.
func TestConfidence(t *testing.T) {
	for _, tc := range []struct {
		field string
		want  float64
	}{
		{"", DefaultConfidence},
		{"confidence: 90\n", 90},
		{"confidence: 99.9\n", 99.9},
		{"confidence: 50\n", 50},
	} {
		if got := mustConfig(t, minimalConfig+tc.field).ConfidenceLevel(); got != tc.want {
			t.Errorf("%q: confidence %v, want %v", tc.field, got, tc.want)
		}
	}
	for _, tc := range []struct{ field, want string }{
		{"confidence: 100", ":6:13: confidence must be a percentage from 50 to 99.9, got 100"},
		{"confidence: 49.5", "confidence must be a percentage from 50 to 99.9, got 49.5"},
		{"confidence: 0.95", "confidence must be a percentage from 50 to 99.9, got 0.95"},
		{"confidence: \"95%\"", ":6:13: confidence must be a number, not a string"},
		{"confidense: 95", `unknown field "confidense" in config (did you mean "confidence"?)`},
	} {
		t.Run(tc.field, func(t *testing.T) {
			_, diags := parseConfig(t, minimalConfig+tc.field+"\n")
			if !hasDiag(diags, tc.want) {
				t.Errorf("diagnostics:\n%s\nwant one containing %q", diags.Error(), tc.want)
			}
		})
	}
	_, diags := parseTest(t, "version: \"1.0\"\nname: x\nconfidence: 90\nturns: [{user: hi}]\n")
	if !hasDiag(diags, `unknown field "confidence" in test`) {
		t.Errorf("a test file's confidence: diagnostics\n%s\nwant it unknown: the level is the run's, set in the config", diags.Error())
	}
}
