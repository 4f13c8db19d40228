package report_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
)

// split cuts a report into shards holding the given tests.
func split(r *report.Report, groups ...[]int) []*report.Report {
	var out []*report.Report
	for i, g := range groups {
		p := *r
		p.Shard = &report.Shard{Index: i + 1, Total: len(groups)}
		p.Tests = nil
		for _, j := range g {
			p.Tests = append(p.Tests, r.Tests[j])
		}
		p.StartedAt = r.StartedAt.Add(time.Duration(i) * time.Second)
		p.EndedAt = p.StartedAt.Add(time.Second)
		out = append(out, &p)
	}
	return out
}

func TestMergeShards(t *testing.T) {
	whole := reporttest.Report()
	m, err := report.Merge(split(whole, []int{5, 0}, []int{3, 1}, []int{2, 4}))
	if err != nil {
		t.Fatal(err)
	}
	if js(t, m.Totals) != js(t, whole.Totals) || m.Status != whole.Status || m.Shard != nil {
		t.Errorf("totals %+v status %s shard %v; want %+v %s and no shard", m.Totals, m.Status, m.Shard, whole.Totals, whole.Status)
	}
	var got, want []string
	for i := range whole.Tests {
		want = append(want, whole.Tests[i].ID+" "+whole.Tests[i].TraceFile)
	}
	for i := range m.Tests {
		got = append(got, m.Tests[i].ID+" "+m.Tests[i].TraceFile)
	}
	if strings.Join(got, "\n") != strings.Join(sorted(want), "\n") {
		t.Errorf("tests:\n%s\nwant (by file, then id):\n%s", strings.Join(got, "\n"), strings.Join(sorted(want), "\n"))
	}
	if !m.StartedAt.Equal(whole.StartedAt) || m.DurationMs != 3000 {
		t.Errorf("started %v, duration %d ms; want the first start and 3 s", m.StartedAt, m.DurationMs)
	}
	// The merged tests are the shards' tests, field for field.
	for _, mt := range m.Tests {
		for _, wt := range whole.Tests {
			if wt.ID == mt.ID {
				a, _ := json.Marshal(mt)
				b, _ := json.Marshal(wt)
				if string(a) != string(b) {
					t.Errorf("test %s changed in the merge", mt.ID)
				}
			}
		}
	}
}

// sorted orders "id trace" lines as Merge orders tests: by file, then id.
// The fixture's files sort like its ids.
func sorted(lines []string) []string {
	out := append([]string(nil), lines...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

func TestMergeRefuses(t *testing.T) {
	whole := reporttest.Report()
	unsharded := *whole
	unsharded.Shard = nil
	for _, tc := range []struct {
		name  string
		parts []*report.Report
		want  string
	}{
		{"missing shard", split(whole, []int{0, 1}, []int{2}, []int{3})[:2], "shard 3/3 is missing"},
		{"shard twice", append(split(whole, []int{0}, []int{1}), split(whole, []int{2}, []int{3})[1]), "shard 2/2 appears twice"},
		{"different splits", append(split(whole, []int{0}, []int{1})[:1], split(whole, []int{2}, []int{3}, []int{4})[1:]...), "shards of different splits"},
		{"mixed", append(split(whole, []int{0}, []int{1}), &unsharded), "2 of the 3 reports are shards"},
		{"duplicate test", split(whole, []int{0, 1}, []int{1, 2}), "test tests/weather is in report 1 and report 2"},
		{"nothing", nil, "no reports"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := report.Merge(tc.parts); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Merge err = %v; want %q", err, tc.want)
			}
		})
	}
	// Reports of separate runs (no shards) merge when their tests differ.
	a, b := unsharded, unsharded
	a.Tests, b.Tests = whole.Tests[:2], whole.Tests[2:]
	if m, err := report.Merge([]*report.Report{&a, &b}); err != nil || js(t, m.Totals) != js(t, whole.Totals) {
		t.Errorf("unsharded merge: %v, totals %+v", err, m.Totals)
	}
}
