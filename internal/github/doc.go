// Package github is Ananke's one place for GitHub: it reads the Actions
// context (GITHUB_* variables and the event payload), talks to the REST
// API through go-github (check runs, issue comments) with bounded retries
// that honour Retry-After, finds and downloads the base branch's report
// artifact for a pull request (BaseReport) and a branch's history — its
// history file, or its recent runs' summary.json files, within a byte and
// time budget (GatherHistory) — and, in package artifact, uploads
// artifacts.
// It knows nothing of tests or reports; the reporters turn a report into
// the check run and comment published here.
package github
