package gateway

import (
	"fmt"
	"strings"
)

// A request replay has no recording for is shown beside the closest
// recorded request of its test: the one that shares the most lines of
// pretty JSON with it, both normalised, and the line diff of the two.

// Bounds of the diff.
const (
	// maxDiffCells bounds the table of the longest common subsequence;
	// beyond it the differing middle is shown whole.
	maxDiffCells = 4_000_000
	// diffContext is how many unchanged lines surround a change.
	diffContext = 3
	// maxDiffLines bounds the diff shown.
	maxDiffLines = 80
)

// op is one line of a diff: ' ' both, '-' the recorded request only,
// '+' the request only.
type op struct {
	kind byte
	line string
}

// lineDiff is the diff from a to b, by lines, and how many lines they
// share.
func lineDiff(a, b []string) ([]op, int) {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []op
	for _, l := range a[:pre] {
		ops = append(ops, op{' ', l})
	}
	mid, common := middleDiff(a[pre:len(a)-suf], b[pre:len(b)-suf])
	ops = append(ops, mid...)
	for _, l := range a[len(a)-suf:] {
		ops = append(ops, op{' ', l})
	}
	return ops, pre + common + suf
}

// middleDiff diffs what differs, by the longest common subsequence of
// lines when the table is small enough, else as a removal and an
// addition.
func middleDiff(a, b []string) ([]op, int) {
	n, m := len(a), len(b)
	if n == 0 || m == 0 || n*m > maxDiffCells {
		var ops []op
		for _, l := range a {
			ops = append(ops, op{'-', l})
		}
		for _, l := range b {
			ops = append(ops, op{'+', l})
		}
		return ops, 0
	}
	// lcs[i][j] is the LCS length of a[i:] and b[j:].
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var ops []op
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case a[i] == b[j]:
			ops = append(ops, op{' ', a[i]})
			i++
			j++
		case lcs[i+1][j] >= lcs[i][j+1]:
			ops = append(ops, op{'-', a[i]})
			i++
		default:
			ops = append(ops, op{'+', b[j]})
			j++
		}
	}
	for ; i < n; i++ {
		ops = append(ops, op{'-', a[i]})
	}
	for ; j < m; j++ {
		ops = append(ops, op{'+', b[j]})
	}
	return ops, int(lcs[0][0])
}

// render shows the changes of a diff with diffContext lines around
// each, "…" where lines are left out, at most maxDiffLines lines.
func render(ops []op) string {
	show := make([]bool, len(ops))
	for i, o := range ops {
		if o.kind == ' ' {
			continue
		}
		for k := max(0, i-diffContext); k <= min(len(ops)-1, i+diffContext); k++ {
			show[k] = true
		}
	}
	var b strings.Builder
	lines, gap := 0, false
	for i, o := range ops {
		if !show[i] {
			gap = true
			continue
		}
		if lines == maxDiffLines {
			rest := 0
			for _, o := range ops[i:] {
				if o.kind != ' ' {
					rest++
				}
			}
			fmt.Fprintf(&b, "  … %d more changed lines\n", rest)
			return b.String()
		}
		if gap {
			b.WriteString("  …\n")
			gap = false
		}
		b.WriteByte(o.kind)
		b.WriteByte(' ')
		b.WriteString(o.line)
		b.WriteByte('\n')
		lines++
	}
	if gap {
		b.WriteString("  …\n")
	}
	return b.String()
}

// closest finds the candidate that shares the most lines with req (the
// first among equals) and returns its index and the diff from it to
// req; -1 without candidates.
func closest(req string, candidates []string) (int, string) {
	best, bestCommon := -1, -1
	var bestOps []op
	b := strings.Split(req, "\n")
	for i, c := range candidates {
		ops, common := lineDiff(strings.Split(c, "\n"), b)
		if common > bestCommon {
			best, bestCommon, bestOps = i, common, ops
		}
	}
	if best < 0 {
		return -1, ""
	}
	return best, render(bestOps)
}
