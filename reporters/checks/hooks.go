package checks

import (
	"fmt"

	"github.com/ananke/action/internal/github"
	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/internal/format"
)

// hooks annotates each failed before_all or after_all hook at its line in
// the config, with its message and stderr. It also returns byHook, which
// reports a test that errored because a hook failed (a before_all: no
// test ran): its reason is the hook's message at the hook's line, so the
// hook's annotation counts it instead of repeating it once per test.
func hooks(out []github.Annotation, r *report.Report) ([]github.Annotation, func(*report.Test) bool) {
	failed := r.FailedHooks()
	byHook := func(t *report.Test) bool {
		if t.Status != status.Error || t.At == nil {
			return false
		}
		for _, h := range failed {
			if h.Message == t.Reason && h.Source == *t.At {
				return true
			}
		}
		return false
	}
	for _, h := range failed {
		msg, n := h.Message, 0
		for i := range r.Tests {
			if t := &r.Tests[i]; t.Reason == h.Message && byHook(t) {
				n++
			}
		}
		if n > 0 {
			msg += fmt.Sprintf("\n%s errored because of it", plural.Count(n, "test"))
		}
		out = appendIn(out, github.Annotation{Path: h.Source.File, Line: max(h.Source.Line, 1), Level: github.LevelFailure,
			Title: format.HookName(h) + " failed", Message: msg, RawDetails: h.Detail})
	}
	return out, byHook
}
