package bless

import (
	"strings"
	"testing"
)

func TestReview(t *testing.T) {
	checks := Infer(inferCases[0].conv()) // 11 checks
	for _, c := range []struct {
		name, answers string
		// kept are the positions kept in the first file, then in the second
		kept [2][]int
		quit bool
	}{
		{"enter keeps", "\n\n\n\n\n\n\n\n\n\n\n" + strings.Repeat("y\n", 11), [2][]int{seq11(), seq11()}, false},
		{"n drops, junk asks again", "n\nmaybe\nY\n" + strings.Repeat("no\n", 9) + strings.Repeat("yes\n", 11), [2][]int{{1}, seq11()}, false},
		{"q drops the rest", "y\nq\n", [2][]int{{0}, nil}, true},
		{"the end of input quits", "y\ny\n", [2][]int{{0, 1}, nil}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out strings.Builder
			r := NewReviewer(strings.NewReader(c.answers), &out)
			for f, file := range []string{"a.ananke.yaml", "b.ananke.yaml"} {
				kept := r.Review(file, checks)
				if !samePositions(kept, checks, c.kept[f]) {
					t.Errorf("%s: kept %s, want positions %v", file, listChecks(kept), c.kept[f])
				}
			}
			if r.Quit() != c.quit {
				t.Errorf("quit %v, want %v", r.Quit(), c.quit)
			}
			if !strings.Contains(out.String(), "a.ananke.yaml: 11 checks inferred\n  [1/11] turn[0] tools.require: {name: lookup_order}\n        inferred: the agent called lookup_order in turn 0\n  keep? [Y/n/q] ") {
				t.Errorf("the first question reads:\n%s", out.String())
			}
		})
	}
}

func seq11() []int {
	out := make([]int, 11)
	for i := range out {
		out[i] = i
	}
	return out
}

func samePositions(kept, all []Check, want []int) bool {
	if len(kept) != len(want) {
		return false
	}
	for i, p := range want {
		if kept[i].key() != all[p].key() {
			return false
		}
	}
	return true
}

func TestReviewAsksAgain(t *testing.T) {
	var out strings.Builder
	r := NewReviewer(strings.NewReader("what\ny\n"), &out)
	r.Review("a.ananke.yaml", Infer(inferCases[1].conv())[:1])
	if !strings.Contains(out.String(), "  keep? [Y/n/q]   answer y (keep it), n (drop it) or q (drop it and the rest)\n  keep? [Y/n/q] ") {
		t.Errorf("an unknown answer is not asked again:\n%s", out.String())
	}
}
