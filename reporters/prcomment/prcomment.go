// Package prcomment renders the sticky pull-request comment: the run in
// markdown, headed by a hidden marker naming the check, so that the next
// run finds and edits this comment instead of adding another.
package prcomment

import (
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/reporters/markdown"
)

// maxBytes keeps the comment under GitHub's 65536-character limit.
const maxBytes = 65000

// Marker is the hidden marker of the comment for checkName.
func Marker(checkName string) string { return "<!-- ananke:report:" + checkName + " -->" }

// Options shape the comment.
type Options struct {
	CheckName string
	LinkBase  string // blob URL prefix for file links
	Artifact  string // where the full report is
	Footer    string // trusted markdown at the end (report links)
	// Lead is trusted markdown under the heading, before the totals (what
	// changed since the base run); left out when the comment cannot hold it.
	Lead string
}

// Body renders the comment, marker first.
func Body(r *report.Report, o Options) string {
	return markdown.Render(r, markdown.Options{Budget: maxBytes, Title: o.CheckName, LinkBase: o.LinkBase, Artifact: o.Artifact, Marker: Marker(o.CheckName), Footer: o.Footer, Lead: o.Lead})
}
