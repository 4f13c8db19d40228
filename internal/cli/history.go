package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/ananke/action/internal/history"
	"github.com/ananke/action/reporters/historytable"
)

// Bounds of the history command's numbers.
const (
	maxHistoryKeep = 1000
	minHistoryMax  = 1 << 10
)

// historyFlags are `ananke history`'s flags.
type historyFlags struct {
	format        *string
	top, keep     numberFlag
	append, to    *string
	maxBytes      numberFlag
	runID, commit *string
	url           *string
	runNumber     numberFlag
}

// runHistory is `ananke history`: the flakiest, failing, slowest and most
// expensive tests of a history — a directory of downloaded reports, one a
// run, or a history file — or, with --append, a run's report appended to a
// history file (docs/history.md).
//
// It exits 0 once the table is printed or the file written: a history
// judges nothing. Input that cannot be read exits 3, as invalid input
// does; output that cannot be written exits 2.
func runHistory(_ context.Context, a *app, args []string) error {
	fs := a.flags("history", "DIR|FILE")
	o := historyFlags{top: historytable.DefaultTop, keep: history.DefaultKeep, maxBytes: history.DefaultMaxBytes}
	o.format = fs.String("format", "text", "print as `text`, markdown or json")
	fs.Var(&o.top, "top", "list at most `N` tests in each section (0: all)")
	fs.Var(&o.keep, "keep", fmt.Sprintf("keep the newest `N` runs, from 1 to %d", maxHistoryKeep))
	o.append = fs.String("append", "", "append the run of a report `dir` (or its summary.json file) to the history file --to, instead of printing a table")
	o.to = fs.String("to", "", "with --append, the history `file` to append to (created when missing)")
	fs.Var(&o.maxBytes, "max-bytes", "with --append, drop the oldest runs until the history file is at most `N` bytes")
	o.runID = fs.String("run-id", "", "with --append, the run's `id` (default: $GITHUB_RUN_ID, else the report's start time)")
	fs.Var(&o.runNumber, "run-number", "with --append, the run's number `N`, as in run #N (default: $GITHUB_RUN_NUMBER)")
	o.commit = fs.String("commit", "", "with --append, the `sha` of the commit the run tested (default: $GITHUB_SHA)")
	o.url = fs.String("url", "", "with --append, the `URL` where the run can be seen (default: the GitHub run's page, from $GITHUB_SERVER_URL, $GITHUB_REPOSITORY and $GITHUB_RUN_ID)")
	if err := a.parse(fs, args); err != nil {
		return err
	}
	switch {
	case *o.format != "text" && *o.format != "markdown" && *o.format != "json":
		return invalidf("history", "--format %q: want text, markdown or json", *o.format)
	case o.top < 0:
		return invalidf("history", "--top %d: want 0 (all) or more", o.top)
	case o.keep < 1 || o.keep > maxHistoryKeep:
		return invalidf("history", "--keep %d: want a number from 1 to %d", o.keep, maxHistoryKeep)
	case o.maxBytes < minHistoryMax:
		return invalidf("history", "--max-bytes %d: want at least %d", o.maxBytes, minHistoryMax)
	case o.runNumber < 0:
		return invalidf("history", "--run-number %d: want 1 or more", o.runNumber)
	case *o.append != "":
		if *o.to == "" {
			return invalidf("history", "--append needs --to FILE, the history file to append to")
		}
		if fs.NArg() != 0 {
			return invalidf("history", "--append takes no DIR or FILE; the history file is --to")
		}
		return a.appendHistory(o)
	case *o.to != "":
		return invalidf("history", "--to is for --append: name the report to append with --append DIR")
	case fs.NArg() != 1:
		return invalidf("history", "name one directory of reports (a subdirectory per run) or one history file")
	}
	h, err := readHistory(fs.Arg(0))
	if err != nil {
		return withCode(ExitInvalid, "history", err)
	}
	h.Trim(int(o.keep))
	t := historytable.Build(h, historytable.Options{Top: int(o.top)})
	if err := writeHistoryTable(a.Out, t, *o.format); err != nil {
		return withCode(ExitError, "history", err)
	}
	return nil
}

