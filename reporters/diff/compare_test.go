package diff_test

import (
	"reflect"
	"slices"
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/diff"
)

// categories names the lists of c that hold the test id.
func categories(c *diff.Change, id string) []string {
	var in []string
	for _, l := range lists(c) {
		for _, e := range l.entries {
			if e.ID == id {
				in = append(in, l.name)
			}
		}
	}
	return in
}

type category struct {
	name    string
	entries []diff.Entry
}

func lists(c *diff.Change) []category {
	return []category{
		{"new failures", c.NewFailures}, {"fixed", c.Fixed}, {"still failing", c.StillFailing},
		{"newly flaky", c.NewlyFlaky}, {"no longer flaky", c.NoLongerFlaky},
		{"now skipped", c.NowSkipped}, {"no longer skipped", c.NoLongerSkipped},
		{"added", c.Added}, {"removed", c.Removed}, {"slower", c.Slower}, {"faster", c.Faster},
	}
}

func TestCompareClassifies(t *testing.T) {
	const (
		pass, fail, errored, skipped = status.Pass, status.Fail, status.Error, status.Skipped
	)
	x := func(st status.Status, opts ...func(*report.Test)) *report.Test {
		t := tc("x", st, 500, opts...)
		return &t
	}
	for _, tc := range []struct {
		name       string
		base, head *report.Test // nil: not in that run
		want       []string
	}{
		{"pass → pass", x(pass), x(pass), nil},
		{"pass → fail", x(pass), x(fail), []string{"new failures"}},
		{"pass → error", x(pass), x(errored), []string{"new failures"}},
		{"skipped → fail", x(skipped), x(fail), []string{"new failures"}},
		{"new and failing", nil, x(fail), []string{"new failures", "added"}},
		{"new and errored", nil, x(errored), []string{"new failures", "added"}},
		{"new and passing", nil, x(pass), []string{"added"}},
		{"new and skipped", nil, x(skipped), []string{"added"}},
		{"new and flaky", nil, x(pass, flaky), []string{"newly flaky", "added"}},
		{"removed", x(fail), nil, []string{"removed"}},
		{"fail → pass", x(fail), x(pass), []string{"fixed"}},
		{"error → pass", x(errored), x(pass), []string{"fixed"}},
		{"fail → fail", x(fail), x(fail), []string{"still failing"}},
		{"fail → error", x(fail), x(errored), []string{"still failing"}},
		{"error → fail", x(errored), x(fail), []string{"still failing"}},
		{"pass → skipped", x(pass), x(skipped), []string{"now skipped"}},
		{"fail → skipped", x(fail), x(skipped), []string{"now skipped"}},
		{"skipped → pass", x(skipped), x(pass), []string{"no longer skipped"}},
		{"skipped → skipped", x(skipped), x(skipped), nil},
		{"newly flaky", x(pass), x(pass, flaky), []string{"newly flaky"}},
		{"flaky and failing now", x(pass), x(fail, flaky), []string{"new failures", "newly flaky"}},
		{"still flaky", x(pass, flaky), x(pass, flaky), nil},
		{"no longer flaky", x(pass, flaky), x(pass), []string{"no longer flaky"}},
		{"fixed and steady", x(fail, flaky), x(pass), []string{"fixed", "no longer flaky"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base, head := rep(0), rep(0)
			if tc.base != nil {
				base = rep(0, *tc.base)
			}
			if tc.head != nil {
				head = rep(0, *tc.head)
			}
			if got := categories(diff.Compare(base, head), "x"); !slices.Equal(got, tc.want) {
				t.Errorf("Compare put the test in %q; want %q", got, tc.want)
			}
		})
	}
}

