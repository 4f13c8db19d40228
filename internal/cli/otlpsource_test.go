package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOTLPSource runs tests over OTLP JSON files the OpenTelemetry JS
// exporter wrote for the interop agents (testdata/interop/otlp): the
// Mastra agent's and the A2A agent's tool calls, found only in their
// spans, satisfy tools.require, their spans satisfy spans.require, the
// Mastra agent's answer its text check; wrong expectations fail at their
// YAML line, and a malformed file errors its test at the file's line.
func TestOTLPSource(t *testing.T) {
	dir := t.TempDir()
	otlp := filepath.ToSlash(filepath.Join(repoRoot(), "testdata", "interop", "otlp"))
	files := map[string]string{
		"ananke.config.yaml": "version: \"1.0\"\n",
		"bad.json":           "{\"resourceSpans\": [\n  {\"scopeSpans\": [{\"spans\": [{\"name\": 3}]}]}\n]}\n",
		"stock.ananke.yaml": `version: "1.0"
name: the Mastra agent checked the stock
source: { format: otlp, path: "` + otlp + `/stock.otlp.json" }
assert:
  requires: [supports_spans]
  tools:
    require: [{ name: inventory_check_stock }]
  spans:
    require:
      - operation: execute_tool
        attributes: { gen_ai.tool.name: inventory_check_stock }
        under: { operation: invoke_agent }
  text: { must_match: "4 in stock" }
`,
		"a2a.ananke.yaml": `version: "1.0"
name: the A2A agent checked the stock
source: { format: otlp, path: "` + otlp + `/a2a-stock.otlp.jsonl" }
assert:
  tools:
    require: [{ name: check_stock }]
`,
		"wrong.ananke.yaml": `version: "1.0"
name: wrong expectations
source: { format: otlp, path: "` + otlp + `/stock.otlp.jsonl" }
assert:
  tools:
    require: [{ name: delete_order }]
  spans:
    forbid:
      - { operation: execute_tool }
`,
		"bad.ananke.yaml": `version: "1.0"
name: a malformed file
source: { format: otlp, path: bad.json }
`,
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "out")
	r := run(t, dir, nil, "run", "--report-dir", out)
	if r.code != ExitFail {
		t.Fatalf("exit %d, want %d\n%s\n%s", r.code, ExitFail, r.out, r.errOut)
	}
	b, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Tests []struct {
			ID         string
			Status     string
			Reason     string
			Source     struct{ Adapter string }
			Assertions []struct {
				ID, Status string
				Source     struct{ Line int }
			}
		}
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		status string
		failed map[string]int // failed assertion → its YAML line
	}{
		"stock": {status: "pass"},
		"a2a":   {status: "pass"},
		"wrong": {status: "fail", failed: map[string]int{"test.tools.require[0]": 6, "test.spans.forbid[0]": 9}},
		"bad":   {status: "error"},
	}
	if len(s.Tests) != len(want) {
		t.Fatalf("%d tests, want %d", len(s.Tests), len(want))
	}
	for _, tc := range s.Tests {
		w := want[tc.ID]
		if tc.Status != w.status || (tc.Status != "error" && tc.Source.Adapter != "otlp") {
			t.Errorf("%s: %s (%s) from %q, want %s", tc.ID, tc.Status, tc.Reason, tc.Source.Adapter, w.status)
		}
		failed := 0
		for _, a := range tc.Assertions {
			if a.Status == "fail" {
				failed++
				if line, ok := w.failed[a.ID]; !ok || a.Source.Line != line {
					t.Errorf("%s: %s failed at line %d", tc.ID, a.ID, a.Source.Line)
				}
			} else if a.Status != "pass" {
				t.Errorf("%s: %s is %s", tc.ID, a.ID, a.Status)
			}
		}
		if failed != len(w.failed) {
			t.Errorf("%s: %d assertions failed, want %d", tc.ID, failed, len(w.failed))
		}
		if tc.ID == "bad" && !strings.HasPrefix(tc.Reason, `source: bad.json:2: not OTLP JSON trace data: ReadString: expects " or n, but found 3`) {
			t.Errorf("bad: reason %q", tc.Reason)
		}
	}
}
