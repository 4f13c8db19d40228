package diff

import (
	"fmt"
	"strings"

	"github.com/ananke/action/internal/stability"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/internal/format"
)

// section is a category as the renderers show it: a title, its items in
// order, and how many entries were left out by MaxDurations.
type section struct {
	title string
	items []item
	more  int
}

// item is an entry as shown: lead is its status transition or duration
// change, note a remark after its location ("new test"), and detail says
// that its failing assertions (or reason) are shown under it. checks are
// the assertions that fail more often, shown under a regressed test, and
// moreChecks counts those left out.
type item struct {
	Entry
	lead, note string
	detail     bool
	checks     []Failure
	moreChecks int
}

// sections returns the change's non-empty categories in display order:
// the failures and regressions first, the tests within noise after the
// other changes of results, then cost and durations, the tests whose cost
// was not compared last. gate, when set, marks the cost changes over it.
func sections(c *Change, gate *float64) []section {
	var out []section
	// capped adds a category of at most limit items (0: all of them).
	capped := func(title string, entries []Entry, show func(Entry) item, limit int) {
		if len(entries) == 0 {
			return
		}
		s := section{title: fmt.Sprintf("%s (%d)", title, len(entries))}
		if limit > 0 && len(entries) > limit {
			entries, s.more = entries[:limit], len(entries)-limit
		}
		for _, e := range entries {
			s.items = append(s.items, show(e))
		}
		out = append(out, s)
	}
	add := func(title string, entries []Entry, show func(Entry) item) { capped(title, entries, show, 0) }
	noisy := map[string]RateEntry{}
	for _, e := range c.Rates.WithinNoise {
		noisy[e.ID] = e
	}
	add("New failures", c.NewFailures, func(e Entry) item {
		it := item{Entry: e, lead: e.Transition(), detail: true}
		switch r, ok := noisy[e.ID]; {
		case e.New():
			it.note = "new test"
		case ok:
			it.note = r.Lead(c.Rates.Significance) + ": within noise"
		}
		return it
	})
	regressed, noise := rateSections(&c.Rates)
	out = append(out, regressed...)
	add("Fixed", c.Fixed, transition)
	add("Still failing", c.StillFailing, func(e Entry) item {
		it := item{Entry: e, lead: e.Transition(), detail: e.FailuresChanged || e.Base != e.Head}
		switch {
		case e.Base != e.Head || !e.FailuresChanged:
		case e.Head == status.Error:
			it.note = "reason changed"
		default:
			it.note = "failing assertions changed"
		}
		return it
	})
	add("Newly flaky", c.NewlyFlaky, transition)
	add("No longer flaky", c.NoLongerFlaky, transition)
	add("Now skipped", c.NowSkipped, func(e Entry) item {
		it := transition(e)
		if e.Reason != "" {
			it.note = "skipped: " + e.Reason
		}
		return it
	})
	add("No longer skipped", c.NoLongerSkipped, transition)
	add("Added", c.Added, transition)
	add("Removed", c.Removed, transition)
	out = append(out, noise...)
	costs, notCompared := costSections(&c.Cost, gate)
	out = append(out, costs...)
	capped("Slower", c.Slower, duration, MaxDurations)
	capped("Faster", c.Faster, duration, MaxDurations)
	return append(out, notCompared...)
}

func transition(e Entry) item { return item{Entry: e, lead: e.Transition()} }

// duration leads with the change, then both durations: "+3.2s (1.0s →
// 4.2s)".
func duration(e Entry) item {
	return item{Entry: e, lead: fmt.Sprintf("%s (%s → %s)", signed(e.DeltaMs()), format.Duration(e.BaseMs), format.Duration(e.HeadMs))}
}

// signed is a duration with its sign: "+3.2s", "-450ms".
func signed(ms int64) string {
	if ms < 0 {
		return "-" + format.Duration(-ms)
	}
	return "+" + format.Duration(ms)
}

// totalsLine compares the runs' counts and durations in one line: "6 → 7
// total, 6 → 4 passed, 0 → 2 failed, 1 skipped; pass rate 100% → 66.7%;
// duration 12.3s → 15.0s (+2.7s)". A count (or duration) that is the same
// shows once, and a count that is 0 in both runs not at all. It holds no
// untrusted text.
func totalsLine(c *Change) string {
	b, h := c.Base.Totals, c.Head.Totals
	parts := []string{counts(b.Total, h.Total) + " total"}
	for _, n := range []struct {
		b, h int
		noun string
	}{
		{b.Passed, h.Passed, "passed"}, {b.Failed, h.Failed, "failed"}, {b.Errored, h.Errored, "errored"},
		{b.Skipped, h.Skipped, "skipped"}, {b.Flaky, h.Flaky, "flaky"},
	} {
		if n.b != 0 || n.h != 0 {
			parts = append(parts, counts(n.b, n.h)+" "+n.noun)
		}
	}
	rate := stability.FormatPercent(b.PassRate)
	if h.PassRate != b.PassRate {
		rate += " → " + stability.FormatPercent(h.PassRate)
	}
	d := format.Duration(c.Head.DurationMs)
	if c.Base.DurationMs != c.Head.DurationMs {
		d = format.Duration(c.Base.DurationMs) + " → " + d + " (" + signed(c.Head.DurationMs-c.Base.DurationMs) + ")"
	}
	return strings.Join(parts, ", ") + "; pass rate " + rate + "; duration " + d
}

// counts is "6" when a count is the same in both runs, "6 → 7" otherwise.
func counts(b, h int) string {
	if b == h {
		return fmt.Sprint(b)
	}
	return fmt.Sprintf("%d → %d", b, h)
}
