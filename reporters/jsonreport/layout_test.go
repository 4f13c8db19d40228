package jsonreport_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/jsonreport"
)

// TestTestsLast: summary.json is written a test at a time after the
// report's other fields, so "tests" must stay the report's last JSON
// field — a field added after it would make every summary unwritable —
// and a report with every optional field set still writes as valid JSON.
func TestTestsLast(t *testing.T) {
	typ := reflect.TypeFor[report.Report]()
	last := ""
	for i := range typ.NumField() {
		if f := typ.Field(i); f.IsExported() {
			if tag := strings.Split(f.Tag.Get("json"), ",")[0]; tag != "-" {
				last = tag
			}
		}
	}
	if last != "tests" {
		t.Fatalf("the report's last JSON field is %q; summary.json needs \"tests\" last", last)
	}
	r := reporttest.Report()
	r.History = &report.History{Base: "main", Runs: 20, Alpha: 0.05}
	var b bytes.Buffer
	if err := jsonreport.WriteSummary(&b, r); err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(b.Bytes(), &back); err != nil || back["history"] == nil || back["tests"] == nil {
		t.Errorf("summary with a history: %v, history %v", err, back["history"])
	}
}