// readHistory reads a directory of reports, one a subdirectory, or a
// history file.
func readHistory(path string) (*history.History, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("read history: %w", err)
	}
	if !info.IsDir() {
		h, err := history.ReadFile(path)
		if err != nil && isSummary(path) {
			return nil, fmt.Errorf("%s is a run's summary.json, not a history file: name the directory that holds one report directory a run, or a history file that --append wrote", path)
		}
		return h, err
	}
	h, err := history.ReadDir(path)
	if err != nil {
		if _, serr := os.Stat(filepath.Join(path, history.SummaryFile)); serr == nil {
			return nil, fmt.Errorf("%s is one report directory: name the directory that holds one report directory a run", path)
		}
		return nil, err
	}
	return h, nil
}

// isSummary reports whether the file at path is a report's summary.json.
func isSummary(path string) bool {
	_, err := history.ReadSummary(path)
	return err == nil
}

func writeHistoryTable(w io.Writer, t *historytable.Table, format string) error {
	switch format {
	case "markdown":
		if _, err := io.WriteString(w, historytable.Markdown(t)); err != nil {
			return fmt.Errorf("write history: %w", err)
		}
		return nil
	case "json":
		return historytable.WriteJSON(w, t)
	}
	return historytable.WriteText(w, t)
}

// appendHistory is --append: the report's run becomes the history file's
// newest, the oldest dropped past --keep and --max-bytes.
func (a *app) appendHistory(o historyFlags) error {
	path := *o.append
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		path = filepath.Join(path, history.SummaryFile)
	}
	rep, err := history.ReadSummary(path)
	if err != nil {
		return withCode(ExitInvalid, "history", err)
	}
	if rep.Shard != nil {
		return invalidf("history", "%s is shard %d/%d of a run: merge the shards first (ananke merge), and append the merged report", path, rep.Shard.Index, rep.Shard.Total)
	}
	h, err := history.ReadFile(*o.to)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		h = &history.History{}
	case err != nil:
		return withCode(ExitInvalid, "history", err)
	}
	h.Add(a.historyRun(o, rep.StartedAt.UTC().Format("20060102T150405Z")), rep)
	data, err := history.Bound(h, int(o.keep), int64(o.maxBytes))
	if err != nil {
		return withCode(ExitError, "history", fmt.Errorf("%s not written: %w; raise --max-bytes", *o.to, err))
	}
	if err := history.WriteFile(*o.to, data); err != nil {
		return withCode(ExitError, "history", err)
	}
	t := historytable.Build(h, historytable.Options{})
	fmt.Fprintf(a.Out, "%s: %s; %d bytes\n", *o.to, t.Headline(), len(data))
	return nil
}

// historyRun is who the appended run is: the flags, else GitHub's
// variables; its id is the report's start (stamp) when neither says.
func (a *app) historyRun(o historyFlags, stamp string) history.Run {
	env := func(name string) string { v, _ := a.lookupEnv(name); return v }
	run := history.Run{ID: *o.runID, Number: int64(o.runNumber), Commit: *o.commit, URL: *o.url}
	if run.ID == "" {
		run.ID = env("GITHUB_RUN_ID")
		if server, repo := env("GITHUB_SERVER_URL"), env("GITHUB_REPOSITORY"); run.URL == "" && run.ID != "" && server != "" && repo != "" {
			run.URL = server + "/" + repo + "/actions/runs/" + run.ID
		}
	}
	if run.ID == "" {
		run.ID = stamp
	}
	if n, err := strconv.ParseInt(env("GITHUB_RUN_NUMBER"), 10, 64); run.Number == 0 && err == nil && n > 0 {
		run.Number = n
	}
	if run.Commit == "" {
		run.Commit = env("GITHUB_SHA")
	}
	return run
}
