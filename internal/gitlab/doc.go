// Package gitlab is Ananke's one place for GitLab: it reads a CI job's
// context (the CI_* variables), and talks to GitLab's REST API v4 through a
// small client of its own — the merge request notes (listed page by page,
// created, edited: the sticky note, found by a hidden marker) and the job
// artifacts archive of the target branch's latest successful pipeline (the
// base report). Every request carries the token as PRIVATE-TOKEN, is
// bounded by a timeout, and is retried a bounded number of times on a rate
// limit (429, honouring Retry-After) and, where sending it again is safe,
// on a passing server error. It knows nothing of tests or reports: the
// reporters make the note's markdown, and internal/cli publishes it here.
//
// Why not GitLab's own Go client (gitlab.com/gitlab-org/api/client-go):
// Ananke calls four endpoints, and that module is a client for all of
// GitLab's hundreds. Measured with v1.46.0 on Go 1.26.8 (linux/amd64,
// CGO_ENABLED=0 -trimpath): calling its note and artifact methods from the
// CLI makes the stripped ananke binary 4.47 MB larger (27.97 → 32.44 MB,
// +16%, against an action image held under 45 MB and aimed at 30 MB,
// docs/performance.md), adds three modules (client-go,
// hashicorp/go-retryablehttp and go-cleanhttp) and two package inits that
// every command pays at start-up (301 allocations, 37.8 KB). The requests
// here are a few lines each, and their retries, timeouts and token
// handling are the ones this package tests.
package gitlab
