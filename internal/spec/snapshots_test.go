package spec

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/snapshot"
)

// TestSnapshots: the config's snapshots: rules, and the snapshot
// assertions of each level, with their ids.
func TestSnapshots(t *testing.T) {
	s, diags := loadSuite(t, map[string]string{
		"ananke.config.yaml": minimalConfig + `  assert: {snapshot: true}
snapshots:
  text: structure
  ignore: "*.request_id"
  replace: [{pattern: "sess-[0-9]+", with: "<session>"}]
  tolerance: 0.5
`,
		"t.ananke.yaml": `version: "1.0"
name: t
turns:
  - user: hi
    assert: {snapshot: {text: exact, ignore: ["search.items[*].id", "*.at"], tolerance: 0}}
  - user: bye
assert:
  snapshot: {replace: [{pattern: "A-(\\d+)", with: "order $1"}]}
`,
	})
	if diags != nil {
		t.Fatal(diags)
	}
	r := s.Config.Snapshots
	if r.Text != snapshot.TextStructure || len(r.Ignore) != 1 || r.Ignore[0].Raw != "*.request_id" || len(r.Replace) != 1 ||
		r.Replace[0].Pattern.String() != "sess-[0-9]+" || r.Replace[0].With != "<session>" || r.Tol() != 0.5 {
		t.Errorf("config rules %+v", r)
	}
	test := s.Tests[0]
	var ids []string
	for i := range test.Turns {
		for _, c := range TurnChecks(s.Config, test, i) {
			if c.Kind == assertion.KindSnapshot {
				ids = append(ids, c.ID)
			}
		}
	}
	for _, c := range TestChecks(s.Config, test) {
		if c.Kind == assertion.KindSnapshot {
			ids = append(ids, c.ID)
		}
	}
	if got := strings.Join(ids, " "); got != "turn[0].snapshot test.target.snapshot test.snapshot" {
		t.Errorf("snapshot checks %s", got)
	}
	turn := TurnChecks(s.Config, test, 0)
	sc := turn[len(turn)-1].Snapshot()
	if sc == nil {
		t.Fatalf("turn[0]'s last check is %s", turn[len(turn)-1].Kind)
	}
	ext := r.Extend(sc.Rules)
	if ext.Text != snapshot.TextExact || len(ext.Ignore) != 3 || ext.Ignore[1].Raw != "search.items[*].id" || ext.Tol() != 0 || len(ext.Replace) != 1 {
		t.Errorf("the turn's rules over the suite's: %+v", ext)
	}
}

// TestSnapshotErrors: each wrong rule is an error at its position.
func TestSnapshotErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"snapshots: {text: words}\n", `ananke.config.yaml:6:19: snapshots.text "words": want none, structure, exact`},
		{"snapshots: {text: exakt}\n", `did you mean "exact"`},
		{"snapshots: {ignore: [request_id]}\n", `snapshots.ignore[0]: "request_id" is not TOOL.path or *.path`},
		{"snapshots: {ignore: [\"t.a[x]\"]}\n", `[x] is not an index`},
		{"snapshots: {replace: [{pattern: \"(\"}]}\n", `snapshots.replace[0] is missing required field "with"`},
		{"snapshots: {replace: [{pattern: \"(\", with: x}]}\n", `snapshots.replace[0].pattern: invalid regex "("`},
		{"snapshots: {replace: [{pattern: \"${ENV.X}\", with: x}]}\n", "snapshots.replace[0].pattern cannot reference variables"},
		{"snapshots: {replace: {pattern: a, with: b}}\n", "snapshots.replace must be a list"},
		{"snapshots: {tolerance: -1}\n", "snapshots.tolerance must be 0 or more, got -1"},
		{"snapshots: {tolerance: x}\n", "snapshots.tolerance must be a number"},
		{"snapshots: {ignored: []}\n", "ignored"},
		{"snapshots: true\n", "snapshots"},
		{"  assert: {snapshot: false}\n", "ananke.config.yaml:6:22: target.assert.snapshot: false has nothing to disable"},
		{"  assert: {snapshot: {text: none, tolerance: .inf}}\n", "must be a finite number"},
	} {
		_, diags := parseConfig(t, minimalConfig+tc.src)
		if !strings.Contains(diags.Error(), tc.want) {
			t.Errorf("%s: got\n%s\nwant %q", strings.TrimSpace(tc.src), diags.Error(), tc.want)
		}
	}
}

// TestSnapshotInCheckpoint: a checkpoint cannot take a snapshot, even
// through a block it extends.
func TestSnapshotInCheckpoint(t *testing.T) {
	_, diags := loadSuite(t, map[string]string{
		"ananke.config.yaml": modelConfig + "assertions:\n  snap: {snapshot: true}\n",
		"t.ananke.yaml": `version: "1.0"
name: t
simulator: {goal: g}
max_turns: 2
checkpoints:
  - id: direct
    assert: {snapshot: true}
  - id: extended
    assert: {extends: snap}
`,
	})
	if len(diags) != 2 {
		t.Errorf("%d problems, want 2:\n%s", len(diags), diags.Error())
	}
	for _, want := range []string{`t.ananke.yaml:7:24: checkpoint "direct": a snapshot cannot be taken in a checkpoint`, `ananke.config.yaml:13:20: checkpoint "extended"`} {
		if !hasDiag(diags, want) {
			t.Errorf("no %q in\n%s", want, diags.Error())
		}
	}
}
