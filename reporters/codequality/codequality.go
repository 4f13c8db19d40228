// Package codequality writes the report as a GitLab Code Quality report
// (gl-code-quality-report.json): the subset of the CodeClimate issue
// format GitLab documents — description, check_name, fingerprint,
// severity, location.path and location.lines.begin — for the problems of
// reporters/internal/issues, so that a merge request shows each failing
// assertion on its YAML line. GitLab keys the issues of a report by
// fingerprint and compares a merge request's with its target branch's by
// fingerprint alone: a fingerprint names the test and the assertion, not
// the line, so a problem that stays is not reported as new when its test
// moves. docs/reports.md has the severity table.
package codequality

import (
	"encoding/json"
	"io"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/reporters/internal/issues"
)

// Issue is one Code Quality issue. Type, Categories and Lines.End are
// CodeClimate's, which GitLab ignores; with them an issue is a complete
// CodeClimate issue as well.
type Issue struct {
	Type        string   `json:"type"`
	CheckName   string   `json:"check_name"`
	Description string   `json:"description"`
	Categories  []string `json:"categories"`
	Fingerprint string   `json:"fingerprint"`
	Severity    string   `json:"severity"`
	Location    Location `json:"location"`
}

// Location is where an issue is: a path relative to the repository root
// and its line.
type Location struct {
	Path  string `json:"path"`
	Lines Lines  `json:"lines"`
}

// Lines are the first and last line of an issue: the same line.
type Lines struct {
	Begin int `json:"begin"`
	End   int `json:"end"`
}

// Severities are GitLab's, by issues.Severity; "blocker" is never used.
var severities = map[issues.Severity]string{
	issues.Info:     "info",
	issues.Minor:    "minor",
	issues.Major:    "major",
	issues.Critical: "critical",
}

// Issues returns r's issues in GitLab's format, in the order of
// issues.List; an empty slice, never nil, when nothing is wrong.
func Issues(r *report.Report) []Issue {
	out := []Issue{}
	for _, is := range issues.List(r) {
		out = append(out, Issue{Type: "issue", CheckName: is.Check, Description: is.Summary, Categories: []string{"Bug Risk"},
			Fingerprint: is.Fingerprint, Severity: severities[is.Severity], Location: Location{Path: is.Path, Lines: Lines{Begin: is.Line, End: is.Line}}})
	}
	return out
}

// Write writes r's Code Quality report: a JSON array, "[]" when nothing
// is wrong, indented, with no byte order mark (GitLab refuses one).
func Write(w io.Writer, r *report.Report) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(Issues(r))
}
