package report

import (
	"slices"
	"strings"
	"testing"
)

func TestFileNames(t *testing.T) {
	long := strings.Repeat("a", 300)
	tests := []Test{{ID: "tests/refund"}, {ID: "tests_refund"}, {ID: "Tests/Refund"}, {ID: "../../etc/passwd"},
		{ID: "naïve test: 1?"}, {ID: "..."}, {ID: long}, {ID: "runs", Attempts: make([]Attempt, 3)}, {ID: "once", Attempts: make([]Attempt, 1)}}
	shown := []int{-1, -1, -1, -1, -1, -1, -1, 1, 0}
	nameFiles(tests, shown)
	var got []string
	for _, tt := range tests {
		stem, ok := strings.CutSuffix(strings.TrimPrefix(tt.ResultFile, "tests/"), ".result.json")
		if !ok {
			t.Fatalf("result file %q", tt.ResultFile)
		}
		got = append(got, stem)
	}
	if got[0] != "tests_refund" || got[3] != "etc_passwd" || got[4] != "na_ve_test_1" || got[5] != "test" {
		t.Errorf("names = %q", got)
	}
	if !strings.HasPrefix(got[1], "tests_refund-") || !strings.HasPrefix(got[2], "Tests_Refund-") {
		t.Errorf("colliding names = %q, %q; want hash suffixes", got[1], got[2])
	}
	if len(got[6]) > 130 {
		t.Errorf("long name has %d bytes", len(got[6]))
	}
	lower := make([]string, len(got))
	for i, n := range got {
		lower[i] = strings.ToLower(n)
	}
	slices.Sort(lower)
	if len(slices.Compact(lower)) != len(got) {
		t.Errorf("names are not unique on a case-insensitive file system: %q", got)
	}
	runs := tests[7]
	if runs.Attempts[2].TraceFile != "tests/runs.attempt-3.trace.json" || runs.TraceFile != "tests/runs.attempt-2.trace.json" {
		t.Errorf("attempt trace %q, test trace %q", runs.Attempts[2].TraceFile, runs.TraceFile)
	}
	once := tests[8]
	if once.TraceFile != "tests/once.trace.json" || once.Attempts[0].TraceFile != once.TraceFile {
		t.Errorf("single attempt: test trace %q, attempt trace %q", once.TraceFile, once.Attempts[0].TraceFile)
	}
	if tests[0].TraceFile != "tests/tests_refund.trace.json" {
		t.Errorf("never-run test trace %q", tests[0].TraceFile)
	}
}
