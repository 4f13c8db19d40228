package reportdir

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/tracefile"
)

// Read loads a report directory written by Write: summary.json and every
// trace it names, so that the report can be written again elsewhere (ananke
// merge). What it reads was masked when it was written.
func Read(dir string) (*report.Report, error) {
	r, err := ReadSummary(dir)
	if err != nil {
		return nil, err
	}
	for i := range r.Tests {
		t := &r.Tests[i]
		if len(t.Attempts) == 0 {
			if t.Trace, err = readTrace(dir, t.TraceFile); err != nil {
				return nil, err
			}
			continue
		}
		for k := range t.Attempts {
			a := &t.Attempts[k]
			if a.Trace, err = readTrace(dir, a.TraceFile); err != nil {
				return nil, err
			}
		}
		if t.Shown < 1 || t.Shown > len(t.Attempts) {
			return nil, fmt.Errorf("read report %s: test %s: shown_attempt %d is not one of its %d attempts", dir, t.ID, t.Shown, len(t.Attempts))
		}
		t.Trace = t.Attempts[t.Shown-1].Trace
	}
	return r, nil
}

// readTrace reads one trace file named by summary.json; a name that leaves
// the directory is refused.
func readTrace(dir, name string) (*trace.Trace, error) {
	rel := filepath.FromSlash(name)
	if name == "" || !filepath.IsLocal(rel) {
		return nil, fmt.Errorf("read report %s: trace file %q is not inside the directory", dir, name)
	}
	f, err := os.Open(filepath.Join(dir, rel))
	if err != nil {
		return nil, fmt.Errorf("read report %s: %w", dir, err)
	}
	defer f.Close()
	tr, err := tracefile.Read(f)
	if err != nil {
		return nil, fmt.Errorf("read report %s: %s: %w", dir, name, err)
	}
	return tr, nil
}
