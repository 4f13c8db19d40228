// Package plural writes a count with its noun, for messages: "1 attempt",
// "3 attempts", "1 criterion", "2 criteria".
package plural

import (
	"strconv"
	"strings"
)

// irregular are the nouns whose plural is not the noun plus "s".
var irregular = map[string]string{
	"criterion": "criteria",
}

// Count is n followed by noun, in the plural unless n is 1.
func Count(n int, noun string) string { return strconv.Itoa(n) + " " + Noun(n, noun) }

// Noun is noun, in the plural unless n is 1.
func Noun(n int, noun string) string {
	if n == 1 {
		return noun
	}
	if p, ok := irregular[noun]; ok {
		return p
	}
	if y, ok := strings.CutSuffix(noun, "y"); ok && !strings.HasSuffix(y, "a") && !strings.HasSuffix(y, "e") && !strings.HasSuffix(y, "o") {
		return y + "ies" // retry → retries, but day → days, key → keys
	}
	return noun + "s"
}