// TestCompareEntries: an entry carries both runs' statuses, durations and
// flakiness, the head's location, its first failing assertions and
// whether they changed.
func TestCompareEntries(t *testing.T) {
	c := diff.Compare(pair())
	w := c.NewFailures[0]
	want := diff.Entry{ID: "weather", Name: "weather in Paris uses the weather tool", File: "weather.ananke.yaml", Line: 1,
		Base: status.Pass, Head: status.Fail, BaseMs: 800, HeadMs: 900,
		Failures: []diff.Failure{
			{ID: "turn[0].text.must_match[0]", Message: "assistant text in turn[0] does not match `sunny and 21°C`: \"It is raining.\"",
				Source: report.Location{File: "weather.ananke.yaml", Line: 10, Col: 7}},
			{ID: "turn[0].tools.require[0]", Message: "expected `get_weather` exactly 1 time, saw 0",
				Source: report.Location{File: "weather.ananke.yaml", Line: 11, Col: 7}}}}
	if !reflect.DeepEqual(w, want) {
		t.Errorf("entry\n%+v\nwant\n%+v", w, want)
	}
	for _, tc := range []struct {
		list            []diff.Entry
		id              string
		failures, more  int
		changed, isNew  bool
		transition, why string
	}{
		{c.NewFailures, "hostile", diff.MaxFailures, 2, false, false, "pass → fail", ""},
		{c.NewFailures, "brand-new", 0, 0, false, true, "new → error", `hooks[0]: hook "bash seed.sh" exited with status 3`},
		{c.StillFailing, "refund", 0, 0, true, false, "fail → error", "agent unreachable: connection refused"},
		{c.StillFailing, "search", 1, 0, true, false, "fail → fail", ""},
		{c.Removed, "old", 0, 0, false, false, "pass → removed", ""},
		{c.NowSkipped, "legacy", 0, 0, false, false, "pass → skipped", "waiting for `v3`"},
	} {
		i := slices.IndexFunc(tc.list, func(e diff.Entry) bool { return e.ID == tc.id })
		if i < 0 {
			t.Errorf("%s not found", tc.id)
			continue
		}
		e := tc.list[i]
		if len(e.Failures) != tc.failures || e.MoreFailures != tc.more || e.FailuresChanged != tc.changed || e.New() != tc.isNew ||
			e.Transition() != tc.transition || e.Reason != tc.why {
			t.Errorf("%s: %d failures (+%d), changed %v, new %v, %q, reason %q; want %d (+%d), %v, %v, %q, %q", tc.id,
				len(e.Failures), e.MoreFailures, e.FailuresChanged, e.New(), e.Transition(), e.Reason,
				tc.failures, tc.more, tc.changed, tc.isNew, tc.transition, tc.why)
		}
	}
}

// TestCompareOrder: entries keep the head's order, removed tests the
// base's; durations go by size of change; a repeated id counts once.
func TestCompareOrder(t *testing.T) {
	base := rep(0, tc("gone-b", status.Pass, 1), tc("a", status.Pass, 1000), tc("b", status.Pass, 1000),
		tc("gone-a", status.Pass, 1), tc("c", status.Pass, 1000), tc("d", status.Pass, 1000))
	head := rep(0, tc("d", status.Fail, 5000), tc("c", status.Fail, 3000), tc("b", status.Fail, 9000),
		tc("a", status.Fail, 3000), tc("a", status.Pass, 1))
	c := diff.Compare(base, head)
	for _, tc := range []struct {
		name    string
		entries []diff.Entry
		want    []string
	}{
		{"new failures", c.NewFailures, []string{"d", "c", "b", "a"}},
		{"removed", c.Removed, []string{"gone-b", "gone-a"}},
		{"slower", c.Slower, []string{"b", "d", "c", "a"}},
	} {
		var got []string
		for _, e := range tc.entries {
			got = append(got, e.ID)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q; want %q", tc.name, got, tc.want)
		}
	}
}

func TestNotable(t *testing.T) {
	for _, tc := range []struct {
		base, head, want int64
	}{
		{1000, 2000, 1000},    // 1 s and 2×
		{2000, 1000, -1000},   // faster alike
		{1000, 1999, 0},       // under a second
		{2000, 3000, 1000},    // exactly 1.5×
		{2000, 2999, 0},       // a second is not enough under 1.5×
		{4000, 5900, 0},       // 1.9 s but 1.475×
		{0, 1000, 1000},       // from nothing
		{100, 900, 0},         // 9× but under a second
		{60000, 61000, 0},     // a second of a minute
		{60000, 90000, 30000}, // 1.5× of a minute
	} {
		if got := diff.Notable(tc.base, tc.head); got != tc.want {
			t.Errorf("Notable(%d, %d) = %d; want %d", tc.base, tc.head, got, tc.want)
		}
	}
}

// TestCompareDurationsNeedTwoRuns: a skipped test has no duration to
// compare.
func TestCompareDurationsNeedTwoRuns(t *testing.T) {
	c := diff.Compare(rep(0, tc("x", status.Skipped, 0)), rep(0, tc("x", status.Pass, 9000)))
	if len(c.Slower) != 0 {
		t.Errorf("a test skipped in the base is slower: %+v", c.Slower)
	}
}
