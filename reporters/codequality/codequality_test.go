package codequality_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/codequality"
	"github.com/ananke/action/reporters/internal/issues/issuestest"
	"github.com/ananke/action/reporters/internal/suitetest"
)

// clean is a run with nothing to show: the passing test of the fixture
// without its failing warning and its check not made.
func clean() *report.Report {
	r := reporttest.Pick(false, reporttest.Passing)
	t := &r.Tests[0]
	t.Assertions = slices.DeleteFunc(t.Assertions, func(a report.Assertion) bool { return a.Status != status.Pass })
	return r
}

func render(t *testing.T, r *report.Report) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := codequality.Write(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestGolden: each fixture's report, as written; every one valid against
// the schema written from GitLab's documentation, with fingerprints unique
// in the file (GitLab keeps one issue per fingerprint), and no secret.
func TestGolden(t *testing.T) {
	for name, r := range issuestest.Fixtures() {
		t.Run(name, func(t *testing.T) {
			out := render(t, r)
			golden.Assert(t, "testdata/"+name+".golden.json", string(out))
			Validate(t, out)
			issuestest.NoSecret(t, out)
		})
	}
}

// TestNothingWrong: a run with nothing to show is an empty array, which
// GitLab reads as no issues.
func TestNothingWrong(t *testing.T) {
	for name, r := range map[string]*report.Report{"no tests": reporttest.Pick(false), "clean": clean()} {
		if got := string(render(t, r)); got != "[]\n" {
			t.Errorf("%s: %q; want []", name, got)
		}
	}
}

// TestIssues: which problem becomes which issue, at which line and of
// which severity (docs/reports.md's table).
func TestIssues(t *testing.T) {
	type row struct{ at, check, severity, description string }
	for _, tc := range []struct {
		name string
		r    *report.Report
		want []row
	}{
		{"failing, flaky, errored, warnings", reporttest.Report(), []row{
			{"tests/checkout.ananke.yaml:14", "ananke/tools.forbid_calls", "critical", "checkout declines the card: forbidden call to `charge_card`"},
			{"tests/checkout.ananke.yaml:17", "ananke/text.must_not_match", "critical", "checkout declines the card: assistant text in turn[1] matches forbidden `declined`: \"Payment \\x1b[31mdeclined"},
			{"tests/flip.ananke.yaml:9", "ananke/tools.require", "critical", "search flips: failed in 2 of 3 attempts (95% CI 21–94%): `search` was never called"},
			{"tests/refund.ananke.yaml:5", "ananke/test", "major", "refund needs a seeded order: errored: hooks[0]: hook \"bash seed.sh\" exited with status 3; stderr: cannot reach db with ***"},
			{"tests/search.ananke.yaml:9", "ananke/tools.require", "minor", "search finds shoes: flaky, failed in 1 of 3 runs (95% CI 6–79%), first in run 2: `search` was never called"},
			{"tests/weather.ananke.yaml:7", "ananke/grounded", "minor", "weather in Paris: warning: 1 claim in turn[0]'s reply"},
			{"tests/weather.ananke.yaml:8", "ananke/judge", "info", "weather in Paris: could not be checked (warning): the judge gave no verdict"},
		}},
		{"suite hook, dataset, check not made", suitetest.Report(), []row{
			{"ananke.config.yaml:9", "ananke/hook", "major", "after_all[0] failed: after_all[0]: hook \"./cleanup.sh\" exited with status 1; stderr: boom"},
			{"tests/receipts.ananke.jsonl:3", "ananke/text.must_match", "critical", "reads the receipt total: assistant text in turn[0] does not match"},
			{"tests/receipts.ananke.jsonl:3", "ananke/script", "critical", "reads the receipt total: total 12.00 is not the receipt's 42.00"},
			{"tests/receipts.ananke.jsonl:3", "ananke/after_hook", "major", "reads the receipt total: could not be checked: after[0]: hook \"./reset.sh\""},
			{"tests/receipts.ananke.jsonl:4", "ananke/test", "major", "reads a scanned invoice: errored: turn[0]: the agent sent nothing for 30s"},
		}},
		{"quarantined: at most minor", reporttest.QuarantineReport(reporttest.Failing, reporttest.Errored), []row{
			{"tests/checkout.ananke.yaml:14", "ananke/tools.forbid_calls", "minor", "checkout declines the card (quarantined): forbidden call"},
			{"tests/checkout.ananke.yaml:17", "ananke/text.must_not_match", "minor", "checkout declines the card (quarantined): assistant text"},
			{"tests/refund.ananke.yaml:5", "ananke/test", "minor", "refund needs a seeded order (quarantined): errored: hooks[0]"},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := codequality.Issues(tc.r)
			if len(got) != len(tc.want) {
				t.Fatalf("%d issues; want %d: %+v", len(got), len(tc.want), got)
			}
			for i, w := range tc.want {
				g := got[i]
				at := fmt.Sprintf("%s:%d", g.Location.Path, g.Location.Lines.Begin)
				if at != w.at || g.CheckName != w.check || g.Severity != w.severity || !strings.HasPrefix(g.Description, w.description) {
					t.Errorf("issue %d = %s %s %s %q\nwant %s %s %s %q…", i, at, g.CheckName, g.Severity, g.Description, w.at, w.check, w.severity, w.description)
				}
			}
		})
	}
}

// TestFingerprints: a fingerprint is the same in two builds of the same
// run, differs between assertions, and stays when the assertion moves to
// another line.
func TestFingerprints(t *testing.T) {
	a, b := codequality.Issues(reporttest.Report()), codequality.Issues(reporttest.Report())
	if len(a) < 3 {
		t.Fatalf("%d issues; the fixture has more", len(a))
	}
	seen := map[string]string{}
	for i := range a {
		if a[i].Fingerprint != b[i].Fingerprint {
			t.Errorf("issue %d: fingerprint %s then %s", i, a[i].Fingerprint, b[i].Fingerprint)
		}
		if other, ok := seen[a[i].Fingerprint]; ok {
			t.Errorf("%q and %q share fingerprint %s", other, a[i].Description, a[i].Fingerprint)
		}
		seen[a[i].Fingerprint] = a[i].Description
	}
	moved := reporttest.Report()
	for i := range moved.Tests {
		for k := range moved.Tests[i].Assertions {
			moved.Tests[i].Assertions[k].Source.Line += 10
		}
	}
	c := codequality.Issues(moved)
	for i := range a {
		if c[i].Fingerprint != a[i].Fingerprint || c[i].Location.Lines.Begin == a[i].Location.Lines.Begin && a[i].CheckName != "ananke/test" {
			t.Errorf("moved 10 lines down: %s at %d, was %s at %d", c[i].Fingerprint, c[i].Location.Lines.Begin, a[i].Fingerprint, a[i].Location.Lines.Begin)
		}
	}
}

// TestOutsideTheRepository: a position outside the repository cannot be
// shown beside the source: its issue is left out.
func TestOutsideTheRepository(t *testing.T) {
	r := reporttest.Pick(false, reporttest.Failing)
	for k := range r.Tests[0].Assertions {
		r.Tests[0].Assertions[k].Source.File = "../elsewhere/checkout.ananke.yaml"
	}
	if got := codequality.Issues(r); len(got) != 0 {
		t.Errorf("issues = %+v; want none", got)
	}
}

// TestSchemaRefuses: the schema is not vacuous — it refuses what GitLab
// would skip.
func TestSchemaRefuses(t *testing.T) {
	ok := `[{"description":"d","check_name":"c","fingerprint":"f","severity":"minor","location":{"path":"a.yaml","lines":{"begin":3}}}]`
	if err := compile(t).Validate(decode(t, ok)); err != nil {
		t.Fatalf("a documented issue is refused: %v", err)
	}
	for _, tc := range []struct{ name, old, new string }{
		{"not an array", ok, `{"issues":[]}`},
		{"no description", `"description":"d",`, ``},
		{"no check_name", `"check_name":"c",`, ``},
		{"no fingerprint", `"fingerprint":"f",`, ``},
		{"unknown severity", `"minor"`, `"warning"`},
		{"no line", `"lines":{"begin":3}`, `"lines":{}`},
		{"line as text", `"begin":3`, `"begin":"3"`},
		{"absolute path", `"a.yaml"`, `"/a.yaml"`},
		{"path outside", `"a.yaml"`, `"../a.yaml"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := compile(t).Validate(decode(t, strings.Replace(ok, tc.old, tc.new, 1))); err == nil {
				t.Error("accepted")
			}
		})
	}
	positions := strings.Replace(ok, `"lines":{"begin":3}`, `"positions":{"begin":{"line":3}}`, 1)
	if err := compile(t).Validate(decode(t, positions)); err != nil {
		t.Errorf("location.positions.begin.line is refused: %v", err)
	}
}

// Validate checks a Code Quality report against the schema, and that its
// fingerprints are unique, which no JSON Schema can say.
func Validate(t *testing.T, out []byte) {
	t.Helper()
	if err := compile(t).Validate(decode(t, string(out))); err != nil {
		t.Errorf("invalid Code Quality report: %v\n%s", err, out)
	}
	var list []codequality.Issue
	if err := json.Unmarshal(out, &list); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, is := range list {
		if seen[is.Fingerprint] {
			t.Errorf("fingerprint %s twice", is.Fingerprint)
		}
		seen[is.Fingerprint] = true
	}
}

func compile(t *testing.T) *jsonschema.Schema {
	t.Helper()
	raw, err := os.ReadFile("testdata/codequality.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("codequality.schema.json", decode(t, string(raw))); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("codequality.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func decode(t *testing.T, s string) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}
