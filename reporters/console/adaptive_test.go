package console_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/console"
)

// TestWriteAdaptive: adaptive runs in the trees and the summary — a
// settled failure, an inconclusive pass that fails the run under
// --fail-on-inconclusive, the runs taken and saved — and none of it for
// a fixed test.
func TestWriteAdaptive(t *testing.T) {
	r := reporttest.AdaptiveReport(true, reporttest.SettledPass, reporttest.SettledFail, reporttest.Inconclusive, reporttest.Fixed)
	var b bytes.Buffer
	if err := console.Write(&b, r, console.Options{}); err != nil {
		t.Fatal(err)
	}
	golden.Assert(t, "testdata/adaptive.golden.txt", b.String())
	// The inconclusive test alone fails the run: the summary says why.
	b.Reset()
	console.Write(&b, reporttest.AdaptiveReport(true, reporttest.Inconclusive), console.Options{})
	for _, want := range []string{"INCONCLUSIVE strict tool", "Inconclusive tests fail the run (--fail-on-inconclusive).", "1 inconclusive"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, b.String())
		}
	}
	if strings.Contains(b.String(), "Flaky tests fail the run") {
		t.Errorf("an inconclusive test is blamed on flaky ones:\n%s", b.String())
	}
}

// TestLiveAdaptive: a test's line says whether its adaptive runs settled
// or are inconclusive; a fixed test's says neither.
func TestLiveAdaptive(t *testing.T) {
	out := reporttest.AdaptiveOutcome()
	for i, want := range []string{
		"· 24/24 runs (100%, 95% CI 86–100%) · settled: pass",
		"· 0/6 runs (0%, 95% CI 0–39%) · settled: fail",
		"· 3/3 runs (100%, 95% CI 44–100%) · ? inconclusive",
		"· 3/3 runs (100%, 95% CI 44–100%)\n",
	} {
		var b bytes.Buffer
		console.NewLive(&b, console.Options{}).TestFinished(out.Tests[i])
		if !strings.Contains(b.String(), want) {
			t.Errorf("line %q lacks %q", b.String(), want)
		}
	}
}
