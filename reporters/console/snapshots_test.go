package console_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/console"
)

// TestSnapshotSummary: the line after the totals says what the run did
// with snapshots, only what it did, and nothing when it did nothing.
func TestSnapshotSummary(t *testing.T) {
	for _, tc := range []struct {
		s    *report.Snapshots
		want string
	}{
		{nil, ""},
		{&report.Snapshots{}, ""},
		{&report.Snapshots{Written: 2, Updated: 1, Failed: 1, Obsolete: 3}, "Snapshots: 2 written, 1 updated, 1 failed, 3 obsolete (run with -u to remove)\n"},
		{&report.Snapshots{Written: 1}, "Snapshots: 1 written\n"},
		{&report.Snapshots{Updated: 4, Removed: 2}, "Snapshots: 4 updated, 2 obsolete removed\n"},
	} {
		r := reporttest.Report()
		r.Snapshots = tc.s
		var b bytes.Buffer
		if err := console.Write(&b, r, console.Options{}); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		_, after, _ := strings.Cut(out, "(pass rate ")
		_, after, _ = strings.Cut(after, "\n")
		if got := after; tc.want == "" && strings.Contains(out, "Snapshots:") || tc.want != "" && !strings.HasPrefix(got, tc.want) {
			t.Errorf("%+v: after the totals:\n%s\nwant %q first", tc.s, got, tc.want)
		}
	}
}
