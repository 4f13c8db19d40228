package junit

import (
	"fmt"

	"github.com/jstemmer/go-junit-report/v2/junit"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/internal/format"
)

// hookSuite is the <testsuite> of the config's before_all and after_all
// hooks, one <testcase> each ("before_all[0]"), with an <error type="hook">
// for one that failed: a failed after_all errors a run whose tests all
// passed, and a CI that reads only this file (GitLab, Jenkins) must see
// it. As a test file's suite is named after the file, this one is named
// after the config, which is also its testcases' classname. It reports
// false for a run without suite hooks.
func hookSuite(r *report.Report) (testsuite, bool) {
	if len(r.Hooks) == 0 {
		return testsuite{}, false
	}
	file := clean(hookFile(r))
	s := testsuite{Testsuite: junit.Testsuite{Name: file, File: file}}
	if !r.StartedAt.IsZero() {
		s.SetTimestamp(r.StartedAt)
	}
	var ms int64
	for _, h := range r.Hooks {
		tc := testcase{Testcase: junit.Testcase{Name: clean(format.HookName(h)), Classname: file, Time: seconds(h.DurationMs)}}
		if h.Status == status.Error {
			tc.Error = &junit.Result{Message: clean(format.Short(h.Message, maxMessage)), Type: "hook", Data: clean(hookText(h))}
		}
		s.add(tc)
		ms += h.DurationMs
	}
	s.Time = seconds(ms)
	return s, true
}

// hookFile is where the hooks are written: the config, or, in a report
// that does not say, "ananke.hooks".
func hookFile(r *report.Report) string {
	for _, h := range r.Hooks {
		if h.Source.File != "" {
			return h.Source.File
		}
	}
	if r.Config != "" {
		return r.Config
	}
	return "ananke.hooks"
}

// hookText is a failed hook's error text: its position and message, in the
// layout compilers use, then its stderr.
func hookText(h report.Hook) string {
	s := h.Message + "\n"
	if h.Source.File != "" {
		s = fmt.Sprintf("%s: %s", h.Source, s)
	}
	if h.Detail != "" {
		s += "\n" + h.Detail + "\n"
	}
	return s
}
