package decode

import "testing"

// TestEditDistance counts runes, not bytes: "ö" is one edit from "o".
func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		d    int
	}{
		{"", "", 0}, {"verbose", "verbose", 0}, {"verbos", "verbose", 1}, {"paralel", "parallel", 1},
		{"fromat", "format", 2}, {"", "abc", 3}, {"kitten", "sitting", 3}, {"ö", "o", 1}, {"größe", "grösse", 2},
	} {
		if got := EditDistance(tc.a, tc.b); got != tc.d {
			t.Errorf("EditDistance(%q, %q) = %d; want %d", tc.a, tc.b, got, tc.d)
		}
	}
}
