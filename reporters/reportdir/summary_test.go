package reportdir_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/internal/variants"
	"github.com/ananke/action/reporters/reportdir"
)

// TestReadSummary: summary.json alone is read, traces neither loaded nor
// needed; a missing, broken or foreign summary is refused as Read does.
func TestReadSummary(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "r")
	want := reporttest.Report()
	if err := reportdir.Write(dir, want); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, "tests")); err != nil {
		t.Fatal(err)
	}
	r, err := reportdir.ReadSummary(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !sameTotals(r.Totals, want.Totals) || len(r.Tests) != len(want.Tests) || r.Status != want.Status {
		t.Errorf("totals %+v, %d tests, status %s; want %+v, %d, %s", r.Totals, len(r.Tests), r.Status, want.Totals, len(want.Tests), want.Status)
	}
	for _, tt := range r.Tests {
		if tt.Trace != nil {
			t.Errorf("test %s has a trace", tt.ID)
		}
	}
	if _, err := reportdir.Read(dir); err == nil {
		t.Error("Read without the trace files succeeded")
	}
	for _, tc := range []struct{ name, summary, want string }{
		{"no summary", "", "summary.json: no such file"},
		{"not JSON", "{", "summary.json: unexpected end of JSON input"},
		{"other schema", `{"schema":"ananke.report/v9"}`, `has schema "ananke.report/v9"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.summary != "" {
				os.WriteFile(filepath.Join(dir, "summary.json"), []byte(tc.summary), 0o644)
			}
			if _, err := reportdir.ReadSummary(dir); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ReadSummary err = %v; want %q", err, tc.want)
			}
		})
	}
}

// TestParseSummary: the bytes of a summary.json (as found in an artifact's
// zip) decode as ReadSummary decodes the file, with the same refusals.
func TestParseSummary(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "r")
	want := reporttest.Report()
	if err := reportdir.Write(dir, want); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, reportdir.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	r, err := reportdir.ParseSummary(data)
	if err != nil {
		t.Fatal(err)
	}
	if !sameTotals(r.Totals, want.Totals) || len(r.Tests) != len(want.Tests) || r.Status != want.Status {
		t.Errorf("totals %+v, %d tests, status %s; want %+v, %d, %s", r.Totals, len(r.Tests), r.Status, want.Totals, len(want.Tests), want.Status)
	}
	for _, tc := range []struct{ name, data, want string }{
		{"empty", "", "summary.json: unexpected end of JSON input"},
		{"not JSON", "<html>", "summary.json: invalid character"},
		{"other schema", `{"schema":"ananke.report/v9"}`, `summary.json has schema "ananke.report/v9"; this Ananke reads "ananke.report/v1"`},
		{"no schema", `{"tests":[]}`, `summary.json has schema ""`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := reportdir.ParseSummary([]byte(tc.data)); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ParseSummary(%q) err = %v; want %q", tc.data, err, tc.want)
			}
		})
	}
}

// sameTotals compares totals as summary.json holds them: the agent's usage
// read back is equal, not the same pointer.
func sameTotals(a, b report.Totals) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

// TestReadSummaryVariants: a report with variants read back from its
// summary.json keeps each test's variant and the comparison, and the
// comparison computed again from what was read is the same.
func TestReadSummaryVariants(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "r")
	want := reporttest.VariantsReport()
	if err := reportdir.Write(dir, want); err != nil {
		t.Fatal(err)
	}
	r, err := reportdir.ReadSummary(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i, tt := range r.Tests {
		if tt.Variant == "" || tt.Variant != want.Tests[i].Variant || tt.ID != want.Tests[i].ID {
			t.Errorf("test %d: %s under %q, want %s under %q", i, tt.ID, tt.Variant, want.Tests[i].ID, want.Tests[i].Variant)
		}
	}
	if !reflect.DeepEqual(r.Variants, want.Variants) {
		t.Errorf("variants read back\n%+v\nwant\n%+v", r.Variants, want.Variants)
	}
	if again := variants.Compare(r, reporttest.VariantNames, want.Variants.Significance); !reflect.DeepEqual(again, want.Variants) {
		t.Errorf("compared again from summary.json\n%+v\nwant\n%+v", again, want.Variants)
	}
}
