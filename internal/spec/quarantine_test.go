package spec

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ananke/action/internal/diag"
)

// quarantineToday is the day the quarantine tests load on.
var quarantineToday = time.Date(2026, 11, 22, 23, 30, 0, 0, time.UTC)

// quarantineSuite is a suite of three tests whose config quarantines some
// of them, and a quarantine file.
func quarantineSuite(config, file string) map[string]string {
	const test = "version: \"1.0\"\nname: t\nturns: [{user: hi}]\n"
	files := map[string]string{
		"ananke.config.yaml":           "version: \"1.0\"\ntarget: {type: agui, endpoint: http://localhost:1/agui, agentId: a}\n" + config,
		"tests/pay/card.ananke.yaml":   test,
		"tests/pay/refund.ananke.yaml": test,
		"tests/search.ananke.yaml":     test,
	}
	if file != "" {
		files[".ananke/quarantine.yaml"] = file
	}
	return files
}

// TestQuarantine: entries in the config and in the file it names mark the
// tests they match, by id or glob — an exact id before a glob; an entry
// that matches no test is a warning at its test:, and only when the whole
// suite is loaded.
func TestQuarantine(t *testing.T) {
	dir := writeFiles(t, quarantineSuite(`quarantine:
  - test: tests/search
    reason: the search index is rebuilt nightly
    until: 2026-11-22
    owner: "@search"
    issue: https://example.com/issues/7
  - {test: "tests/pay/*", reason: payment sandbox is down}
quarantine_file: .ananke/quarantine.yaml
`, `quarantine:
  - test: tests/pay/card
    reason: declines at random
  - test: tests/gone
    reason: removed last week
`))
	cfgPath := filepath.Join(dir, "ananke.config.yaml")
	s, err := Load(Options{ConfigPath: cfgPath, Today: quarantineToday})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"tests/search":     "the search index is rebuilt nightly",
		"tests/pay/card":   "declines at random", // its own entry, not the glob's
		"tests/pay/refund": "payment sandbox is down",
	}
	for _, tt := range s.Tests {
		if tt.Quarantine == nil || tt.Quarantine.Reason != want[tt.ID] {
			t.Errorf("%s: quarantine %+v, want the reason %q", tt.ID, tt.Quarantine, want[tt.ID])
		}
	}
	search := s.Config.QuarantineFor("tests/search")
	if search.Until != "2026-11-22" || search.Owner != "@search" || search.Issue != "https://example.com/issues/7" ||
		search.Pos != (diag.Pos{File: cfgPath, Line: 4, Col: 5}) {
		t.Errorf("the search entry is %+v", search)
	}
	file := filepath.Join(dir, ".ananke", "quarantine.yaml")
	if got, want := s.Warnings.Error(), file+`:4:11: quarantine: "tests/gone" matches no test; remove the entry`; got != want {
		t.Errorf("warnings:\n%s\nwant\n%s", got, want)
	}
	if s.Config.QuarantineFile != ".ananke/quarantine.yaml" {
		t.Errorf("quarantine_file %q", s.Config.QuarantineFile)
	}
	// Part of the suite: an entry of a test not loaded is no mistake.
	part, err := Load(Options{ConfigPath: cfgPath, Paths: []string{filepath.Join(dir, "tests", "search.ananke.yaml")}, Today: quarantineToday})
	if err != nil {
		t.Fatal(err)
	}
	if len(part.Warnings) > 0 || len(part.Tests) != 1 || part.Tests[0].Quarantine == nil {
		t.Errorf("with a path: warnings %v, tests %d, quarantined %v", part.Warnings, len(part.Tests), part.Tests[0].Quarantine != nil)
	}
}

// TestQuarantineMatches: an entry's test is an id or a glob over ids.
func TestQuarantineMatches(t *testing.T) {
	for _, tc := range []struct {
		pattern, id string
		want        bool
	}{
		{"tests/checkout", "tests/checkout", true},
		{"tests/checkout", "tests/checkout2", false},
		{"tests/pay/*", "tests/pay/card", true},
		{"tests/pay/*", "tests/pay/eu/card", false},
		{"tests/**", "tests/pay/eu/card", true},
		{"refunds/cases:*", "refunds/cases:3", true},
		{"tests/[ab]", "tests/a", true},
		{"tests/[ab]", "tests/[ab]", true}, // an id written as it is
	} {
		q := &Quarantine{Test: tc.pattern}
		if got := q.Matches(tc.id); got != tc.want {
			t.Errorf("%q matches %q = %v, want %v", tc.pattern, tc.id, got, tc.want)
		}
	}
}

