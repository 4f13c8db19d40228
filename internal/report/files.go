package report

import (
	"crypto/sha256"
	"fmt"
	"strings"
)

// TestsDir is the report directory's folder of per-test files.
const TestsDir = "tests"

// maxNameLen bounds a test's file name stem (file systems allow 255 bytes;
// the suffixes and a hash need room).
const maxNameLen = 120

// nameFiles sets every test's result and trace file names, and each
// attempt's: tests/<stem>.result.json and tests/<stem>.trace.json, where
// the stem is the test id made safe as a file name and unique within the
// run; a test run more than once has a trace per attempt,
// tests/<stem>.attempt-<k>.trace.json, and its trace file is the shown
// attempt's.
func nameFiles(tests []Test, shown []int) {
	seen := map[string]bool{}
	for i := range tests {
		t := &tests[i]
		stem := SafeName(t.ID)
		if seen[strings.ToLower(stem)] { // case-insensitive file systems
			sum := sha256.Sum256([]byte(t.ID))
			stem = fmt.Sprintf("%s-%x", stem, sum[:4])
		}
		seen[strings.ToLower(stem)] = true
		base := TestsDir + "/" + stem
		t.ResultFile, t.TraceFile = base+".result.json", base+".trace.json"
		if len(t.Attempts) == 1 {
			t.Attempts[0].TraceFile = t.TraceFile
			continue
		}
		for k := range t.Attempts {
			t.Attempts[k].TraceFile = fmt.Sprintf("%s.attempt-%d.trace.json", base, k+1)
		}
		if s := shown[i]; s >= 0 && s < len(t.Attempts) {
			t.TraceFile = t.Attempts[s].TraceFile
		}
	}
}

// SafeName makes a test id a file name stem: it keeps letters, digits,
// '.', '-' and '_' and turns every other run of characters (path
// separators included) into one '_'; a long id is cut and given a hash.
func SafeName(id string) string {
	var b strings.Builder
	under := false
	for _, r := range id {
		ok := r == '.' || r == '-' || r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9')
		switch {
		case ok:
			b.WriteRune(r)
			under = false
		case !under:
			b.WriteByte('_')
			under = true
		}
	}
	name := strings.Trim(b.String(), "._")
	if name == "" {
		name = "test"
	}
	if len(name) > maxNameLen {
		sum := sha256.Sum256([]byte(id))
		name = fmt.Sprintf("%s-%x", name[:maxNameLen], sum[:4])
	}
	return name
}
