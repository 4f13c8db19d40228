package console_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ananke/action/internal/cost"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/internal/stability"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/reporters/console"
	"github.com/ananke/action/reporters/internal/suitetest"
)

// spent gives each attempt of r a one-turn trace whose agent used what
// spends say (nil: reported nothing).
func spent(r *engine.TestResult, spends ...*cost.Spend) *engine.TestResult {
	for i, a := range r.Attempts {
		a.Trace = &trace.Trace{Turns: []trace.Turn{{Usage: spends[i]}}}
	}
	return r
}

// TestLiveUsage: the line of a test whose agent reported usage says what
// it used, per run too when it ran several times; a test whose agent
// reported none says nothing of it, since the line cannot know yet
// whether another test will.
func TestLiveUsage(t *testing.T) {
	mini := func(in, out int64) *cost.Spend {
		return reporttest.Spent(reporttest.Usage("openai", "gpt-4o-mini", in, out))
	}
	once := stability.Verdict{Runs: 1, PassedRuns: 1, PassRate: 100}
	for _, tc := range []struct {
		name string
		r    *engine.TestResult
		want string
	}{
		{"priced", spent(finished(newTest("weather"), status.Pass, 420, once, 1), mini(12_000, 400)),
			"✓ weather (420ms) · 12.4k tokens · $0.002\n"},
		{"no price", spent(finished(newTest("weather"), status.Pass, 420, once, 1), reporttest.Spent(reporttest.Usage("acme", "acme-large-2", 900, 50))),
			"✓ weather (420ms) · 950 tokens · cost unknown\n"},
		{"none reported", spent(finished(newTest("weather"), status.Pass, 420, once, 1), nil), "✓ weather (420ms)\n"},
		{"runs", spent(finished(newTest("search"), status.Pass, 900, stability.Verdict{Runs: 2, PassedRuns: 2, PassRate: 100}, 2), mini(1000, 100), mini(3000, 100)),
			"✓ search (900ms) · 2/2 runs (100%, 95% CI 34–100%) · 4.2k tokens · $0.00072 (per run: mean 2.1k tokens · $0.00036, max 3.1k tokens · $0.00051)\n"},
		{"retried, partly reported", spent(finished(newTest("flip"), status.Pass, 800, stability.Verdict{Runs: 1, PassedRuns: 1, PassRate: 100, Flaky: true}, 2), mini(1000, 100), nil),
			"✓ flip (800ms) · 1/1 run (100%, 95% CI 21–100%) · flaky · ≥ 1.1k tokens (1 of 2 unreported)\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			console.NewLive(&b, console.Options{}).TestFinished(tc.r)
			if got := b.String(); got != tc.want {
				t.Errorf("TestFinished printed %q; want %q", got, tc.want)
			}
		})
	}
}

// TestNoUsage: a run whose agent reported no usage shows nothing about it,
// in no mode; a test that never ran (skipped) never says "usage unknown",
// even in a run with usage.
func TestNoUsage(t *testing.T) {
	for _, opts := range []console.Options{{}, {Verbose: true}, {Transcript: true}, {Color: true, Verbose: true}} {
		var b bytes.Buffer
		live := console.NewLive(&b, opts)
		for _, r := range reporttest.OutcomeWithoutUsage().Tests {
			live.TestFinished(r)
		}
		if err := console.Write(&b, reporttest.ReportWithoutUsage(), opts); err != nil {
			t.Fatal(err)
		}
		if err := console.Write(&b, suitetest.BeforeAllFailed(), opts); err != nil {
			t.Fatal(err)
		}
		for _, w := range []string{"usage", " tokens", "$", "Agent:", "cost unknown"} {
			if strings.Contains(b.String(), w) {
				t.Errorf("with %+v, a run without usage shows %q:\n%s", opts, w, b.String())
			}
		}
	}
	var b strings.Builder
	if err := console.Write(&b, reporttest.Pick(false, reporttest.Failing, reporttest.Skipped), console.Options{Verbose: true}); err != nil {
		t.Fatal(err)
	}
	skip := b.String()[strings.Index(b.String(), "SKIP legacy flow"):]
	if want := "SKIP legacy flow  tests/legacy.ananke.yaml\n  waiting for agent v2\n\nTests:"; !strings.HasPrefix(skip, want) {
		t.Errorf("the skipped test's tree is\n%s\nwant\n%s", skip, want)
	}
	if !strings.Contains(b.String(), "\nAgent: 5k tokens · $0.0036\n") {
		t.Errorf("the summary lacks the agent's usage:\n%s", b.String())
	}
}
