package snapshot

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/ananke/action/internal/plural"
)

// Diff says how got differs from want, the stored snapshot: one line per
// difference, in the order of the turns and calls; none when they are
// equal (numbers within tolerance). Calls are numbered from 1 within
// their turn:
//
//	turn[1] call 2 search_orders: arguments.order_id: stored "A-1042", got "A-1043"
//	+ turn[1] call 3 refund_order {"amount":5}
//	- turn[1] call 2 search_orders {"order_id":"A-1042"}
//	turn[0]: the same calls in another order: stored get_price, search; got search, get_price
//	turn[0] text: - list of 3 items
//	turn[0] text: + list of 4 items
//	- turn[2]: 1 call (refund_order)
func Diff(want, got Snapshot, tolerance float64) []string {
	var out []string
	i, j := 0, 0
	for i < len(want.Turns) || j < len(got.Turns) {
		switch {
		case j >= len(got.Turns) || i < len(want.Turns) && want.Turns[i].Index < got.Turns[j].Index:
			out = append(out, "- "+turnName(want.Turns[i].Index)+": "+describeTurn(want.Turns[i]))
			i++
		case i >= len(want.Turns) || got.Turns[j].Index < want.Turns[i].Index:
			out = append(out, "+ "+turnName(got.Turns[j].Index)+": "+describeTurn(got.Turns[j]))
			j++
		default:
			w, g := want.Turns[i], got.Turns[j]
			out = append(out, callsDiff(turnName(w.Index), w.Calls, g.Calls, tolerance)...)
			out = append(out, replyDiff(turnName(w.Index), w.Reply, g.Reply)...)
			i++
			j++
		}
	}
	return out
}

// Equal reports whether two snapshots are equal, numbers within
// tolerance.
func Equal(want, got Snapshot, tolerance float64) bool {
	if len(want.Turns) != len(got.Turns) {
		return false
	}
	for i, w := range want.Turns {
		g := got.Turns[i]
		if w.Index != g.Index || !sameCalls(w.Calls, g.Calls, tolerance) || !sameReply(w.Reply, g.Reply) {
			return false
		}
	}
	return true
}

func turnName(i int) string { return "turn[" + strconv.Itoa(i) + "]" }

// describeTurn says what a turn holds, for a turn only one side has.
func describeTurn(t Turn) string {
	s := plural.Count(len(t.Calls), "call")
	if len(t.Calls) > 0 {
		s += " (" + callNames(t.Calls) + ")"
	}
	return s
}

func callEqual(a, b Call, tol float64) bool { return a.Name == b.Name && equal(a.Args, b.Args, tol) }

func sameCalls(a, b []Call, tol float64) bool {
	return slices.EqualFunc(a, b, func(x, y Call) bool { return callEqual(x, y, tol) })
}

// callsDiff compares the calls of one turn.
func callsDiff(turn string, want, got []Call, tol float64) []string {
	if sameCalls(want, got, tol) {
		return nil
	}
	if len(want) == len(got) && permutation(want, got, tol) {
		return []string{fmt.Sprintf("%s: the same calls in another order: stored %s; got %s", turn, callNames(want), callNames(got))}
	}
	var out []string
	pairs := lcs(len(want), len(got), func(i, j int) bool { return callEqual(want[i], got[j], tol) })
	wi, gj := 0, 0
	for _, p := range append(pairs, [2]int{len(want), len(got)}) {
		out = append(out, changedCalls(turn, want, got, wi, p[0], gj, p[1], tol)...)
		wi, gj = p[0]+1, p[1]+1
	}
	return out
}

// changedCalls compares the calls between two matched ones: want[wa:wb]
// with got[ga:gb]. A stored call and a new one of the same tool, in
// order, are the same call with other arguments; the rest were removed
// or added. Lines come in the order of the calls, what was removed before
// what was added in its place.
func changedCalls(turn string, want, got []Call, wa, wb, ga, gb int, tol float64) []string {
	paired := map[int]bool{} // stored calls that have a new one
	pairOf := map[int]int{}  // new call → its stored call
	for i := wa; i < wb; i++ {
		for j := ga; j < gb; j++ {
			if _, taken := pairOf[j]; !taken && got[j].Name == want[i].Name {
				pairOf[j], paired[i] = i, true
				break
			}
		}
	}
	var out []string
	i, j := wa, ga
	removed := func(end int) {
		for ; i < end; i++ {
			if !paired[i] {
				out = append(out, fmt.Sprintf("- %s call %d %s", turn, i+1, callText(want[i])))
			}
		}
	}
	added := func(end int) {
		for ; j < end; j++ {
			if _, ok := pairOf[j]; !ok {
				out = append(out, fmt.Sprintf("+ %s call %d %s", turn, j+1, callText(got[j])))
			}
		}
	}
	for k := ga; k < gb; k++ {
		w, ok := pairOf[k]
		if !ok {
			continue
		}
		removed(w)
		added(k)
		i, j = max(i, w+1), k+1
		where := fmt.Sprintf("%s call %d %s: ", turn, k+1, got[k].Name)
		for _, d := range valueDiff("arguments", want[w].Args, got[k].Args, tol) {
			out = append(out, where+d)
		}
	}
	removed(wb)
	added(gb)
	return out
}

