package normalized

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/tracefile"
)

// SummaryFile is the report directory's summary.
const SummaryFile = "summary.json"

// Report is a report directory opened for export: its summary.json. The
// trace files are read one at a time, as they are exported.
type Report struct {
	Dir     string
	Summary report.Report
	// RunID is the run's test_run_id (see RunID).
	RunID string
}

// Item is one trace to export: a test's attempt (nil when the test never
// ran) and the file name it is exported as.
type Item struct {
	Name    string
	Test    *report.Test
	Attempt *report.Attempt
}

// Open reads a report directory's summary.json.
func Open(dir string) (*Report, error) {
	data, err := os.ReadFile(filepath.Join(dir, SummaryFile))
	if err != nil {
		return nil, fmt.Errorf("read report %s: %w", dir, err)
	}
	r := &Report{Dir: dir}
	if err := json.Unmarshal(data, &r.Summary); err != nil {
		return nil, fmt.Errorf("read report %s: %s: %w", dir, SummaryFile, err)
	}
	if r.Summary.Schema != report.Schema {
		return nil, fmt.Errorf("read report %s: %s has schema %q; this Ananke reads %q", dir, SummaryFile, r.Summary.Schema, report.Schema)
	}
	var shard string
	if s := r.Summary.Shard; s != nil {
		shard = fmt.Sprintf("%d/%d", s.Index, s.Total)
	}
	r.RunID = RunID(r.Summary.StartedAt, r.Summary.Config, shard)
	return r, nil
}

// Items lists the traces to export: each test's shown attempt or, with
// all, every attempt; only test testID's when it is not empty.
func (r *Report) Items(testID string, all bool) ([]Item, error) {
	var out []Item
	for i := range r.Summary.Tests {
		t := &r.Summary.Tests[i]
		if testID != "" && t.ID != testID {
			continue
		}
		stem := stem(t)
		switch {
		case len(t.Attempts) == 0:
			out = append(out, Item{Name: stem + ".trace.json", Test: t})
		case all && len(t.Attempts) > 1:
			for k := range t.Attempts {
				out = append(out, Item{Name: fmt.Sprintf("%s.attempt-%d.trace.json", stem, k+1), Test: t, Attempt: &t.Attempts[k]})
			}
		default:
			if t.Shown < 1 || t.Shown > len(t.Attempts) {
				return nil, fmt.Errorf("read report %s: test %s: shown_attempt %d is not one of its %d attempts", r.Dir, t.ID, t.Shown, len(t.Attempts))
			}
			out = append(out, Item{Name: stem + ".trace.json", Test: t, Attempt: &t.Attempts[t.Shown-1]})
		}
	}
	if testID != "" && len(out) == 0 {
		return nil, fmt.Errorf("report %s has no test %q", r.Dir, testID)
	}
	return out, nil
}

// stem is the name the report gave the test's files (tests/<stem>.result.json),
// so that an export's names match the report's.
func stem(t *report.Test) string {
	s, ok := strings.CutSuffix(path.Base(t.ResultFile), ".result.json")
	if !ok || !safe(s) {
		return report.SafeName(t.ID)
	}
	return s
}

// safe reports whether s is a file name stem as report.SafeName makes
// them: letters, digits, '.', '-' and '_', not starting with '.'.
func safe(s string) bool {
	if s == "" || s[0] == '.' {
		return false
	}
	for _, r := range s {
		if !(r == '.' || r == '-' || r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9')) {
			return false
		}
	}
	return true
}

// Export reads an item's trace file and builds its normalized trace.
func (r *Report) Export(it Item) (Trace, error) {
	t := it.Test
	m := Meta{TestID: t.ID, TestName: t.Name, TestFile: t.File, RunID: r.RunID, Status: t.Status, DurationMs: t.DurationMs,
		Version: r.Summary.Version, AgentID: r.Summary.Target.AgentID, TraceFile: t.TraceFile}
	if a := it.Attempt; a != nil {
		m.Run, m.Retry, m.Status, m.DurationMs, m.TraceFile = a.Run, a.Retry, a.Status, a.DurationMs, a.TraceFile
	}
	rel := filepath.FromSlash(m.TraceFile)
	if m.TraceFile == "" || !filepath.IsLocal(rel) {
		return Trace{}, fmt.Errorf("read report %s: test %s: trace file %q is not inside the directory", r.Dir, t.ID, m.TraceFile)
	}
	f, err := os.Open(filepath.Join(r.Dir, rel))
	if err != nil {
		return Trace{}, fmt.Errorf("read report %s: %w", r.Dir, err)
	}
	defer f.Close()
	tr, err := tracefile.Read(f)
	if err != nil {
		return Trace{}, fmt.Errorf("read report %s: %s: %w", r.Dir, m.TraceFile, err)
	}
	return Build(tr, m), nil
}
