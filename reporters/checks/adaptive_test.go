package checks_test

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/github"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/checks"
)

// TestInconclusiveAnnotation: a test whose adaptive runs never settled is
// a warning where it is declared, saying what was observed; settled and
// fixed-run tests get none.
func TestInconclusiveAnnotation(t *testing.T) {
	r := reporttest.AdaptiveReport(false, reporttest.SettledPass, reporttest.Inconclusive, reporttest.Fixed)
	var got []github.Annotation
	for _, a := range checks.Annotations(r) {
		if strings.HasSuffix(a.Title, ": inconclusive") {
			got = append(got, a)
		}
	}
	if len(got) != 1 {
		t.Fatalf("inconclusive annotations = %+v, want one", got)
	}
	a := got[0]
	if a.Path != "tests/strict.ananke.yaml" || a.Level != github.LevelWarning ||
		!strings.Contains(a.Message, "not settled within the maximum of 3 runs: 3 of 3 passed (100%, 95% CI") ||
		!strings.Contains(a.Message, "min_pass_rate 95%") {
		t.Errorf("annotation = %+v", a)
	}
}
