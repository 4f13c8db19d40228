package diff

import (
	"fmt"
	"strings"
)

// Headline sums the change up in one line: "2 new failures, 1 fixed,
// 1 newly flaky", the counts of the non-empty categories in a fixed order
// (new failures, regressed, fixed, newly flaky, no longer flaky, now skipped, no
// longer skipped, tests added, tests removed, still failing), or "no change
// in test results" — "; 3 still failing" added when tests still fail.
// Durations are left out: they are measured, not results; so are pass
// rates lower within noise.
func (c *Change) Headline() string {
	var parts []string
	for _, l := range c.statusLists() {
		if n := l.n; n > 0 {
			parts = append(parts, phrase(n, l.one, l.many))
		}
	}
	still := ""
	if n := len(c.StillFailing); n > 0 {
		still = phrase(n, "still failing", "still failing")
	}
	switch {
	case c.Empty() && still != "":
		return "no change in test results; " + still
	case c.Empty():
		return "no change in test results"
	case still != "":
		parts = append(parts, still)
	}
	return strings.Join(parts, ", ")
}

// phrase is "1 new failure", "2 new failures".
func phrase(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
