// Package jsonreport writes the machine-readable files of the report
// directory: summary.json (the whole run, schema ananke.report/v1), one
// result file and one trace file per test.
package jsonreport

import (
	"encoding/json"
	"io"

	"github.com/ananke/action/internal/report"
)

// WriteSummary writes summary.json.
func WriteSummary(w io.Writer, r *report.Report) error { return encode(w, r) }

// WriteResult writes one test's result file: its entry of summary.json.
func WriteResult(w io.Writer, t *report.Test) error { return encode(w, t) }

// encode writes indented JSON without HTML escaping, so agent text reads
// as the agent sent it.
func encode(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
