package report

import (
	"cmp"
	"slices"
)

// mergeAttacks joins the parts' attacks sections as one run would have
// made them: their runs, groups and tests not attacked, in the merged
// tests' order, recounted (Recount) against the gate of the first part
// that has one (they share one config); the time is the longest part's,
// as shards run side by side. nil when no part attacked.
func mergeAttacks(parts []*Report, tests []Test) *Attacks {
	var m *Attacks
	for _, p := range parts {
		a := p.Attacks
		if a == nil {
			continue
		}
		if m == nil {
			m = &Attacks{}
		}
		if m.Threshold == nil && a.Threshold != nil {
			t := *a.Threshold
			m.Threshold = &t
		}
		m.Groups = append(m.Groups, a.Groups...)
		m.Runs = append(m.Runs, a.Runs...)
		m.NotAttacked = append(m.NotAttacked, a.NotAttacked...)
		m.DurationMs = max(m.DurationMs, a.DurationMs)
	}
	if m == nil {
		return nil
	}
	at := make(map[string]int, len(tests))
	for i, t := range tests {
		at[t.ID] = i
	}
	index := func(id string) int {
		if i, ok := at[id]; ok {
			return i
		}
		return len(tests)
	}
	slices.SortStableFunc(m.Groups, func(x, y AttackGroup) int { return cmp.Compare(index(x.Test), index(y.Test)) })
	slices.SortStableFunc(m.NotAttacked, func(x, y NotAttacked) int { return cmp.Compare(index(x.Test), index(y.Test)) })
	m.Recount()
	return m
}
