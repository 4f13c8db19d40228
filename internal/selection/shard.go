package selection

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ananke/action/internal/spec"
)

// Shard is part Index (from 1) of Total parts of a suite.
type Shard struct{ Index, Total int }

// maxShards bounds --shard's total; more parts than that is a typo.
const maxShards = 1000

// ParseShard reads "i/n" with 1 <= i <= n.
func ParseShard(s string) (Shard, error) {
	i, n, ok := strings.Cut(s, "/")
	index, err1 := strconv.Atoi(strings.TrimSpace(i))
	total, err2 := strconv.Atoi(strings.TrimSpace(n))
	if !ok || err1 != nil || err2 != nil || total < 1 || total > maxShards || index < 1 || index > total {
		return Shard{}, fmt.Errorf("want i/n with 1 <= i <= n <= %d, e.g. 2/3", maxShards)
	}
	return Shard{Index: index, Total: total}, nil
}

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Total) }

// Apply returns this shard's tests, in the suite's order. The split is
// deterministic — it depends only on the tests' ids and weights, never on
// file order or timing — so every job of a matrix computes the same one,
// and every test lands in exactly one shard. It is balanced by weight
// (e.g. runs × turns, the work a test costs): heaviest first, each test
// goes to the lightest shard so far (the lowest index on ties).
func (s Shard) Apply(tests []*spec.Test, weight func(*spec.Test) int) []*spec.Test {
	order := slices.Clone(tests)
	slices.SortStableFunc(order, func(a, b *spec.Test) int {
		return cmp.Or(cmp.Compare(weight(b), weight(a)), cmp.Compare(a.ID, b.ID))
	})
	load := make([]int, s.Total)
	mine := map[*spec.Test]bool{}
	for _, t := range order {
		lightest := 0
		for i := range load {
			if load[i] < load[lightest] {
				lightest = i
			}
		}
		load[lightest] += max(weight(t), 1)
		if lightest == s.Index-1 {
			mine[t] = true
		}
	}
	var out []*spec.Test
	for _, t := range tests {
		if mine[t] {
			out = append(out, t)
		}
	}
	return out
}
