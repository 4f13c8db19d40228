package normalized

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/normalized/normalizedtest"
)

func validate(t *testing.T, s *jsonschema.Schema, doc []byte) error {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	return s.Validate(v)
}

// TestExportGolden exports testdata/report: an imported trace with memory,
// outbound messages, a failed tool, a run error and a scheduler, and the
// shown attempt of a retried AG-UI test with a client tool and chunked
// text; and testdata/backend-report: an AG-UI test bound to the tool
// doubles and the model gateway (a served call the agent streamed under
// its MCP client's name, one it did not stream that timed out, one the
// test gave no answer, and four model calls, the first a 429). Each export
// matches its golden file and the schema.
func TestExportGolden(t *testing.T) {
	s := normalizedtest.Schema(t)
	for _, tc := range []struct{ report, names string }{
		{"report", "tests_pay.trace.json hello.trace.json"},
		{"backend-report", "tests_stock.trace.json"},
	} {
		r, err := Open(filepath.Join("testdata", tc.report))
		if err != nil {
			t.Fatal(err)
		}
		items, err := r.Items("", false)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, it := range items {
			names = append(names, it.Name)
			tr, err := r.Export(it)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := Write(&b, tr); err != nil {
				t.Fatal(err)
			}
			golden.Assert(t, filepath.Join("testdata", strings.TrimSuffix(it.Name, ".trace.json")+".golden.json"), b.String())
			if err := validate(t, s, b.Bytes()); err != nil {
				t.Errorf("%s does not match the schema: %v", it.Name, err)
			}
		}
		if got := strings.Join(names, " "); got != tc.names {
			t.Errorf("%s: names = %s, want %s", tc.report, got, tc.names)
		}
	}
}

func TestItems(t *testing.T) {
	r, err := Open(filepath.Join("testdata", "report"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		test string
		all  bool
		want string
	}{
		{"", true, "tests_pay.trace.json:1.0 hello.attempt-1.trace.json:1.0 hello.attempt-2.trace.json:1.1"},
		{"hello", false, "hello.trace.json:1.1"},
		{"tests/pay", true, "tests_pay.trace.json:1.0"},
	} {
		items, err := r.Items(tc.test, tc.all)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, it := range items {
			got = append(got, it.Name+":"+itoa(it.Attempt.Run)+"."+itoa(it.Attempt.Retry))
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("Items(%q, %v) = %s, want %s", tc.test, tc.all, got, tc.want)
		}
	}
	// The first attempt of hello never got an event: an error before
	// anything ran is blocked.
	items, _ := r.Items("hello", true)
	if tr, err := r.Export(items[0]); err != nil || tr.Status != StatusBlocked || tr.TraceID != r.RunID+":hello:1.0" {
		t.Errorf("attempt 1 = %q %q (%v)", tr.Status, tr.TraceID, err)
	}
	if _, err := r.Items("nope", false); err == nil || !strings.Contains(err.Error(), `has no test "nope"`) {
		t.Errorf("unknown test: %v", err)
	}
	if _, err := Open(filepath.Join("testdata", "missing")); err == nil || !strings.Contains(err.Error(), "read report testdata/missing") {
		t.Errorf("missing report: %v", err)
	}
}

// TestSchemaRejects: the schema's objects are closed and its enums and
// links checked, so a change to the model without the schema fails.
func TestSchemaRejects(t *testing.T) {
	s := normalizedtest.Schema(t)
	var b bytes.Buffer
	Write(&b, Build(schedulerTrace(), Meta{TestID: "tests/pay", RunID: RunID(mustTime(t, "2026-11-23T08:07:12Z"), "c", ""), Run: 1, Status: "fail"}))
	good := b.String()
	if err := validate(t, s, b.Bytes()); err != nil {
		t.Fatalf("the built trace does not match the schema: %v", err)
	}
	for _, tc := range []struct{ name, old, new string }{
		{"unknown field", `"trace_id"`, `"extra": 1, "trace_id"`},
		{"status", `"status": "failed"`, `"status": "fail"`},
		{"event type", `"type": "tool_call"`, `"type": "tool_use"`},
		{"result without parent", `"parent_event_id": "e3",`, ``},
		{"unknown data field", `"call_id": "c1",`, `"call_id": "c1", "id": 1,`},
		{"seq", `"event_id": "e1",
      "seq": 1,`, `"event_id": "e1",
      "seq": 0,`},
		{"event id", `"event_id": "e1",`, `"event_id": "1",`},
		{"capability", `"supports_replay": true,`, `"supports_replay": true, "supports_x": true,`},
	} {
		if !strings.Contains(good, tc.old) {
			t.Fatalf("%s: the trace has no %s", tc.name, tc.old)
		}
		if validate(t, s, []byte(strings.Replace(good, tc.old, tc.new, 1))) == nil {
			t.Errorf("the schema accepts a bad %s: %s", tc.name, tc.new)
		}
	}
}
