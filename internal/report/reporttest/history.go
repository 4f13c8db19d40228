package reporttest

import (
	"time"

	"github.com/ananke/action/internal/history"
	"github.com/ananke/action/internal/history/historytest"
	"github.com/ananke/action/internal/report"
)

// HistoryRuns are 20 runs of main, #22 to #41, holding the fixture's tests
// (docs/history.md): checkout fails 4 of them, scattered (known flaky);
// refund errors since #39 (already failing); flip, weather and search
// pass every run, search twice only on a retry; legacy is skipped.
func HistoryRuns() []historytest.Run {
	return historytest.Runs(time.Date(2026, 11, 2, 9, 30, 0, 0, time.UTC), 22, []historytest.Test{
		{ID: "tests/checkout", Name: "checkout declines the card", File: "tests/checkout.ananke.yaml", Pattern: "ppfpppfppppfpppppfpp"},
		{ID: "tests/weather", Name: "weather in Paris", File: "tests/weather.ananke.yaml", Pattern: "pppppppppppppppppppp"},
		{ID: "tests/refund", Name: "refund needs a seeded order", File: "tests/refund.ananke.yaml", Pattern: "pppppppppppppppppeee"},
		{ID: "tests/legacy", Name: "legacy flow", File: "tests/legacy.ananke.yaml", Pattern: "ssssssssssssssssssss"},
		{ID: "tests/search", Name: "search finds shoes", File: "tests/search.ananke.yaml", Pattern: "ppPppppppppppPpppppp"},
		{ID: "tests/flip", Name: "search flips", File: "tests/flip.ananke.yaml", Pattern: "pppppppppppppppppppp"},
	})
}

// HistoryReport builds the fixture report, or some of its tests (Pick's
// positions; all of them when none are given), read against HistoryRuns
// (history.Attach, main, at significance 0.05): the failing checkout test
// is known flaky, the errored refund test already failing, the failing
// flip test a new failure.
func HistoryReport(tests ...int) *report.Report {
	r := Report()
	if len(tests) > 0 {
		r = Pick(false, tests...)
	}
	history.Attach(r, historytest.History(HistoryRuns()), "main", 0.05)
	return r
}
