package bless

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/snapshot"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/trace"
)

// renderCases are conversations rendered to testdata/render/<name>.golden
// as if written to testdata/render/blessed/.
var renderCases = []struct {
	name string
	conv func() *Conversation
}{
	{"refund", func() *Conversation {
		// The test file kept as written — its anchors, merge keys, hooks,
		// client tools, comments — its assertions replaced, its id
		// written, its paths moved to the output directory.
		c := inferCases[0].conv()
		c.ID, c.Name, c.File, c.From = "refunds/a-1001", "a refund confirmed through a client tool", filepath.Join("testdata", "render", "refund.ananke.yaml"), "the recording rec (test refunds/a-1001)"
		return c
	}},
	{"rebuilt", func() *Conversation {
		// No test file: the turns, history and client tools rebuilt from
		// the trace.
		t := tr(
			turn("Refund A-1001 and B-2002 for ${me}", "A-1001: refunded. B-2002: kept.",
				client("confirm_refund", `{"orderId":"A-1001","refund":{"amount":42}}`, "yes"),
				client("confirm_refund", `{"orderId":"B-2002","refund":{"amount":120.5}}`, "no"),
				client("ask_user", `{}`, "fine")),
			trace.Turn{Kind: "agui:connect"},
		)
		t.History = []trace.Message{{Role: "system", Content: "You are a shop assistant."}}
		t.Turns[0].Runs = []trace.Run{{Request: json.RawMessage(`{"threadId":"t","tools":[` +
			`{"name":"confirm_refund","description":"Ask the user","parameters":{"type":"object","properties":{"orderId":{"type":"string","description":"like ${ID}"}}}},` +
			`{"name":"never_called","description":"Not asked for"}]}`)}}
		return &Conversation{ID: "refunds", Name: "refunds", From: "the report out (test refunds)", Traces: []*trace.Trace{t}}
	}},
	{"transcript", func() *Conversation {
		c := inferCases[4].conv()
		c.Name, c.From = "session s", "the transcript ../source/claude/testdata/session.jsonl"
		c.Source = &Source{Format: "claude-transcript", Path: filepath.Join("..", "source", "claude", "testdata", "session.jsonl")}
		return c
	}},
	{"nanoclaw", func() *Conversation {
		c := inferCases[4].conv()
		c.Name, c.From = "the family group's session", "the NanoClaw folder nanoclaw (group family)"
		c.Source = &Source{Format: "nanoclaw", Path: "nanoclaw", Group: "family", Task: "task-digest"}
		return c
	}},
}

func TestRender(t *testing.T) {
	for _, c := range renderCases {
		t.Run(c.name, func(t *testing.T) {
			conv := c.conv()
			b, err := Render(conv, inferred(conv), filepath.Join("testdata", "render", "blessed", conv.OutName()))
			if err != nil {
				t.Fatal(err)
			}
			golden.Assert(t, filepath.Join("testdata", "render", c.name+".golden"), string(b.Data))
		})
	}
}

// TestRenderValid loads each rendered file where it is written, as
// ananke validate would: its moved paths name their files.
func TestRenderValid(t *testing.T) {
	for _, c := range renderCases {
		if c.name == "nanoclaw" { // its folder is made up
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			conv := c.conv()
			out := filepath.Join(t.TempDir(), "deep", conv.OutName())
			b, err := Render(conv, inferred(conv), out)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(out, b.Data, 0o644); err != nil {
				t.Fatal(err)
			}
			var diags diag.Diagnostics
			test := spec.LoadTest(out, filepath.Dir(out), &diags)
			if len(diags) > 0 {
				t.Fatalf("%s does not load:\n%v\n%s", out, diags, b.Data)
			}
			if conv.ID != "" && test.ID != conv.ID {
				t.Errorf("id %q, want %q", test.ID, conv.ID)
			}
			if conv.Source == nil && test.Turns[0].Assert == nil {
				t.Errorf("no assertions loaded:\n%s", b.Data)
			}
			// The snapshot's entry is keyed as a run of the file keys it:
			// the test's id, and the id its snapshot check gets.
			var ids []string
			for _, c := range spec.TestChecks(&spec.Config{}, test) {
				if c.Kind == assertion.KindSnapshot {
					ids = append(ids, c.ID)
				}
			}
			want := map[snapshot.Key]bool{{Test: test.ID, Assertion: SnapshotAssertion}: true}
			if len(ids) != 1 || ids[0] != SnapshotAssertion || len(b.Snapshots) != 1 || !want[slices.Collect(maps.Keys(b.Snapshots))[0]] {
				t.Errorf("the run's snapshot checks %v (test %s); the entries %v", ids, test.ID, slices.Collect(maps.Keys(b.Snapshots)))
			}
		})
	}
}

// TestRenderSkipped: the checks left out are not written, and a bare
// require stays when the entry with arguments is dropped.
func TestRenderSkipped(t *testing.T) {
	conv := renderCases[0].conv()
	b, err := Render(conv, Keep(inferred(conv), []Kind{Args, Forbid, Text, Order}), filepath.Join("testdata", "render", "blessed", "x.ananke.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b.Data)
	for _, want := range []string{"- name: lookup_order\n", "- name: issue_refund\n", "- name: get_weather\n"} {
		if !strings.Contains(s, want) {
			t.Errorf("lacks %q:\n%s", want, s)
		}
	}
	for _, not := range []string{"called lookup_order with", "forbid", "order:", "contains", "get_policy"} {
		if strings.Contains(s, not) {
			t.Errorf("holds %q, skipped:\n%s", not, s)
		}
	}
}

// TestRenderTruncated: a recorded run that stopped after its first turn
// blesses that turn alone.
func TestRenderTruncated(t *testing.T) {
	conv := renderCases[0].conv()
	conv.Traces[0].Turns = conv.Traces[0].Turns[:1]
	conv.Turns = 1
	b, err := Render(conv, inferred(conv), filepath.Join("testdata", "render", "blessed", "x.ananke.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if s := string(b.Data); !strings.Contains(s, "Please refund order A-1001") || strings.Contains(s, "weather") {
		t.Errorf("not its first turn alone:\n%s", s)
	}
	conv.Turns = 0 // every turn, but checks of a turn the file lacks
	conv.File = ""
	if _, err := Render(conv, []Check{{Kind: Require, Turn: 3, Section: []string{"tools", "require"}, List: true, Value: str("x")}}, "x.ananke.yaml"); err == nil || err.Error() != "turn 3: the test has no such turn" {
		t.Errorf("a check of a missing turn: %v", err)
	}
}

// TestRenderWithoutSnapshot: a transcript's test skipping the snapshot
// has no entry, and keeps its id unwritten, as before.
func TestRenderWithoutSnapshot(t *testing.T) {
	conv := renderCases[2].conv()
	b, err := Render(conv, Keep(inferred(conv), []Kind{Snapshot}), filepath.Join("testdata", "render", "blessed", conv.OutName()))
	if err != nil {
		t.Fatal(err)
	}
	if s := string(b.Data); b.Snapshots != nil || strings.Contains(s, "snapshot") || strings.Contains(s, "\nid:") {
		t.Errorf("the snapshot skipped, the file still has it (entries %v):\n%s", b.Snapshots, s)
	}
}
