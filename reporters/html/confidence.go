package html

import "github.com/ananke/action/internal/report"

// intervalText is an interval as the page shows it, "95% CI 21–94%"; ""
// for none.
func intervalText(iv *report.Interval) string {
	if iv == nil {
		return ""
	}
	return iv.String()
}

// passKText is a repeated test's pass^k, "pass^3 29.6% (95% CI 1–83%)";
// "" when it has none.
func passKText(t *report.Test) string {
	if t.PassK == nil || t.PassRateCI == nil {
		return ""
	}
	return t.PassK.String(t.PassRateCI.Level)
}
