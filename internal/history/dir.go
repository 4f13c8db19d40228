package history

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ananke/action/internal/report"
)

// SummaryFile is the file of a report directory a history reads.
const SummaryFile = "summary.json"

// MaxSummaryBytes bounds one summary.json read into a history.
const MaxSummaryBytes = 64 << 20

// ReadDir builds a history from a directory of downloaded reports: each
// subdirectory holding a summary.json is one run, named by the
// subdirectory (its trailing digits, as in "run-41" or "41", are the run's
// number), ordered by when it started. Only summary.json is read.
// Subdirectories without one are passed over; a summary.json that cannot
// be read is an error.
func ReadDir(dir string) (*History, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read reports: %w", err)
	}
	type found struct {
		run Run
		rep *report.Report
	}
	var runs []found
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		path := filepath.Join(dir, e.Name(), SummaryFile)
		r, err := ReadSummary(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		runs = append(runs, found{Run{ID: e.Name(), Number: trailingNumber(e.Name()), StartedAt: r.StartedAt, Status: r.Status}, r})
	}
	if len(runs) == 0 {
		return nil, fmt.Errorf("read reports: no subdirectory of %s holds a %s", dir, SummaryFile)
	}
	order := make([]Run, len(runs))
	byID := make(map[string]*report.Report, len(runs))
	for i, f := range runs {
		order[i], byID[f.run.ID] = f.run, f.rep
	}
	sortRuns(order)
	h := &History{}
	for _, run := range order {
		h.Add(run, byID[run.ID])
	}
	return h, nil
}

// trailingNumber is the number a name ends with ("run-41": 41); 0 when it
// ends with none.
func trailingNumber(name string) int64 {
	digits := len(name) - len(strings.TrimRight(name, "0123456789"))
	n, err := strconv.ParseInt(name[len(name)-digits:], 10, 64)
	if err != nil {
		return 0
	}
	return n
}

// ReadSummary reads a report's summary.json (at most MaxSummaryBytes),
// refusing another schema. An error for a missing file wraps
// fs.ErrNotExist.
func ReadSummary(path string) (*report.Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read report: %w", err)
	}
	defer f.Close()
	data, err := readAtMost(f, MaxSummaryBytes)
	if err != nil {
		return nil, fmt.Errorf("read report %s: %w", path, err)
	}
	r, err := ParseSummary(data)
	if err != nil {
		return nil, fmt.Errorf("read report %s: %w", path, err)
	}
	return r, nil
}

// ParseSummary decodes a summary.json (ananke.report/v1), refusing another
// schema.
func ParseSummary(data []byte) (*report.Report, error) {
	var r report.Report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, err
	}
	if r.Schema != report.Schema {
		return nil, fmt.Errorf("schema %q; want %q", r.Schema, report.Schema)
	}
	return &r, nil
}

// readAtMost reads r whole, refusing more than limit bytes.
func readAtMost(r io.Reader, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("larger than %d bytes", limit)
	}
	return data, nil
}
