package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sethvargo/go-githubactions"

	"github.com/ananke/action/internal/github"
	"github.com/ananke/action/internal/github/artifact"
	"github.com/ananke/action/internal/history"
	"github.com/ananke/action/internal/plural"
)

// The action's history of the base branch (docs/history.md, "In the
// action").
const (
	// historyTimeout is the time budget of gathering the history; it runs
	// beside the tests, so the run waits for it only when the tests end
	// first.
	historyTimeout = 2 * time.Minute
	// defaultHistoryMaxBytes is history-max-bytes' default: what may be
	// downloaded in all.
	defaultHistoryMaxBytes = 50_000_000
)

// historyGather is the history of the branch a run is read against,
// gathered from the artifacts of its runs: the base branch of a pull
// request, or the branch a push (or a schedule) ran on — which then
// appends itself and uploads the history artifact. It is gathered beside
// the tests; wait waits for it.
type historyGather struct {
	in     actionInputs
	gha    *githubactions.Action
	branch string
	// appends: the run is on branch itself, and appends itself to the
	// history it read.
	appends bool
	done    chan struct{}
	cancel  context.CancelFunc

	// Set before done is closed.
	h     *history.History
	lines []string
	warn  string
	// complete: the search ended without failing or running out of time,
	// so a history built on it may replace the one uploaded before.
	complete bool
	// passedOver counts the artifacts that could not be read.
	passedOver int
	waited     bool
}

// gatherHistory starts gathering the history the run is read against
// from the artifacts of its branch's runs; nil when history is off, for a
// dry run, and when nothing is published (a shard, whose merge job
// publishes and reads the history). A run that cannot have one (no
// branch, no token) gets a history that only says why.
func (a *app) gatherHistory(ctx context.Context, gha *githubactions.Action, in actionInputs) *baseHistory {
	if !in.history || !in.publish || in.run.dryRun {
		return nil
	}
	j := &historyGather{in: in, gha: gha, done: make(chan struct{}), cancel: func() {}}
	b := &baseHistory{alpha: in.significance.level(), gather: j}
	gctx, err := github.ContextFrom(a.getenv, nil)
	if err != nil {
		close(j.done) // publishing warns about the context
		return b
	}
	j.branch, j.appends = gctx.BaseRef, gctx.BaseRef == ""
	if j.appends {
		j.branch = gctx.Branch
	}
	b.base = j.branch
	runID, err := strconv.ParseInt(gctx.RunID, 10, 64)
	switch {
	case j.branch == "":
		j.say("history: none: the %s event is on no branch", orDefault(gctx.EventName, "current"))
	case err != nil:
		j.say("history: none: GITHUB_RUN_ID %q is not a run id", gctx.RunID)
	case in.token == "":
		j.say("history: none: there is no github-token to read the runs of %s", j.branch)
	}
	if j.lines != nil {
		j.appends = false
		close(j.done)
		return b
	}
	client, err := github.NewClient(gctx, in.token, github.ClientOptions{Now: a.now})
	if err != nil {
		j.warn = fmt.Sprintf("history: %v", err)
		close(j.done)
		return b
	}
	ctx, j.cancel = context.WithTimeout(ctx, historyTimeout)
	q := github.HistoryQuery{RunID: runID, Branch: j.branch, HistoryArtifact: historyArtifactName(in.artifactName),
		ReportArtifact: in.artifactName, Runs: in.historyRuns, MaxBytes: in.historyMaxBytes,
		Valid: func(data []byte) error { _, err := history.Parse(data); return err }}
	go func() {
		defer close(j.done)
		found, err := client.GatherHistory(ctx, q)
		j.gathered(found, err)
	}()
	return b
}

// historyArtifactName is the history artifact beside the report artifact
// name: ananke-report's is ananke-history; another name gets "-history"
// (its "-report" dropped).
func historyArtifactName(reportArtifact string) string {
	return strings.TrimSuffix(reportArtifact, "-report") + "-history"
}

func (j *historyGather) say(format string, args ...any) {
	j.lines = append(j.lines, fmt.Sprintf(format, args...))
}

