package stats

import "slices"

// Median is the median of ds, the mean of the middle two of an even
// count (rounded down); 0 for none.
func Median(ds []int64) int64 {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
