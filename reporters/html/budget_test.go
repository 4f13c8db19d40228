package html_test

import (
	"io"
	"runtime"
	"testing"

	"github.com/ananke/action/internal/history"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/reporters/html"
)

// budgetPageAllocBytes bounds the bytes writing a page allocates per byte
// of the page, held in CI as a count (docs/performance.md, "Budgets CI
// holds"): the page's data is written a test at a time and each turn's
// events as they are read, never built whole. Measured 2026-11-25 on the
// 500-test synthetic suite: 1.26 (7.2 when the page was built, then
// encoded, whole).
const budgetPageAllocBytes = 1.6

// TestBudgetPage: writing a 500-test page allocates within its budget,
// with a 20-run history attached too.
func TestBudgetPage(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector changes allocation counts (sync.Pool drops items); .ci/test holds this budget in a run without it")
	}
	withHistory := synthetic(500)
	history.Attach(withHistory, syntheticHistory(withHistory), "main", 0.05)
	for _, tc := range []struct {
		name string
		r    *report.Report
	}{{"without history", synthetic(500)}, {"with history", withHistory}} {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.r
			var size countingWriter
			if err := html.Write(&size, r); err != nil { // warm: encoders' type caches
				t.Fatal(err)
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			if err := html.Write(io.Discard, r); err != nil {
				t.Fatal(err)
			}
			runtime.ReadMemStats(&after)
			per := float64(after.TotalAlloc-before.TotalAlloc) / float64(size.n)
			t.Logf("%.2f bytes allocated per byte of a %.1f MB page (budget %.2f)", per, float64(size.n)/1e6, budgetPageAllocBytes)
			if per > budgetPageAllocBytes {
				t.Errorf("writing the page allocates %.2f bytes per byte of it, over its budget of %.2f: is the page built whole again? (go test ./reporters/html -run '^$' -bench Write500 -memprofile mem.prof)", per, budgetPageAllocBytes)
			}
		})
	}
}
