package history

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
)

// t0 is when the first run of a built history started; run i starts i
// hours later.
var t0 = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

// reportOf is a run's report whose tests' results follow chars: one
// character per test, as in a history file's statuses (p f e s, upper case
// flaky; '.' leaves the test out).
func reportOf(start time.Time, ids []string, chars string) *report.Report {
	r := &report.Report{Schema: report.Schema, StartedAt: start, Status: status.Pass}
	for k, id := range ids {
		c := chars[k]
		if c == '.' {
			continue
		}
		t := report.Test{ID: id, Name: "test " + id, File: id + ".ananke.yaml", Line: 1, Runs: 1, DurationMs: int64(100 * (k + 1))}
		switch c | 0x20 {
		case 'p':
			t.Status, t.PassedRuns = status.Pass, 1
		case 'f':
			t.Status = status.Fail
		case 'e':
			t.Status = status.Error
		case 's':
			t.Status, t.Runs, t.DurationMs = status.Skipped, 0, 0
		}
		t.Flaky = c < 'a'
		if t.Status.Failed() {
			r.Status = status.Fail
		}
		r.Tests = append(r.Tests, t)
	}
	return r
}

// build is a history of len(patterns[id]) runs, numbered from 1, whose
// tests follow their patterns: one character per run.
func build(t testing.TB, patterns map[string]string) *History {
	t.Helper()
	ids := make([]string, 0, len(patterns))
	n := -1
	for id, p := range patterns {
		ids = append(ids, id)
		if n >= 0 && len(p) != n {
			t.Fatalf("pattern of %s has %d runs; others %d", id, len(p), n)
		}
		n = len(p)
	}
	slices.Sort(ids)
	h := &History{}
	for i := range n {
		chars := make([]byte, len(ids))
		for k, id := range ids {
			chars[k] = patterns[id][i]
		}
		start := t0.Add(time.Duration(i) * time.Hour)
		h.Add(Run{ID: fmt.Sprint(9000 + i), Number: int64(i + 1), Commit: fmt.Sprintf("%040x", i)}, reportOf(start, ids, string(chars)))
	}
	return h
}

// repeat is s n times.
func repeat(s string, n int) string {
	out := ""
	for range n {
		out += s
	}
	return out
}

// write writes r as a summary.json at path.
func write(t testing.TB, path string, r *report.Report) {
	t.Helper()
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