// TestQuarantineProblems: every problem of the quarantine list is reported
// at once, at its file:line:col, in the config and in its file — an entry
// past its date at its until: (an entry holds through that day, and no
// clock checks none), a missing or empty reason, a date that is not one, a
// bad glob, a test written twice, a quarantine file that is missing or
// wrong.
func TestQuarantineProblems(t *testing.T) {
	for _, tc := range []struct {
		name, config, file string
		today              time.Time
		want               []string
	}{{
		name: "expired",
		config: `quarantine:
  - test: tests/search
    reason: flaky index
    until: 2026-11-21
  - {test: tests/pay/card, reason: sandbox, until: 2026-11-22}
quarantine_file: .ananke/quarantine.yaml
`,
		file:  "quarantine:\n  - {test: tests/pay/refund, reason: slow, until: \"2026-01-31\"}\n",
		today: quarantineToday,
		want: []string{
			`.ananke/quarantine.yaml:2:51: quarantine of "tests/pay/refund" expired on 2026-01-31 (today is 2026-11-22): fix the test and remove the entry, or move until: later`,
			`ananke.config.yaml:6:12: quarantine of "tests/search" expired on 2026-11-21 (today is 2026-11-22): fix the test and remove the entry, or move until: later`,
		},
	}, {
		name:   "no clock",
		config: "quarantine:\n  - {test: tests/search, reason: flaky, until: 2020-01-01}\n",
	}, {
		name: "entries",
		config: `quarantine:
  - test: tests/search
  - {test: tests/pay/card, reason: "  "}
  - {test: "tests/[pay", reason: x}
  - {test: tests/pay/refund, reason: x, until: 31.12.2026, team: pay}
  - {test: tests/search, reason: again, until: 2026-02-30}
  - tests/pay/card
`,
		today: quarantineToday,
		want: []string{
			`ananke.config.yaml:4:5: quarantine[0] is missing required field "reason"`,
			`ananke.config.yaml:5:36: quarantine[1].reason must say why the test is quarantined`,
			`ananke.config.yaml:6:12: quarantine[2].test "tests/[pay" is not a valid glob`,
			`ananke.config.yaml:7:48: quarantine[3].until "31.12.2026" is not a date of the form YYYY-MM-DD`,
			`ananke.config.yaml:7:60: unknown field "team" in quarantine[3] (did you mean "test"?)`,
			`ananke.config.yaml:8:12: quarantine: "tests/search" is quarantined already (first at line 4)`,
			`ananke.config.yaml:8:48: quarantine[4].until "2026-02-30" is not a date of the form YYYY-MM-DD`,
			`ananke.config.yaml:9:5: quarantine[5] must be a mapping, not a string`,
		},
	}, {
		name:   "missing file",
		config: "quarantine_file: quarantine.yaml\n",
		want:   []string{`ananke.config.yaml:3:18: quarantine_file quarantine.yaml: cannot read file: no such file or directory`},
	}, {
		name:   "file without a list",
		config: "quarantine_file: .ananke/quarantine.yaml\n",
		file:   "tests: [a]\n",
		want: []string{
			`.ananke/quarantine.yaml:1:1: quarantine file is missing required field "quarantine"`,
			`.ananke/quarantine.yaml:1:1: unknown field "tests" in quarantine file; known fields: quarantine`,
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFiles(t, quarantineSuite(tc.config, tc.file))
			_, err := Load(Options{ConfigPath: filepath.Join(dir, "ananke.config.yaml"), Today: tc.today})
			var diags diag.Diagnostics
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatalf("unexpected problems:\n%v", err)
				}
				return
			}
			if !errors.As(err, &diags) {
				t.Fatalf("err = %v, want diagnostics", err)
			}
			var got []string
			for _, d := range diags {
				got = append(got, strings.TrimPrefix(d.String(), dir+string(filepath.Separator)))
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("problems:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestQuarantineSchema: the published schema of the quarantine file accepts
// an entry with every field and rejects one without a reason, as the loader
// does; the config's schema takes the list and the file's name.
func TestQuarantineSchema(t *testing.T) {
	s := compileSchema(t, "quarantine")
	for _, tc := range []struct {
		doc  string
		want bool
	}{
		{`{"quarantine": [{"test": "tests/a", "reason": "r", "until": "2026-12-31", "owner": "@o", "issue": "https://example.com/1"}]}`, true},
		{`{"quarantine": []}`, true},
		{`{"quarantine": [{"test": "tests/a"}]}`, false},
		{`{"quarantine": [{"test": "tests/a", "reason": "r", "why": "x"}]}`, false},
		{`{}`, false},
	} {
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(tc.doc))
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Validate(v) == nil; got != tc.want {
			t.Errorf("%s: valid = %v, want %v", tc.doc, got, tc.want)
		}
	}
	c := compileSchema(t, "config")
	doc := map[string]any{"version": "1.0", "target": map[string]any{"type": "agui", "endpoint": "http://x/agui", "agentId": "a"},
		"quarantine":      []any{map[string]any{"test": "tests/a", "reason": "r"}},
		"quarantine_file": ".ananke/quarantine.yaml"}
	js, _ := json.Marshal(doc)
	v, _ := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err := c.Validate(v); err != nil {
		t.Errorf("the config schema rejects a quarantine: %v", err)
	}
}
