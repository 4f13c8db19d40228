package report

// Snapshots is what a run did with the snapshots of its snapshot
// assertions (docs/snapshots.md): the entries it wrote (missing ones) and
// updated (ananke run -u), the assertions whose snapshot failed (changed,
// or missing under CI), and the obsolete entries — entries no test
// declares any more — it counted or, under -u, removed.
type Snapshots struct {
	Written  int `json:"written"`
	Updated  int `json:"updated"`
	Failed   int `json:"failed"`
	Obsolete int `json:"obsolete"`
	Removed  int `json:"removed"`
}

// mergeSnapshots sums the parts' snapshot counts; nil when none has any.
func mergeSnapshots(parts []*Report) *Snapshots {
	var sum *Snapshots
	for _, p := range parts {
		s := p.Snapshots
		if s == nil {
			continue
		}
		if sum == nil {
			sum = &Snapshots{}
		}
		sum.Written += s.Written
		sum.Updated += s.Updated
		sum.Failed += s.Failed
		sum.Obsolete += s.Obsolete
		sum.Removed += s.Removed
	}
	return sum
}
