package bless

import (
	"strings"
	"testing"
)

func TestReview(t *testing.T) {
	checks := inferred(inferCases[0].conv()) // 12 checks, the snapshot last
	all := seqN(len(checks))
	for _, c := range []struct {
		name, answers string
		// kept are the positions kept in the first file, then in the second
		kept [2][]int
		quit bool
	}{
		{"enter keeps", strings.Repeat("\n", 12) + strings.Repeat("y\n", 12), [2][]int{all, all}, false},
		{"n drops, junk asks again", "n\nmaybe\nY\n" + strings.Repeat("no\n", 10) + strings.Repeat("yes\n", 12), [2][]int{{1}, all}, false},
		{"the snapshot is one question", strings.Repeat("n\n", 11) + "y\n" + strings.Repeat("y\n", 11) + "n\n", [2][]int{{11}, all[:11]}, false},
		{"q drops the rest", "y\nq\n", [2][]int{{0}, nil}, true},
		{"the end of input quits", "y\ny\n", [2][]int{{0, 1}, nil}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out strings.Builder
			r := NewReviewer(strings.NewReader(c.answers), &out)
			for f, file := range []string{"a.ananke.yaml", "b.ananke.yaml"} {
				kept := r.Review(file, checks)
				if !samePositions(kept, checks, c.kept[f]) {
					t.Errorf("%s: kept %s, want positions %v", file, listChecks(kept, nil), c.kept[f])
				}
			}
			if r.Quit() != c.quit {
				t.Errorf("quit %v, want %v", r.Quit(), c.quit)
			}
			if !strings.Contains(out.String(), "a.ananke.yaml: 12 checks inferred\n  [1/12] turn[0] tools.require: {name: lookup_order}\n        inferred: the agent called lookup_order in turn 0\n  keep? [Y/n/q] ") {
				t.Errorf("the first question reads:\n%s", out.String())
			}
			if !c.quit && !strings.Contains(out.String(), "  [12/12] test snapshot: true\n        inferred: the agent's trajectory in this test — 4 tool calls over 2 turns — written to __snapshots__/blessed.ananke.snap.yaml\n  keep? [Y/n/q] ") {
				t.Errorf("the snapshot's question reads:\n%s", out.String())
			}
		})
	}
}

func seqN(n int) []int {
	out := make([]int, n)
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
	r.Review("a.ananke.yaml", inferred(inferCases[1].conv())[:1])
	if !strings.Contains(out.String(), "  keep? [Y/n/q]   answer y (keep it), n (drop it) or q (drop it and the rest)\n  keep? [Y/n/q] ") {
		t.Errorf("an unknown answer is not asked again:\n%s", out.String())
	}
}
