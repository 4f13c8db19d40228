package spec

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/vars"
)

// TestReferencePositions checks the column of a reference inside plain,
// double-quoted and single-quoted scalars.
func TestReferencePositions(t *testing.T) {
	src := `version: "1.0"
name: positions
hooks:
  - cmd: ["setup"]
turns:
  - user: plain ${A}
  - user: "quoted ${B}"
  - user: 'it''s ${C}'
  - user: |
      block ${D}
`
	tt := mustTest(t, src)
	want := []string{"t.ananke.yaml:6:17", "t.ananke.yaml:7:19", "t.ananke.yaml:8:18", "t.ananke.yaml:9:11"}
	for i, turn := range tt.Turns {
		refs := turn.User.Refs()
		if len(refs) != 1 || refs[0].Pos.String() != want[i] {
			t.Errorf("turn %d refs = %v; want one at %s", i, refs, want[i])
		}
	}
}

func TestRegexBindQuotesValues(t *testing.T) {
	tt := mustTest(t, `version: "1.0"
name: regex vars
hooks: [{cmd: [setup]}]
turns:
  - user: hi
    assert:
      text:
        must_match: "^total: ${AMOUNT}$"
`)
	re := payloads[assertion.Pattern](tt.Turns[0].Assert, assertion.KindMustMatch)[0].Regex
	if re.Compiled() != nil {
		t.Fatal("a pattern with references must not be compiled before binding")
	}
	v := vars.NewVars(nil)
	v.Set("AMOUNT", "4.20 (USD)")
	bound, err := re.Bind(v)
	if err != nil {
		t.Fatal(err)
	}
	for s, want := range map[string]bool{"total: 4.20 (USD)": true, "total: 4x20 (USD)": false, "total: 4.20 USD": false} {
		if got := bound.Compiled().MatchString(s); got != want {
			t.Errorf("bound %q matches %q = %v; want %v", bound.Compiled(), s, got, want)
		}
	}
	if _, err := re.Bind(vars.NewVars(nil)); err == nil || !strings.Contains(err.Error(), "unknown variable ${AMOUNT}") {
		t.Errorf("Bind without the variable = %v; want an unknown variable error", err)
	}
}
