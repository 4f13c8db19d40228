package jsonreport_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/jsonreport"
)

// TestSnapshotsMatchSchema: summary.json holds the run's snapshot counts
// as the schema describes them, and leaves them out when there are none;
// the schema rejects a count it does not know and a negative one.
func TestSnapshotsMatchSchema(t *testing.T) {
	summary, _ := compileSchema(t)
	r := reporttest.Report()
	var b bytes.Buffer
	if err := jsonreport.WriteSummary(&b, r); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), `"snapshots"`) {
		t.Error("a run without snapshots has a snapshots field")
	}
	r.Snapshots = &report.Snapshots{Written: 2, Updated: 1, Failed: 1, Obsolete: 3}
	b.Reset()
	if err := jsonreport.WriteSummary(&b, r); err != nil {
		t.Fatal(err)
	}
	js := b.String()
	want := `"snapshots": {
    "written": 2,
    "updated": 1,
    "failed": 1,
    "obsolete": 3,
    "removed": 0
  },`
	if !strings.Contains(js, want) {
		t.Errorf("summary.json lacks\n%s", want)
	}
	v, _ := jsonschema.UnmarshalJSON(strings.NewReader(js))
	if err := summary.Validate(v); err != nil {
		t.Errorf("summary.json does not match the schema: %v", err)
	}
	for _, bad := range []string{strings.Replace(js, `"removed": 0`, `"deleted": 0`, 1), strings.Replace(js, `"failed": 1`, `"failed": -1`, 1)} {
		v, _ := jsonschema.UnmarshalJSON(strings.NewReader(bad))
		if summary.Validate(v) == nil {
			t.Errorf("the schema accepts\n%s", bad[:strings.Index(bad, `"tests"`)])
		}
	}
}
