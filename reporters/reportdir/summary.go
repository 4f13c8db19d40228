package reportdir

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ananke/action/internal/report"
)

// ReadSummary loads a report directory's summary.json alone, without the
// traces it names: enough to compare runs (ananke diff), and far cheaper
// than Read for a large run. It refuses a file of another schema.
func ReadSummary(dir string) (*report.Report, error) {
	data, err := os.ReadFile(filepath.Join(dir, SummaryFile))
	if err != nil {
		return nil, fmt.Errorf("read report %s: %w", dir, err)
	}
	r, err := ParseSummary(data)
	if err != nil {
		return nil, fmt.Errorf("read report %s: %w", dir, err)
	}
	return r, nil
}

// ParseSummary decodes the content of a summary.json found elsewhere than
// in a directory — e.g. in a report artifact's zip — as ReadSummary does,
// refusing another schema. The report has no traces.
func ParseSummary(data []byte) (*report.Report, error) {
	var r report.Report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", SummaryFile, err)
	}
	if r.Schema != report.Schema {
		return nil, fmt.Errorf("%s has schema %q; this Ananke reads %q", SummaryFile, r.Schema, report.Schema)
	}
	return &r, nil
}
