package junit

import (
	"github.com/jstemmer/go-junit-report/v2/junit"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/internal/format"
)

// Quarantine (docs/history.md#quarantine): a quarantined test that failed
// or errored is written as <skipped type="quarantined">, its message
// saying so with the entry's reason and its text the failure or error it
// would have been — a <failure> or <error> would fail the build of a CI
// that reads only this file (Jenkins marks it unstable; a GitHub action
// that publishes JUnit fails on it), which a quarantine must never do. The
// conversation stays in <system-out>. A quarantined test that passed is
// written as it is. Either way its suite gets a property,
// ananke.quarantined (the test's id in brackets in a suite of several
// tests, as the pass rate's): its status, the entry's reason and where
// the entry is.

// quarantinedCase rewrites a quarantined test's failure or error as a
// skip that carries it.
func quarantinedCase(tc *testcase, t *report.Test) {
	q := t.Quarantined
	if q == nil || !t.Status.Failed() {
		return
	}
	what, data := "failed", ""
	switch {
	case tc.Failure != nil:
		data = tc.Failure.Message + "\n\n" + tc.Failure.Data
	case tc.Error != nil:
		what, data = "errored", tc.Error.Message+"\n\n"+tc.Error.Data
	}
	tc.Failure, tc.Error, tc.Reruns = nil, nil, nil
	tc.Skipped = &junit.Result{Type: "quarantined", Message: clean(format.Short("quarantined, "+what+" (not failing the build): "+q.Reason, maxMessage)),
		Data: clean(data)}
}

// quarantineProperties adds a property per quarantined test of a suite:
// ananke.quarantined = "fail: the payment sandbox declines at random
// (until 2026-12-31, ananke.config.yaml:12)", "pass, stable in this run:
// …".
func quarantineProperties(s *testsuite, tests []*report.Test) {
	for _, t := range tests {
		q := t.Quarantined
		if q == nil {
			continue
		}
		st := string(t.Status)
		if t.Status == status.Pass && q.StableInRun {
			st += ", stable in this run"
		}
		s.AddProperty("ananke.quarantined"+testSuffix(t, tests), clean(st+": "+q.Reason+" ("+format.QuarantineEntry(q)+")"))
	}
}
