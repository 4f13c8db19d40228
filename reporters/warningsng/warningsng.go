// Package warningsng writes the report in the native JSON format of
// Jenkins' Warnings Next Generation plugin (warnings-ng-issues.json): an
// object whose "issues" array holds one issue per problem of
// reporters/internal/issues, with the field names of the analysis-model
// Issue that the plugin's `issues` tool reads (fileName, lineStart,
// lineEnd, columnStart, message, description, severity, category, type,
// fingerprint). Read it with
//
//	recordIssues tool: issues(pattern: 'ananke-report/warnings-ng-issues.json', id: 'ananke', name: 'Ananke')
//
// The plugin tracks issues across builds by fingerprint: it keeps the one
// given (the test and the assertion, not the line) rather than computing
// one from the source. docs/reports.md has the severity table.
package warningsng

import (
	"encoding/json"
	"html"
	"io"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/reporters/internal/issues"
)

// Issue is one issue of the native format. Message is plain text (the
// plugin escapes it); Description is HTML (the plugin sanitizes it), so
// the details are escaped here and kept in a <pre>.
type Issue struct {
	FileName    string `json:"fileName"`
	LineStart   int    `json:"lineStart"`
	LineEnd     int    `json:"lineEnd"`
	ColumnStart int    `json:"columnStart,omitempty"`
	Severity    string `json:"severity"`
	Category    string `json:"category"`
	Type        string `json:"type"`
	Message     string `json:"message"`
	Description string `json:"description,omitempty"`
	Fingerprint string `json:"fingerprint"`
}

// Report is the file: the issues under "issues", as the plugin's JSON
// parser reads them.
type Report struct {
	Issues []Issue `json:"issues"`
}

// severities are the analysis model's, by issues.Severity.
var severities = map[issues.Severity]string{
	issues.Info:     "LOW",
	issues.Minor:    "NORMAL",
	issues.Major:    "HIGH",
	issues.Critical: "ERROR",
}

// Build returns r's issues in the native format, in the order of
// issues.List; Issues is empty, never nil, when nothing is wrong.
func Build(r *report.Report) Report {
	out := Report{Issues: []Issue{}}
	for _, is := range issues.List(r) {
		category := is.Category
		if is.Quarantined {
			category += " (quarantined)"
		}
		desc := ""
		if is.Details != "" {
			desc = "<pre>" + html.EscapeString(is.Details) + "</pre>"
		}
		out.Issues = append(out.Issues, Issue{FileName: is.Path, LineStart: is.Line, LineEnd: is.Line, ColumnStart: is.Col,
			Severity: severities[is.Severity], Category: category, Type: is.Check, Message: is.Summary, Description: desc, Fingerprint: is.Fingerprint})
	}
	return out
}

// Write writes r's issues in the native format, indented.
func Write(w io.Writer, r *report.Report) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(Build(r))
}
