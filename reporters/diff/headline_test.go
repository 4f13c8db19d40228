package diff_test

import (
	"fmt"
	"regexp"
	"strconv"
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/diff"
)

func TestHeadline(t *testing.T) {
	pass, fail, errored := status.Pass, status.Fail, status.Error
	for _, tc := range []struct {
		name       string
		base, head *report.Report
		want       string
		empty      bool
	}{
		{"nothing", rep(0), rep(0), "no change in test results", true},
		{"same", rep(0, tc("a", pass, 1)), rep(0, tc("a", pass, 1)), "no change in test results", true},
		{"only durations", rep(0, tc("a", pass, 1000)), rep(0, tc("a", pass, 9000)), "no change in test results", true},
		{"still failing", rep(0, tc("a", fail, 1)), rep(0, tc("a", fail, 1)), "no change in test results; 1 still failing", true},
		{"fail → error", rep(0, tc("a", fail, 1)), rep(0, tc("a", errored, 1)), "1 still failing", false},
		{"one of each", rep(0, tc("a", pass, 1), tc("b", fail, 1)), rep(0, tc("a", fail, 1), tc("b", pass, 1)), "1 new failure, 1 fixed", false},
		{"plurals", rep(0, tc("a", pass, 1), tc("b", pass, 1), tc("c", fail, 1), tc("d", fail, 1)),
			rep(0, tc("a", fail, 1), tc("b", fail, 1), tc("c", pass, 1), tc("d", fail, 1), tc("e", pass, 1), tc("f", pass, 1)),
			"2 new failures, 1 fixed, 2 tests added, 1 still failing", false},
		{"every category", nil, nil, "4 new failures, 1 fixed, 1 newly flaky, 1 no longer flaky, 1 now skipped, 1 no longer skipped, 2 tests added, 1 test removed, 2 still failing", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base, head := tc.base, tc.head
			if base == nil {
				base, head = pair()
			}
			c := diff.Compare(base, head)
			if got := c.Headline(); got != tc.want {
				t.Errorf("Headline() = %q; want %q", got, tc.want)
			}
			if c.Empty() != tc.empty {
				t.Errorf("Empty() = %v; want %v", c.Empty(), tc.empty)
			}
		})
	}
}

// TestHeadlineCounts: every count in the headline is the length of its
// list, and every non-empty list of results is counted.
func TestHeadlineCounts(t *testing.T) {
	base, head := pair()
	c := diff.Compare(base, head)
	h := c.Headline()
	for _, tc := range []struct {
		phrase string
		list   []diff.Entry
	}{
		{`new failures?`, c.NewFailures}, {`fixed`, c.Fixed}, {`newly flaky`, c.NewlyFlaky}, {`no longer flaky`, c.NoLongerFlaky},
		{`now skipped`, c.NowSkipped}, {`no longer skipped`, c.NoLongerSkipped}, {`tests? added`, c.Added},
		{`tests? removed`, c.Removed}, {`still failing`, c.StillFailing},
	} {
		m := regexp.MustCompile(`(?:^|, )(\d+) ` + tc.phrase + `(?:,|$)`).FindStringSubmatch(h)
		if m == nil {
			t.Errorf("%q does not count %q", h, tc.phrase)
			continue
		}
		if n, _ := strconv.Atoi(m[1]); n != len(tc.list) || n == 0 {
			t.Errorf("%q says %d %s; the list has %d", h, n, tc.phrase, len(tc.list))
		}
	}
	if want := fmt.Sprintf("%d new failures", len(c.NewFailures)); h[:len(want)] != want {
		t.Errorf("%q does not start with the new failures", h)
	}
}
