package diff

import (
	"slices"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
)

// Compare returns what changed from base to head, pass rates judged at
// DefaultSignificance. Tests are matched by id (the first of a report's
// tests with an id, should one repeat); neither report is modified.
func Compare(base, head *report.Report) *Change {
	return CompareAt(base, head, DefaultSignificance)
}

// CompareAt is Compare with the pass rates of tests run more than once
// judged at significance level alpha, in (0, 1): a lower pass rate whose
// p-value is at most alpha is a regression, one above it is within noise.
func CompareAt(base, head *report.Report, alpha float64) *Change {
	c := &Change{Base: run(base), Head: run(head), Rates: Rates{Significance: alpha}}
	inBase := index(base)
	inHead := index(head)
	for i := range head.Tests {
		h := &head.Tests[i]
		if inHead[h.ID] != i {
			continue
		}
		var b *report.Test
		if k, ok := inBase[h.ID]; ok {
			b = &base.Tests[k]
		}
		c.add(b, h)
	}
	for i := range base.Tests {
		b := &base.Tests[i]
		if _, ok := inHead[b.ID]; !ok && inBase[b.ID] == i {
			c.Removed = append(c.Removed, entry(b, nil))
			c.Cost.seen(b)
		}
	}
	sortDurations(c)
	c.Cost.sort()
	return c
}

func run(r *report.Report) Run {
	return Run{Status: r.Status, Totals: r.Totals, DurationMs: r.DurationMs}
}

// index maps each test id to the position of its first test.
func index(r *report.Report) map[string]int {
	m := make(map[string]int, len(r.Tests))
	for i := range r.Tests {
		if _, ok := m[r.Tests[i].ID]; !ok {
			m[r.Tests[i].ID] = i
		}
	}
	return m
}

// add files a head test, and its base test when there is one (b nil: a
// new test), into every category it belongs to.
func (c *Change) add(b, h *report.Test) {
	e := entry(b, h)
	if b == nil {
		c.Added = append(c.Added, e)
	}
	switch {
	case h.Status.Failed() && (b == nil || !b.Status.Failed()):
		c.NewFailures = append(c.NewFailures, e)
	case b == nil:
	case b.Status.Failed() && h.Status == status.Pass:
		c.Fixed = append(c.Fixed, e)
	case b.Status.Failed() && h.Status.Failed():
		c.StillFailing = append(c.StillFailing, e)
	case h.Status == status.Skipped && b.Status != status.Skipped:
		c.NowSkipped = append(c.NowSkipped, e)
	case b.Status == status.Skipped && h.Status == status.Pass:
		c.NoLongerSkipped = append(c.NoLongerSkipped, e)
	}
	switch {
	case h.Flaky && (b == nil || !b.Flaky):
		c.NewlyFlaky = append(c.NewlyFlaky, e)
	case b != nil && b.Flaky && !h.Flaky:
		c.NoLongerFlaky = append(c.NoLongerFlaky, e)
	}
	if b != nil && ran(b) && ran(h) {
		switch d := Notable(b.DurationMs, h.DurationMs); {
		case d > 0:
			c.Slower = append(c.Slower, e)
		case d < 0:
			c.Faster = append(c.Faster, e)
		}
		c.Cost.add(e, b, h)
		c.Rates.add(e, b, h)
		return
	}
	c.Cost.seen(b)
	c.Cost.seen(h)
}

// ran reports a test that was not skipped: only those have a duration
// worth comparing.
func ran(t *report.Test) bool { return t.Status != status.Skipped }

// variantName is a test's name with its variant, when it ran under one
// ("greets the user [careful]"): the same test is in the report once per
// variant (docs/variants.md).
func variantName(t *report.Test) string {
	if t.Variant == "" {
		return t.Name
	}
	return t.Name + " [" + t.Variant + "]"
}

// entry describes a test from its base and head results (either nil).
func entry(b, h *report.Test) Entry {
	var e Entry
	if b != nil {
		e.ID, e.Name, e.File, e.Line = b.ID, variantName(b), b.File, b.Line
		e.Base, e.BaseMs, e.BaseFlaky = b.Status, b.DurationMs, b.Flaky
	}
	if h == nil {
		return e
	}
	e.ID, e.Name, e.File, e.Line = h.ID, variantName(h), h.File, h.Line
	e.Head, e.HeadMs, e.HeadFlaky = h.Status, h.DurationMs, h.Flaky
	if h.Status != status.Pass {
		e.Reason = h.Reason
	}
	if h.Status.Failed() {
		failed := h.Failed()
		for _, a := range failed[:min(len(failed), MaxFailures)] {
			e.Failures = append(e.Failures, Failure{ID: a.ID, Message: a.Message, Source: a.Source})
		}
		e.MoreFailures = len(failed) - len(e.Failures)
		e.FailuresChanged = b != nil && b.Status.Failed() && !sameFailures(b, h)
	}
	return e
}

// sameFailures reports two failing results that failed the same
// assertions — or, errored both, for the same reason.
func sameFailures(b, h *report.Test) bool {
	if b.Status == status.Error && h.Status == status.Error && b.Reason != h.Reason {
		return false
	}
	return slices.Equal(failedIDs(b), failedIDs(h))
}

func failedIDs(t *report.Test) []string {
	var ids []string
	for _, a := range t.Failed() {
		ids = append(ids, a.ID)
	}
	slices.Sort(ids)
	return ids
}