// permutation reports whether got holds want's calls in another order.
func permutation(want, got []Call, tol float64) bool {
	used := make([]bool, len(got))
	for _, w := range want {
		found := false
		for j, g := range got {
			if !used[j] && callEqual(w, g, tol) {
				used[j], found = true, true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func callNames(cs []Call) string {
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = c.Name
	}
	return strings.Join(names, ", ")
}

// maxShown bounds a value or a line shown in a diff.
const maxShown = 120

func callText(c Call) string {
	if c.Args == nil {
		return c.Name
	}
	return c.Name + " " + shorten(compact(c.Args))
}

func shorten(s string) string {
	if r := []rune(s); len(r) > maxShown {
		return string(r[:maxShown-1]) + "…"
	}
	return s
}

// valueDiff lists where two argument values differ, each at its path.
func valueDiff(path string, want, got any, tol float64) []string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			break
		}
		var out []string
		keys := map[string]bool{}
		for k := range w {
			keys[k] = true
		}
		for k := range g {
			keys[k] = true
		}
		for _, k := range slices.Sorted(maps.Keys(keys)) {
			wv, inW := w[k]
			gv, inG := g[k]
			p := memberPath(path, k)
			switch {
			case !inG:
				out = append(out, fmt.Sprintf("%s: stored %s, got nothing", p, shown(wv)))
			case !inW:
				out = append(out, fmt.Sprintf("%s: stored nothing, got %s", p, shown(gv)))
			default:
				out = append(out, valueDiff(p, wv, gv, tol)...)
			}
		}
		return out
	case []any:
		g, ok := got.([]any)
		if !ok {
			break
		}
		var out []string
		for k := range max(len(w), len(g)) {
			p := path + "[" + strconv.Itoa(k) + "]"
			switch {
			case k >= len(g):
				out = append(out, fmt.Sprintf("%s: stored %s, got nothing", p, shown(w[k])))
			case k >= len(w):
				out = append(out, fmt.Sprintf("%s: stored nothing, got %s", p, shown(g[k])))
			default:
				out = append(out, valueDiff(p, w[k], g[k], tol)...)
			}
		}
		return out
	}
	if equal(want, got, tol) {
		return nil
	}
	return []string{fmt.Sprintf("%s: stored %s, got %s", path, shown(want), shown(got))}
}

var identRE = lazyRE(`^[A-Za-z_][A-Za-z0-9_]*$`)

func memberPath(path, key string) string {
	if identRE().MatchString(key) {
		return path + "." + key
	}
	return path + "[" + strconv.Quote(key) + "]"
}

func shown(v any) string {
	if v == nil {
		return "null"
	}
	return shorten(compact(v))
}

func sameReply(a, b *Reply) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Mode == b.Mode && slices.Equal(a.Lines, b.Lines)
}

// replyDiff compares the replies of one turn: line by line when both keep
// the same thing.
func replyDiff(turn string, want, got *Reply) []string {
	if sameReply(want, got) {
		return nil
	}
	mode := func(r *Reply) string {
		if r == nil {
			return string(TextNone)
		}
		return string(r.Mode)
	}
	if want == nil || got == nil || want.Mode != got.Mode {
		return []string{fmt.Sprintf("%s text: stored %s, got %s", turn, mode(want), mode(got))}
	}
	var out []string
	pairs := lcs(len(want.Lines), len(got.Lines), func(i, j int) bool { return want.Lines[i] == got.Lines[j] })
	wi, gj := 0, 0
	for _, p := range append(pairs, [2]int{len(want.Lines), len(got.Lines)}) {
		for ; wi < p[0]; wi++ {
			out = append(out, fmt.Sprintf("%s text: - %s", turn, shorten(want.Lines[wi])))
		}
		for ; gj < p[1]; gj++ {
			out = append(out, fmt.Sprintf("%s text: + %s", turn, shorten(got.Lines[gj])))
		}
		wi, gj = p[0]+1, p[1]+1
	}
	return out
}

// maxCells bounds the table lcs fills; past it, what differs between the
// common start and end is shown removed and added whole.
const maxCells = 1 << 22

// lcs returns the pairs (i, j) of a longest common subsequence of two
// sequences of lengths n and m, eq comparing their elements, in order.
func lcs(n, m int, eq func(i, j int) bool) [][2]int {
	var out [][2]int
	lo := 0
	for lo < n && lo < m && eq(lo, lo) {
		out = append(out, [2]int{lo, lo})
		lo++
	}
	hn, hm := n, m
	for hn > lo && hm > lo && eq(hn-1, hm-1) {
		hn, hm = hn-1, hm-1
	}
	if a, b := hn-lo, hm-lo; a > 0 && b > 0 && a*b <= maxCells {
		for _, p := range table(a, b, func(i, j int) bool { return eq(i+lo, j+lo) }) {
			out = append(out, [2]int{p[0] + lo, p[1] + lo})
		}
	}
	for k := 0; hn+k < n; k++ {
		out = append(out, [2]int{hn + k, hm + k})
	}
	return out
}

// table is the dynamic-programming lcs.
func table(n, m int, eq func(i, j int) bool) [][2]int {
	l := make([][]int, n+1)
	for i := range l {
		l[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if eq(i, j) {
				l[i][j] = l[i+1][j+1] + 1
			} else {
				l[i][j] = max(l[i+1][j], l[i][j+1])
			}
		}
	}
	var out [][2]int
	for i, j := 0, 0; i < n && j < m; {
		switch {
		case eq(i, j):
			out = append(out, [2]int{i, j})
			i++
			j++
		case l[i+1][j] >= l[i][j+1]:
			i++
		default:
			j++
		}
	}
	return out
}
