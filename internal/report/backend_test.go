package report_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/ananke/action/internal/capability"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/internal/trace"
)

// TestBackendInReport: the calls the doubles served and the gateway's
// model calls reach the report, masked; the trace the report keeps
// still says what the attempt was bound to, so its capabilities are the
// same when it is read back; the requests no test took are the run's
// warnings, and survive a merge.
func TestBackendInReport(t *testing.T) {
	r := reporttest.BackendReport()
	raw, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), reporttest.Secret) {
		t.Error("summary.json shows the secret")
	}
	test := r.Tests[0]
	calls := test.Turns[0].ToolCalls
	if len(calls) != 3 || calls[0].Served == nil || calls[0].Served.Answer != "match[0]" || calls[1].Served == nil || !calls[1].Served.Unanswered ||
		calls[2].Served != nil || calls[2].Source != trace.SourceSpans {
		t.Errorf("calls %+v; want two served, the second unanswered, and one found in spans", calls)
	}
	mc := test.Turns[0].ModelCalls
	if len(mc) != 3 || mc[0].Fault != "429" || mc[1].AtMs != 120 || mc[1].DurationMs != 170 || mc[1].ResponseModel != "gpt-4o-mini-2024-07-18" ||
		!strings.Contains(mc[2].Error, "***") {
		t.Errorf("model calls %+v", mc)
	}
	for _, c := range []string{capability.ToolTrace, capability.ModelCalls, capability.Usage} {
		if !slices.Contains(test.Source.Capabilities, c) {
			t.Errorf("capabilities %v; want %s", test.Source.Capabilities, c)
		}
	}
	if tr := test.Trace; !tr.Doubles || !tr.Gateway || strings.Contains(tr.Turns[0].ModelCalls[2].Error, reporttest.Secret) {
		t.Errorf("the report's trace: doubles %v, gateway %v, error %q", tr.Doubles, tr.Gateway, tr.Turns[0].ModelCalls[2].Error)
	}
	if len(test.Warnings) != 1 || test.Warnings[0].Rule != "doubles" {
		t.Errorf("test warnings %+v", test.Warnings)
	}
	want := []report.RunWarning{
		{Rule: "backend", Message: "tools/call check_stock was attributed to no test: no test that uses the backend was running"},
		{Rule: "backend", Message: `chat completions gpt-4o-mini was attributed to no test: no test attempt is running as Ananke-Test: "***"`},
	}
	if !slices.Equal(r.Warnings, want) {
		t.Errorf("run warnings\n%+v\nwant\n%+v", r.Warnings, want)
	}
	m, err := report.Merge([]*report.Report{r, reporttest.Pick(false, reporttest.Passing)})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.Warnings, want) {
		t.Errorf("merged run warnings %+v", m.Warnings)
	}
}
