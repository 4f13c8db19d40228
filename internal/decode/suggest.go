package decode

import "strings"

// Suggest returns " (did you mean "x"?)" when a known name is close to the
// unknown one, else the list of known names, so a typo is fixed at a glance.
func Suggest(got string, known []string) string {
	best, bestDist := "", 3
	for _, k := range known {
		if d := EditDistance(strings.ToLower(got), strings.ToLower(k)); d < bestDist {
			best, bestDist = k, d
		}
	}
	if best != "" {
		return ` (did you mean "` + best + `"?)`
	}
	return "; known fields: " + strings.Join(known, ", ")
}

// EditDistance is the Levenshtein distance between a and b, in runes.
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// DidYouMean is Suggest's " (did you mean "x"?)" when a known name is
// close to got, and "" otherwise: for messages that list the known names
// already.
func DidYouMean(got string, known []string) string {
	if s := Suggest(got, known); strings.HasPrefix(s, " (did you mean") {
		return s
	}
	return ""
}
