package console

import (
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/reporters/internal/format"
)

// eraseLine returns the cursor to the start of the line and clears it: the
// progress line is redrawn in place rather than scrolled.
const eraseLine = "\r\x1b[K"

// Live prints one line per test as it finishes and, with Options.Progress,
// a progress line below them. It reads only the test's name, status,
// duration, run counts, how many warnings failed and the token counts and
// cost its agent reported, which hold no secrets.
type Live struct {
	w    io.Writer
	opts Options

	// mu guards the counters and the writer: the engine serializes its
	// calls, but a lock is cheap and keeps Live safe for any caller.
	mu      sync.Mutex
	running map[*spec.Test]bool
	done    int
	drawn   bool // the progress line is on screen
	closed  bool
}

var (
	_ engine.Observer      = (*Live)(nil)
	_ engine.StartObserver = (*Live)(nil)
)

// NewLive returns an observer printing to w.
func NewLive(w io.Writer, opts Options) *Live {
	return &Live{w: w, opts: opts, running: map[*spec.Test]bool{}}
}

// TestStarted counts the test as running and redraws the progress line.
func (l *Live) TestStarted(t *spec.Test) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.running[t] = true
	if l.progress() {
		l.write(l.erase() + l.status())
	}
}

// TestFinished prints the test's line, above the progress line.
func (l *Live) TestFinished(r *engine.TestResult) {
	l.mu.Lock()
	defer l.mu.Unlock()
	// A test skipped or cancelled before it started finishes without
	// having run: it was never counted as running.
	delete(l.running, r.Test)
	l.done++
	out := l.line(r) + "\n"
	if l.progress() {
		out = l.erase() + out + l.status()
	}
	l.write(out)
}

// Close erases the progress line for good, so that the summary starts on a
// clean line. Later calls print test lines only.
func (l *Live) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	if e := l.erase(); e != "" {
		l.write(e)
	}
}

func (l *Live) progress() bool { return l.opts.Progress && !l.closed }

// erase clears the progress line if it is drawn; the cursor stays on that
// line, where the next output starts.
func (l *Live) erase() string {
	if !l.drawn {
		return ""
	}
	l.drawn = false
	return eraseLine
}

// status is the progress line, without a newline so that it can be
// erased: "[3/10 done, 5 running]".
func (l *Live) status() string {
	l.drawn = true
	done := fmt.Sprint(l.done)
	if l.opts.Total > 0 {
		done += fmt.Sprintf("/%d", l.opts.Total)
	}
	return l.opts.paint("dim", fmt.Sprintf("[%s done, %d running]", done, len(l.running)))
}

// write sends one event's output in a single Write, so a terminal never
// shows the progress line half erased.
func (l *Live) write(s string) { _, _ = io.WriteString(l.w, s) }

// line is a finished test's line: "✓ weather in Paris (420ms)", for a
// test run several times "✓ search finds shoes (1.3s) · 2/3 runs (66.7%,
// 95% CI 21–94%) · flaky" (the interval as the report will give it), with
// adaptive runs "· settled: pass" or "· ? inconclusive", "· 1 warning" when warnings failed in the attempt the report
// will show, "· 1 check not made" when checks could not be made there (the
// ✓ alone would hide them until the summary), what the agent used when
// it reported usage: "· 5k tokens · $0.0036", and "· quarantined" for a
// quarantined test, whose failure fails nothing.
func (l *Live) line(r *engine.TestResult) string {
	parts := []string{fmt.Sprintf("%s %s (%s)", l.opts.mark(r.Status), clean(r.Test.Name.Value), format.Duration(r.End.Sub(r.Start).Milliseconds()))}
	if v := r.Verdict; len(r.Attempts) > 1 || v.Runs > 1 || v.Stop != "" {
		parts = append(parts, fmt.Sprintf("%d/%s (%s)", v.PassedRuns, plural.Count(v.Runs, "run"),
			format.Rate(v.PassRate, report.RateInterval(v.PassedRuns, v.Runs, l.opts.level()))))
		if v.Flaky {
			parts = append(parts, l.opts.paint("flaky", "flaky"))
		}
		if a := l.opts.adaptiveLive(v); a != "" {
			parts = append(parts, a)
		}
	}
	if n := warned(r); n > 0 {
		parts = append(parts, l.opts.paint(string(status.Warn), plural.Count(n, "warning")))
	}
	if n := withStatus(r, status.Error); n > 0 {
		// A check that could not be made must not hide behind a ✓.
		parts = append(parts, l.opts.paint(string(status.Error), plural.Count(n, "check")+" not made"))
	}
	if u := liveUsage(r); u != "" {
		parts = append(parts, u)
	}
	if r.Test.Quarantine != nil {
		parts = append(parts, l.opts.quarantineMark())
	}
	if a := r.Shown(); a != nil && len(a.Checkpoints) > 0 {
		reached := 0
		for _, c := range a.Checkpoints {
			if c.ReachedAt >= 0 {
				reached++
			}
		}
		parts = append(parts, fmt.Sprintf("%s, %d/%d checkpoints", plural.Count(len(a.Trace.Turns), "turn"), reached, len(a.Checkpoints)))
	}
	line := strings.Join(parts, " · ")
	if r.Status == status.Skipped {
		// The reason is the test file's own text, never the agent's.
		line += " skipped: " + clean(r.Reason)
	}
	return line
}

// warned counts the failing warnings of the attempt reports show.
func warned(r *engine.TestResult) int { return withStatus(r, status.Warn) }

// withStatus counts the results of status st in the attempt reports show.
func withStatus(r *engine.TestResult, st status.Status) int {
	a := r.Shown()
	if a == nil {
		return 0
	}
	n := 0
	for _, res := range a.Results {
		if res.Status == st {
			n++
		}
	}
	return n
}
