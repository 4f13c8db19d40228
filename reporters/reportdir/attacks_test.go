package reportdir_test

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/reportdir"
)

// TestAttacksRoundTrip: the attacks section written in summary.json reads
// back whole, by ReadSummary and by Read, and a merge of what was read
// (ananke merge) keeps it and its gate.
func TestAttacksRoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "r")
	want := reporttest.AttacksReport(true, reporttest.Passing, reporttest.Wobbly)
	if err := reportdir.Write(dir, want); err != nil {
		t.Fatal(err)
	}
	js := func(a *report.Attacks) string {
		b, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	sum, err := reportdir.ReadSummary(dir)
	if err != nil {
		t.Fatal(err)
	}
	if js(sum.Attacks) != js(want.Attacks) || sum.Status != want.Status {
		t.Errorf("read back, status %s:\n%s\nwant %s:\n%s", sum.Status, js(sum.Attacks), want.Status, js(want.Attacks))
	}
	full, err := reportdir.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	m, err := report.Merge([]*report.Report{full})
	if err != nil {
		t.Fatal(err)
	}
	// The merge orders tests by file, so the groups and the runs of a
	// test follow that order: compare them as sets.
	if js(byID(m.Attacks)) != js(byID(want.Attacks)) || m.Status != want.Status {
		t.Errorf("merged, status %s:\n%s\nwant %s:\n%s", m.Status, js(m.Attacks), want.Status, js(want.Attacks))
	}
}

// byID is a copy of a with its groups and runs in the order of their ids.
func byID(a *report.Attacks) *report.Attacks {
	c := *a
	c.Groups, c.Runs = slices.Clone(a.Groups), slices.Clone(a.Runs)
	slices.SortFunc(c.Groups, func(x, y report.AttackGroup) int {
		return strings.Compare(x.Test+" "+x.Channel+" "+x.Site, y.Test+" "+y.Channel+" "+y.Site)
	})
	slices.SortFunc(c.Runs, func(x, y report.AttackRun) int { return strings.Compare(x.ID, y.ID) })
	return &c
}
