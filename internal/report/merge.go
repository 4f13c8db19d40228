package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Merge puts the reports of parts of one suite back together — the shards
// of a CI matrix — as if one run had run them all: every test, ordered as
// one run orders them (by file, then id), the totals and the run's status
// recomputed, the file names assigned afresh, the attack runs joined and
// their gate judged again. It refuses a test that appears in two parts,
// and for shards a set that is not exactly parts 1 to n of one n, so a
// shard that never reported cannot pass unnoticed.
func Merge(parts []*Report) (*Report, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("no reports")
	}
	if err := checkShards(parts); err != nil {
		return nil, err
	}
	first := parts[0]
	m := &Report{Schema: Schema, Version: first.Version, Config: first.Config, Target: first.Target, Parallel: first.Parallel,
		StartedAt: first.StartedAt, EndedAt: first.EndedAt, Tests: []Test{}, Hooks: []Hook{}}
	where := map[string]int{}
	for i, p := range parts {
		if p.StartedAt.Before(m.StartedAt) {
			m.StartedAt = p.StartedAt
		}
		if p.EndedAt.After(m.EndedAt) {
			m.EndedAt = p.EndedAt
		}
		m.FailOnFlaky = m.FailOnFlaky || p.FailOnFlaky
		m.FailOnInconclusive = m.FailOnInconclusive || p.FailOnInconclusive
		m.masked = append(m.masked, p.masked...)
		m.Hooks = append(m.Hooks, p.Hooks...)
		m.Warnings = append(m.Warnings, p.Warnings...)
		for _, t := range p.Tests {
			if j, dup := where[t.ID]; dup {
				return nil, fmt.Errorf("test %s is in report %d and report %d; each test must be in one report only", t.ID, j+1, i+1)
			}
			where[t.ID] = i
			m.Tests = append(m.Tests, t)
		}
	}
	m.DurationMs = m.EndedAt.Sub(m.StartedAt).Milliseconds()
	slices.SortStableFunc(m.Tests, func(a, b Test) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.ID, b.ID))
	})
	shown := make([]int, len(m.Tests))
	for i, t := range m.Tests {
		shown[i] = t.Shown - 1
	}
	nameFiles(m.Tests, shown)
	m.Confidence = mergedConfidence(parts)
	setConfidence(m.Tests, m.Confidence)
	m.Totals = totals(m.Tests)
	m.Budget = checkBudget(budgetOf(parts), m.Tests, m.Totals.Usage)
	m.Status = runStatus(m.Totals, m.FailOnFlaky, m.FailOnInconclusive, len(m.FailedHooks()) > 0, m.Budget.exceeded())
	m.Attacks = mergeAttacks(parts, m.Tests)
	m.Snapshots = mergeSnapshots(parts)
	m.Status = m.withAttacks(m.Status)
	for _, p := range parts {
		if err := m.Advise(p.QuarantineAdvice...); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// checkShards accepts parts that are all unsharded, or all shards of one
// total numbered 1 to n, each once.
func checkShards(parts []*Report) error {
	var sharded []*Shard
	for _, p := range parts {
		if p.Shard != nil {
			sharded = append(sharded, p.Shard)
		}
	}
	if len(sharded) == 0 {
		return nil
	}
	if len(sharded) != len(parts) {
		return fmt.Errorf("%d of the %d reports are shards and the others are not; merge the shards of one run", len(sharded), len(parts))
	}
	n := sharded[0].Total
	seen := map[int]bool{}
	for _, s := range sharded {
		if s.Total != n {
			return fmt.Errorf("shards of different splits (%d/%d and %d/%d); merge the shards of one run", sharded[0].Index, n, s.Index, s.Total)
		}
		if seen[s.Index] {
			return fmt.Errorf("shard %d/%d appears twice", s.Index, n)
		}
		seen[s.Index] = true
	}
	var missing []string
	for i := 1; i <= n; i++ {
		if !seen[i] {
			missing = append(missing, fmt.Sprintf("%d/%d", i, n))
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("shard %s is missing; its tests would be lost", strings.Join(missing, ", "))
	}
	return nil
}

// budgetOf is the bounds of the parts' budget (one config's: the first
// part's that has one), to check the merged run against.
func budgetOf(parts []*Report) []BudgetLimit {
	for _, p := range parts {
		if p.Budget != nil {
			return p.Budget.Limits
		}
	}
	return nil
}
