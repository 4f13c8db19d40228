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
	var r report.Report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("read report %s: %s: %w", dir, SummaryFile, err)
	}
	if r.Schema != report.Schema {
		return nil, fmt.Errorf("read report %s: %s has schema %q; this Ananke reads %q", dir, SummaryFile, r.Schema, report.Schema)
	}
	return &r, nil
}