// gathered builds the history from what the search found, and the log
// lines that say what was read.
func (j *historyGather) gathered(b *github.BaseHistory, err error) {
	switch {
	case github.Forbidden(err):
		// GitHub answers 404 as well as 403 for what a token may not see.
		j.warn = "history: the token cannot read this workflow's runs (permissions lack actions: read): the tests are read without the history of " + j.branch
		return
	case err != nil:
		j.warn = fmt.Sprintf("history: %v: the tests are read without the history of %s", err, j.branch)
		return
	}
	h := &history.History{}
	if b.File != nil {
		h, _ = history.Parse(b.File.Data) // Valid parsed it
	}
	passedOver := slices.Clone(b.PassedOver)
	read := 0
	for _, r := range slices.Backward(b.Reports) {
		rep, err := history.ParseSummary(r.Summary)
		switch {
		case err != nil:
			passedOver = append(passedOver, fmt.Sprintf("the summary.json of artifact %s of run #%d could not be read: %v", j.in.artifactName, r.Run.Number, err))
			continue
		case rep.Shard != nil:
			passedOver = append(passedOver, fmt.Sprintf("artifact %s of run #%d is shard %d/%d of its run, not the merged report", j.in.artifactName, r.Run.Number, rep.Shard.Index, rep.Shard.Total))
			continue
		}
		h.Add(history.Run{ID: strconv.FormatInt(r.Run.ID, 10), Number: r.Run.Number, Commit: r.Run.HeadSHA, URL: r.Run.HTMLURL}, rep)
		read++
	}
	h.Trim(j.in.historyRuns)
	j.h = h
	j.complete = b.Stopped == ""
	for _, p := range passedOver {
		j.say("history: passed over %s", p)
	}
	j.passedOver = len(passedOver)
	j.say("%s", j.headline(b, read))
}

// headline says what the history was read from: "history: 20 runs of
// main from the ananke-history artifact of run #41 (1 file, 23 KB)", or
// "… from 14 report artifacts (38 MB of 50 MB; 6 skipped over the
// budget)".
func (j *historyGather) headline(b *github.BaseHistory, reports int) string {
	var from string
	switch {
	case b.File != nil:
		from = fmt.Sprintf("the %s artifact of run #%d (1 file, %s)", historyArtifactName(j.in.artifactName), b.File.Run.Number, github.HumanBytes(b.File.Size))
		if reports > 0 {
			from += fmt.Sprintf(" and %s of the newer runs (%s)", plural.Count(reports, "report artifact"), github.HumanBytes(b.Bytes-b.File.Size))
		}
	case reports > 0 || b.OverBudget > 0:
		from = fmt.Sprintf("%s (%s of %s", plural.Count(reports, "report artifact"), github.HumanBytes(b.Bytes), github.HumanBytes(j.in.historyMaxBytes))
		if b.OverBudget > 0 {
			from += fmt.Sprintf("; %d skipped over the budget", b.OverBudget)
		}
		from += ")"
	}
	var s string
	switch {
	case from == "" && (j.passedOver > 0 || b.Expired > 0):
		s = fmt.Sprintf("history: none of %s: no artifact of its runs could be read", j.branch)
	case from == "":
		s = fmt.Sprintf("history: no run of %s has an %s or %s artifact yet", j.branch, historyArtifactName(j.in.artifactName), j.in.artifactName)
	default:
		s = fmt.Sprintf("history: %s of %s from %s", plural.Count(len(j.h.Runs), "run"), j.branch, from)
	}
	if b.Expired > 0 {
		s += fmt.Sprintf("; %s expired", plural.Count(b.Expired, "report artifact"))
	}
	if b.Stopped != "" {
		s += fmt.Sprintf("; stopped early: %s (%s)", b.Stopped, historyTimeout)
	}
	return s
}

// wait waits for the history and returns it (nil when none was read);
// the first wait logs what was read.
func (j *historyGather) wait(out func(string)) *history.History {
	if j == nil {
		return nil
	}
	<-j.done
	if !j.waited {
		j.waited = true
		for _, line := range j.lines {
			out(line)
		}
		if j.warn != "" {
			j.gha.Warningf("%s", j.warn)
		}
	}
	return j.h
}

// stop ends the search, if it still runs, and waits for it.
func (j *historyGather) stop() {
	if j == nil {
		return
	}
	j.cancel()
	<-j.done
}

