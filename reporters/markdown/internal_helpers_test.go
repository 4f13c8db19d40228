package markdown

import "github.com/ananke/action/internal/report"

func totalsOf(passed, failed, errored, skipped int) report.Totals {
	return report.Totals{Total: passed + failed + errored + skipped, Passed: passed, Failed: failed, Errored: errored, Skipped: skipped}
}
