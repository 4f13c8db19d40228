package report

import "testing"

// TestMergeSnapshots: merged shards sum their snapshot counts; none has
// any, the merge has none.
func TestMergeSnapshots(t *testing.T) {
	a := &Report{Snapshots: &Snapshots{Written: 1, Failed: 2, Obsolete: 3}}
	b := &Report{}
	c := &Report{Snapshots: &Snapshots{Written: 4, Updated: 5, Removed: 6}}
	if got := mergeSnapshots([]*Report{a, b, c}); got == nil || *got != (Snapshots{Written: 5, Updated: 5, Failed: 2, Obsolete: 3, Removed: 6}) {
		t.Errorf("merged %+v", got)
	}
	if got := mergeSnapshots([]*Report{b, {}}); got != nil {
		t.Errorf("merged %+v from none", got)
	}
}