// appendHistory appends this run to the history of its branch and
// uploads the result as the history artifact, so that the next run
// downloads one file. Only a run on the branch itself does (a push, a
// schedule), once its history was read whole: a history cut short would
// replace a longer one.
func (p *publisher) appendHistory(ctx context.Context) {
	if p.hist == nil || p.hist.gather == nil {
		return
	}
	j := p.hist.gather
	j.wait(func(s string) { fmt.Fprintln(p.app.Out, s) })
	switch {
	case !j.appends:
		return
	case j.h == nil:
		fmt.Fprintf(p.app.Out, "history: this run is not appended: the history of %s could not be read\n", j.branch)
		return
	}
	name := historyArtifactName(p.in.artifactName)
	token, results := p.app.getenv("ACTIONS_RUNTIME_TOKEN"), p.app.getenv("ACTIONS_RESULTS_URL")
	switch {
	case !j.complete:
		fmt.Fprintf(p.app.Out, "history: this run is not appended: reading the history of %s stopped early, and an artifact %s cut short would replace a longer one\n", j.branch, name)
		return
	case p.rep.Shard != nil:
		return
	case token == "" || results == "":
		fmt.Fprintf(p.app.Out, "history: the artifact service is not available (ACTIONS_RUNTIME_TOKEN or ACTIONS_RESULTS_URL unset): the history was not uploaded\n")
		return
	}
	n, _ := strconv.ParseInt(p.app.getenv("GITHUB_RUN_NUMBER"), 10, 64)
	j.h.Add(history.Run{ID: p.gctx.RunID, Number: n, Commit: p.gctx.SHA, URL: p.gctx.RunURL()}, p.rep)
	data, err := history.Bound(j.h, p.in.historyRuns, history.DefaultMaxBytes)
	if err != nil {
		p.gha.Warningf("history: this run is not appended: %v", err)
		return
	}
	dir, err := os.MkdirTemp("", "ananke-history-")
	if err != nil {
		p.gha.Warningf("history: %v", err)
		return
	}
	defer os.RemoveAll(dir)
	if err := history.WriteFile(filepath.Join(dir, github.HistoryFile), data); err != nil {
		p.gha.Warningf("history: %v", err)
		return
	}
	days, _ := strconv.Atoi(p.app.getenv("GITHUB_RETENTION_DAYS"))
	if _, err := artifact.Upload(ctx, artifact.Config{RuntimeToken: token, ResultsURL: results, RetentionDays: days,
		Now: p.app.now, OnSecret: p.gha.AddMask}, name, dir); err != nil {
		p.gha.Warningf("history: upload the history as artifact %q: %v", name, err)
		return
	}
	run := "this run"
	if n > 0 {
		run = fmt.Sprintf("run #%d", n)
	}
	fmt.Fprintf(p.app.Out, "history: appended %s to the %s artifact (%s of %s, %s)\n", run, name, plural.Count(len(j.h.Runs), "run"), j.branch, github.HumanBytes(int64(len(data))))
}

// readHistoryInputs reads history, history-runs and history-max-bytes.
func readHistoryInputs(gha *githubactions.Action, in *actionInputs) error {
	in.history, in.historyRuns, in.historyMaxBytes = true, history.DefaultKeep, defaultHistoryMaxBytes
	switch s := gha.GetInput("history"); {
	case s == "", strings.EqualFold(s, "auto"):
	case strings.EqualFold(s, "off"):
		in.history = false
	default:
		return fmt.Errorf("input history: want auto or off, got %q", s)
	}
	if s := gha.GetInput("history-runs"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > github.MaxHistoryRuns {
			return fmt.Errorf("input history-runs: want a number from 1 to %d, got %q", github.MaxHistoryRuns, s)
		}
		in.historyRuns = n
	}
	if s := gha.GetInput("history-max-bytes"); s != "" {
		n, err := parseBytes(s)
		if err != nil {
			return fmt.Errorf("input history-max-bytes: %v, got %q", err, s)
		}
		in.historyMaxBytes = n
	}
	return nil
}

// byteUnits are the units parseBytes knows: decimal as GitHub shows
// artifact sizes, and binary.
var byteUnits = map[string]int64{"": 1, "b": 1, "kb": 1e3, "mb": 1e6, "gb": 1e9, "kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30}

// parseBytes reads a size: a number of bytes, or a number and a unit
// ("50MB", "50 MB", "1.5 GB", "64 MiB").
func parseBytes(s string) (int64, error) {
	s = strings.TrimSpace(s)
	i := strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	if i < 0 {
		i = len(s)
	}
	num, unit := s[:i], strings.ToLower(strings.TrimSpace(s[i:]))
	v, err := strconv.ParseFloat(num, 64)
	mul, ok := byteUnits[unit]
	if err != nil || !ok || v <= 0 || v*float64(mul) > 1<<50 {
		return 0, errors.New("want a size such as 50MB, 200 MB or 1GB (or a number of bytes)")
	}
	return int64(v * float64(mul)), nil
}
