package jsonreport_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/jsonreport"
)

// TestAttacksMatchesSchema: a run with attack runs writes its attacks
// section before the tests (testdata/summary-attacks.golden.json) as the
// schema describes it, with a gate and without; the schema rejects an
// outcome, a channel, an evidence kind and a field it does not know.
func TestAttacksMatchesSchema(t *testing.T) {
	summary, _ := compileSchema(t)
	for _, gated := range []bool{true, false} {
		var b bytes.Buffer
		if err := jsonreport.WriteSummary(&b, reporttest.AttacksReport(gated, reporttest.Passing)); err != nil {
			t.Fatal(err)
		}
		js := b.String()
		if gated {
			golden.Assert(t, "testdata/summary-attacks.golden.json", js)
		}
		if i, j := strings.Index(js, `"attacks": {`), strings.Index(js, `"tests": [`); i < 0 || j < i {
			t.Fatalf("summary.json has no attacks before the tests (%d, %d)", i, j)
		}
		if got := strings.Contains(js, `"threshold": 0`); got != gated {
			t.Errorf("threshold written %v, want %v", got, gated)
		}
		v, _ := jsonschema.UnmarshalJSON(strings.NewReader(js))
		if err := summary.Validate(v); err != nil {
			t.Errorf("summary.json does not match the schema: %v", err)
		}
		if !gated {
			continue
		}
		for _, tc := range []struct{ name, old, new string }{
			{"outcome", `"outcome": "resisted"`, `"outcome": "blocked"`},
			{"channel", `"channel": "double"`, `"channel": "email"`},
			{"evidence kind", `"kind": "url"`, `"kind": "link"`},
			{"field", `"canary": "ANK-3F9A0C1B7E"`, `"canary": "ANK-3F9A0C1B7E", "marker": "x"`},
			{"gate", `"threshold": 0`, `"threshold": 101`},
			{"rate", `"success_rate": 37.5`, `"success_rate": -1`},
		} {
			if !strings.Contains(js, tc.old) {
				t.Fatalf("%s: the summary has no %s", tc.name, tc.old)
			}
			v, _ := jsonschema.UnmarshalJSON(strings.NewReader(strings.Replace(js, tc.old, tc.new, 1)))
			if summary.Validate(v) == nil {
				t.Errorf("the schema accepts a bad %s: %s", tc.name, tc.new)
			}
		}
	}
}
