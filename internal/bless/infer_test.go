package bless

import (
	"path/filepath"
	"testing"

	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/snapshot"
	"github.com/ananke/action/internal/trace"
)

// inferCases are conversations and the checks they give, in
// testdata/infer/<name>.golden.
var inferCases = []struct {
	name string
	conv func() *Conversation
}{
	{"refund", func() *Conversation {
		// Two turns: dependent calls with identifiers, a client tool, a
		// reply repeating ids from results; another tool offered.
		c := &Conversation{Traces: []*trace.Trace{tr(
			turn("Please refund order A-1001", "Refund R-A-1001 of 42 EUR issued for A-1001.",
				call("lookup_order", `{"orderId":"A-1001"}`, `{"orderId":"A-1001","total":42,"shipTo":{"city":"Lyon"}}`),
				client("confirm_refund", `{"orderId":"A-1001","refund":{"amount":42,"currency":"EUR"}}`, "yes"),
				call("issue_refund", `{"orderId":"A-1001","refund":{"amount":42,"currency":"EUR"}}`, `{"refundId":"R-A-1001","status":"refunded"}`)),
			turn("And the weather there?", "In Lyon it is rainy.",
				call("get_weather", `{"city":"Lyon"}`, `{"city":"Lyon","conditions":"rainy"}`)),
		)}}
		c.Offer("get_policy", "other tests of the recording called it")
		c.Offer("confirm_refund", "the test declares it as a client tool")
		return c
	}},
	{"repeated-tool", func() *Conversation {
		// One tool called twice with two ids (two entries, no order), and
		// the same ids again: one entry each.
		return &Conversation{Traces: []*trace.Trace{tr(
			turn("Compare A-100 and B-200", "B-200 is cheaper by $30.50.",
				call("get_price", `{"sku":"A-100"}`, `{"sku":"A-100","price":150.5}`),
				call("get_price", `{"sku":"B-200"}`, `{"sku":"B-200","price":120}`),
				call("get_price", `{"sku":"B-200"}`, `{"sku":"B-200","price":120}`)),
		)}}
	}},
	{"arguments", func() *Conversation {
		// Nested identifiers by path, numbers by name, dates only where the
		// user wrote them, ${ written literally, arguments that are not
		// JSON ignored.
		return &Conversation{Traces: []*trace.Trace{tr(
			turn("Book room 12 for 2026-03-14", "",
				call("book", `{"guest":{"email":"ada@example.com","name":"Ada"},"room_number":12,"from":"2026-03-14","to":"2026-03-15","items":[{"sku":"X-1"}],"note":"late arrival"}`, ""),
				call("tag", `{"code":"a${b}1"}`, ""),
				call("raw", `not json A-1`, "")),
		)}}
	}},
	{"attempts", func() *Conversation {
		// Three attempts: what holds in all of them is kept.
		one := func(id string, tools ...string) *trace.Trace {
			var calls []trace.ToolCall
			for _, t := range tools {
				calls = append(calls, call(t, `{"orderId":"`+id+`"}`, `{"ok":true}`))
			}
			return tr(turn("Where is my order?", "On its way.", calls...))
		}
		c := &Conversation{Traces: []*trace.Trace{one("A-1", "lookup_order", "track"), one("A-1", "lookup_order"), one("A-2", "track", "lookup_order")}}
		c.Offer("refund", "other tests of the recording called it")
		c.Offer("track", "other tests of the recording called it")
		return c
	}},
	{"transcript", func() *Conversation {
		// A transcript: every check on the whole test.
		return &Conversation{Source: &Source{Format: "claude-transcript", Path: "s.jsonl"}, Traces: []*trace.Trace{fromTranscript(tr(
			turn("Fix the test", "", call("Read", `{"file_path":"parser_test.go"}`, "package calc"), call("Edit", `{"file_path":"parser.go"}`, "ok")),
			turn("Run it", "Fixed in commit 4f2a9c1.", call("Bash", `{"command":"go test ./..."}`, "ok  calc 4f2a9c1")),
		), toolTrace)}}
	}},
	{"no-tool-trace", func() *Conversation {
		// A trace without supports_tool_trace gets no tool check.
		c := &Conversation{Traces: []*trace.Trace{fromTranscript(tr(turn("hi", "Hello A-1", call("x", `{"id":"A-1"}`, "A-1"))))}}
		c.Offer("y", "other tests called it")
		return c
	}},
	{"listed", func() *Conversation {
		// An MCP server's tools/list: its tools are offered, the listing
		// itself is no call.
		return &Conversation{Traces: []*trace.Trace{tr(
			turn("", "", call(trace.ListToolsCall, `{}`, `{"tools":[{"name":"echo"},{"name":"add"}]}`)),
			turn("", "", call("echo", `{"message":"hi"}`, `{"content":[{"type":"text","text":"hi"}]}`)),
		)}}
	}},
	{"same-trajectory", func() *Conversation {
		// Two attempts whose arguments differ only where a snapshot
		// normalises them (a UUID, a timestamp): the snapshot holds, as
		// the suite's rules take it (the replies' structure, an ignored
		// path).
		one := func(uuid, at, ref string) *trace.Trace {
			return tr(turn("Book a table for two", "Booked:\n\n- table 4\n- 19:00",
				call("book", `{"session":"`+uuid+`","at":"`+at+`","guests":2,"ref":"`+ref+`"}`, `{"table":4}`)))
		}
		c := &Conversation{Traces: []*trace.Trace{
			one("7f9c2e1a-3b4d-4e5f-8a9b-0c1d2e3f4a5b", "2026-03-01T19:00:00Z", "r1"),
			one("0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d", "2026-03-02T19:00:00Z", "r2"),
		}}
		ref, err := snapshot.ParseIgnore("book.ref")
		if err != nil {
			panic(err)
		}
		c.SnapshotRules = snapshot.Rules{Text: snapshot.TextStructure, Ignore: []snapshot.Ignore{ref}}
		c.Out = filepath.Join("blessed", "tables", "book.ananke.yaml")
		return c
	}},
}

func TestInfer(t *testing.T) {
	for _, c := range inferCases {
		t.Run(c.name, func(t *testing.T) {
			golden.Assert(t, filepath.Join("testdata", "infer", c.name+".golden"), listChecks(Infer(c.conv())))
		})
	}
}

func TestKeepAndParseKinds(t *testing.T) {
	checks := inferred(inferCases[0].conv())
	skip, err := ParseKinds("order, args,forbid, snapshot")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range Keep(checks, skip) {
		if c.Kind != Require && c.Kind != Text {
			t.Errorf("kept a %s check: %s", c.Kind, c.Where())
		}
	}
	if n := len(Keep(checks, nil)); n != len(checks) {
		t.Errorf("Keep with nothing skipped kept %d of %d", n, len(checks))
	}
	if _, err := ParseKinds("require,snapshots"); err == nil || err.Error() != `unknown kind "snapshots" (kinds: require, args, order, text, forbid, snapshot)` {
		t.Errorf("ParseKinds(snapshots) = %v", err)
	}
}
