package interop

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// checkExport exports a suite's report as normalized traces and checks that
// each test's final output is the text summary.json gives its last turn,
// whatever protocol the agent spoke: AG-UI's text is rebuilt from its text
// events, A2A's and MCP's come from the texts the trace file recorded.
func checkExport(t *testing.T, bin, reports string) {
	t.Helper()
	out := t.TempDir()
	if msg, err := exec.Command(bin, "trace", "export", "-o", out, reports).CombinedOutput(); err != nil {
		t.Fatalf("ananke trace export: %v\n%s", err, msg)
	}
	sum := readSummary(t, filepath.Join(reports, "summary.json"))
	files, _ := filepath.Glob(filepath.Join(out, "*.trace.json"))
	final := map[string]string{}
	for _, f := range files {
		var tr struct {
			ID          string `json:"test_case_id"`
			FinalOutput string `json:"final_output"`
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &tr); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		final[tr.ID] = tr.FinalOutput
	}
	for _, tc := range sum.Tests {
		got, ok := final[tc.ID]
		switch {
		case !ok:
			t.Errorf("%s: no exported trace", tc.ID)
		case len(tc.Turns) == 0 || tc.Turns[len(tc.Turns)-1].TextBytes > 0:
			// no turn, or a text summary.json cut
		case got != tc.Turns[len(tc.Turns)-1].Text:
			t.Errorf("%s (%s): exported final_output %q, want the last turn's text %q", tc.ID, tc.Source.Adapter, got, tc.Turns[len(tc.Turns)-1].Text)
		}
	}
}
