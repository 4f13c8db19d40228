package diff

import (
	"cmp"
	"slices"
)

// A duration change is notable when it is at least minDeltaMs and the
// longer duration is at least minRatioNum/minRatioDen times the shorter:
// a second either way is noise for a long test, and a large factor is
// noise for a test of a few milliseconds. Both must hold.
const (
	minDeltaMs  = 1000
	minRatioNum = 3 // 1.5×
	minRatioDen = 2
)

// MaxDurations is how many slower (and faster) tests the renderers list;
// the rest are counted.
const MaxDurations = 10

// Notable returns the change from baseMs to headMs when it is notable —
// positive for slower, negative for faster — and 0 otherwise.
func Notable(baseMs, headMs int64) int64 {
	lo, hi := min(baseMs, headMs), max(baseMs, headMs)
	if hi-lo < minDeltaMs || hi*minRatioDen < lo*minRatioNum {
		return 0
	}
	return headMs - baseMs
}

// sortDurations puts the biggest changes first, ties in the head's order.
func sortDurations(c *Change) {
	slices.SortStableFunc(c.Slower, func(a, b Entry) int { return cmp.Compare(b.DeltaMs(), a.DeltaMs()) })
	slices.SortStableFunc(c.Faster, func(a, b Entry) int { return cmp.Compare(a.DeltaMs(), b.DeltaMs()) })
}
