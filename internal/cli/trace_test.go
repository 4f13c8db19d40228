package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/normalized/normalizedtest"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestTraceExport runs the quickstart suite, exports its traces, and checks
// each against the published schema; then one test to stdout, and the
// errors.
func TestTraceExport(t *testing.T) {
	dir := copySuite(t, "quickstart")
	report := filepath.Join(dir, "out")
	if r := run(t, dir, nil, "run", "--report-dir", report); r.code != ExitPass {
		t.Fatalf("run: exit %d\n%s\n%s", r.code, r.out, r.errOut)
	}
	traces := filepath.Join(dir, "traces")
	r := run(t, dir, nil, "trace", "export", "-o", traces, report)
	if r.code != ExitPass || r.out != "Exported 6 traces from "+report+" into "+traces+"\n" {
		t.Fatalf("export: exit %d\n%s\n%s", r.code, r.out, r.errOut)
	}
	s := normalizedtest.Schema(t)
	files, _ := filepath.Glob(filepath.Join(traces, "*.trace.json"))
	if len(files) != 6 {
		t.Fatalf("%d trace files: %v", len(files), files)
	}
	for _, f := range files {
		b, _ := os.ReadFile(f)
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if err := s.Validate(v); err != nil {
			t.Errorf("%s does not match the schema: %v", filepath.Base(f), err)
		}
	}

	r = run(t, dir, nil, "trace", "export", "--test", "weather", report)
	if r.code != ExitPass {
		t.Fatalf("export --test: exit %d\n%s", r.code, r.errOut)
	}
	file, _ := os.ReadFile(filepath.Join(traces, "weather.trace.json"))
	if r.out != string(file) {
		t.Errorf("stdout differs from weather.trace.json")
	}
	var tr struct {
		TestCaseID  string `json:"test_case_id"`
		Status      string
		FinalOutput string `json:"final_output"`
		Adapter     struct{ Name string }
		Events      []struct {
			EventID string `json:"event_id"`
			Type    string
			Parent  string `json:"parent_event_id"`
			Data    struct {
				Name     string
				TraceSeq int64 `json:"trace_seq"`
			}
		}
	}
	if err := json.Unmarshal([]byte(r.out), &tr); err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, e := range tr.Events {
		types = append(types, e.Type)
	}
	if got := strings.Join(types, " "); got != "message_received tool_call tool_result final_output" {
		t.Errorf("weather events = %s", got)
	}
	if tr.TestCaseID != "weather" || tr.Status != "success" || tr.Adapter.Name != "ag-ui" || !strings.Contains(tr.FinalOutput, "sunny and 21°C in Paris") ||
		tr.Events[1].Data.Name != "get_weather" || tr.Events[1].Data.TraceSeq == 0 || tr.Events[2].Parent != tr.Events[1].EventID {
		t.Errorf("weather trace = %+v", tr)
	}

	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"trace"}, ExitInvalid, "Usage: ananke trace export"},
		{[]string{"trace", "-h"}, ExitPass, "Usage: ananke trace export"},
		{[]string{"trace", "frob"}, ExitInvalid, `ananke trace: unknown command "frob"`},
		{[]string{"trace", "export"}, ExitInvalid, "ananke trace export: name one report directory"},
		{[]string{"trace", "export", filepath.Join(dir, "nothing")}, ExitInvalid, "ananke trace export: read report " + filepath.Join(dir, "nothing")},
		{[]string{"trace", "export", "--test", "nope", report}, ExitInvalid, `has no test "nope"`},
		{[]string{"trace", "export", "-o", filepath.Join(report, "tests"), report}, ExitInvalid, "would overwrite the report's trace files"},
	} {
		r := run(t, dir, nil, tc.args...)
		if got := r.errOut + r.out; r.code != tc.code || !strings.Contains(got, tc.want) || tc.code == ExitPass && r.errOut != "" {
			t.Errorf("%v = %d %q; want %d and %q (help asked for on stdout)", tc.args, r.code, got, tc.code, tc.want)
		}
	}
}

// TestTraceExportAttempts exports every attempt of a retried test (the
// report of package normalized's tests).
func TestTraceExportAttempts(t *testing.T) {
	report := filepath.Join(repoRoot(), "internal", "normalized", "testdata", "report")
	out := t.TempDir()
	r := run(t, "", nil, "trace", "export", "--all-attempts", "-o", out, report)
	if r.code != ExitPass || !strings.Contains(r.out, "Exported 3 traces") {
		t.Fatalf("export: exit %d\n%s\n%s", r.code, r.out, r.errOut)
	}
	for _, name := range []string{"tests_pay.trace.json", "hello.attempt-1.trace.json", "hello.attempt-2.trace.json"} {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Error(err)
		}
	}
	r = run(t, "", nil, "trace", "export", "--all-attempts", "--test", "hello", report)
	if r.code != ExitInvalid || !strings.Contains(r.errOut, "test hello has 2 attempts; name a directory with -o") {
		t.Errorf("two attempts to stdout = %d %q", r.code, r.errOut)
	}
}
