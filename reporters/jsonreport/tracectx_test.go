package jsonreport_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/jsonreport"
)

// TestTraceIDInSummary: summary.json gives the shown attempt's trace id
// beside its trace file, and each attempt's; the schema accepts them and
// rejects an id that is not 32 lowercase hex digits.
func TestTraceIDInSummary(t *testing.T) {
	summary, _ := compileSchema(t)
	r := reporttest.Report()
	const id = "0af7651916cd43dd8448eb211c80319c"
	r.Tests[0].TraceID, r.Tests[0].Attempts[0].TraceID = id, id
	var b bytes.Buffer
	if err := jsonreport.WriteSummary(&b, r); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), `"trace_id": "`+id+`"`); n != 2 {
		t.Errorf("the trace id is in summary.json %d times, want 2 (the test's, its attempt's)", n)
	}
	v, _ := jsonschema.UnmarshalJSON(bytes.NewReader(b.Bytes()))
	if err := summary.Validate(v); err != nil {
		t.Errorf("summary.json does not match the schema: %v", err)
	}
	bad := strings.Replace(b.String(), id, "0AF7651916CD43DD8448EB211C80319C", 1)
	v, _ = jsonschema.UnmarshalJSON(strings.NewReader(bad))
	if summary.Validate(v) == nil {
		t.Error("the schema accepts an upper-case trace id")
	}
}
