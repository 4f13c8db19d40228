package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/ananke/action/internal/bless"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/replay"
	"github.com/ananke/action/internal/source"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/target/registry"
)

// blessRecording replays every test of the recording in dir, its
// assertions left out, for the traces: a conversation per recorded test
// (those --test names), its turns as its test file wrote them. A test
// whose replay errored is in failed.
func (a *app) blessRecording(ctx context.Context, o blessOptions, dir string) (convs []*bless.Conversation, cfg *spec.Config, failed []error, err error) {
	idx, err := replay.ReadIndex(dir)
	if err != nil {
		return nil, nil, nil, invalidf("bless", "%v", err)
	}
	if len(idx.Tests) == 0 {
		return nil, nil, nil, invalidf("bless", "the recording in %s holds no test", dir)
	}
	recorded := map[string]bool{}
	var files []string
	for _, t := range idx.Tests {
		recorded[t.ID] = true
		if _, err := os.Stat(t.File); err != nil {
			return nil, nil, nil, invalidf("bless", "the recording's test %s was loaded from %s, which is not here: run bless from the directory the recording was made in", t.ID, t.File)
		}
		if !slices.Contains(files, t.File) {
			files = append(files, t.File)
		}
	}
	for _, id := range o.tests {
		if !recorded[id] {
			return nil, nil, nil, invalidf("bless", "--test %s: the recording has no such test", id)
		}
	}
	// Ids default to the file's path from the config's directory, which
	// needs both paths alike: absolute, or relative.
	config, _, err := a.findConfig(o.config, files)
	if err != nil {
		return nil, nil, nil, withCode(ExitInvalid, "", err)
	}
	if filepath.IsAbs(files[0]) && !filepath.IsAbs(config) {
		if abs, err := filepath.Abs(config); err == nil {
			config = abs
		}
	}
	suite, err := a.loadSuite(spec.Options{ConfigPath: config, Paths: files})
	if err != nil {
		return nil, nil, nil, err
	}
	if diags := spec.CheckEnv(suite, a.lookupEnv); len(diags) > 0 {
		for _, d := range diags {
			fmt.Fprintln(a.Err, d)
		}
		return nil, nil, nil, invalidf("bless", "%s found; nothing was replayed", plural.Count(len(diags), "problem"))
	}
	play := &spec.Suite{Config: withoutAssertions(suite.Config)}
	loaded := map[string]bool{}
	for _, t := range suite.Tests {
		loaded[t.ID] = true
	}
	for _, t := range idx.Tests {
		if !loaded[t.ID] && (len(o.tests) == 0 || slices.Contains(o.tests, t.ID)) {
			failed = append(failed, fmt.Errorf("%s: %s declares no test with this id any more (with %s as the config)", t.ID, t.File, config))
		}
	}
	for _, t := range suite.Tests {
		switch {
		case !recorded[t.ID]:
		case t.Simulator != nil:
			a.warn("bless", fmt.Errorf("%s is a dynamic test: its turns are its simulated user's, which bless cannot write as they were; left out", t.ID))
		case spec.IsDataset(t.Path):
			a.warn("bless", fmt.Errorf("%s is a case of the dataset %s, not a test file; left out", t.ID, t.Path))
		default:
			play.Tests = append(play.Tests, testWithoutAssertions(t))
		}
	}
	player, err := replay.Open(dir, a.now)
	if err != nil {
		return nil, nil, nil, invalidf("bless", "%v", err)
	}
	tape, err := newEdgeTape(player, dir, idx)
	if err != nil {
		return nil, nil, nil, invalidf("bless", "%v", err)
	}
	for _, f := range player.Changed(play) {
		a.warn("bless", fmt.Errorf("note: %s changed since it was recorded; a request that differs is an error", f))
	}
	// One test at a time, as hooks written for a sequential run expect.
	out := engine.Run(ctx, engine.Options{Suite: play, Parallel: 1, Env: a.environ, LookupEnv: a.lookupEnv, Now: a.now,
		Tape: tape, Import: source.Load, Protocols: registry.Lookup})
	from := "the recording " + filepath.ToSlash(dir)
	for _, r := range out.Tests {
		c, err := a.recordedConversation(r, tape, from)
		if err != nil {
			failed = append(failed, err)
			continue
		}
		if c != nil {
			convs = append(convs, c)
		}
	}
	bless.OfferEachOther(convs, "other tests of the recording called it")
	if suite.Config.Doubles != nil {
		for _, c := range convs {
			for _, name := range suite.Config.Doubles.Names() {
				c.Offer(name, "the config serves it as a tool double")
			}
		}
	}
	if len(o.tests) > 0 {
		convs = slices.DeleteFunc(convs, func(c *bless.Conversation) bool { return !slices.Contains(o.tests, c.ID) })
	}
	return convs, suite.Config, failed, nil
}

// recordedConversation is the conversation of a replayed test: every
// attempt's trace, up to the turn where the recording stops when its
// run stopped early (at a failing turn; played on without assertions,
// the test asks for more). A test that errored otherwise gives an error;
// a skipped one nothing.
func (a *app) recordedConversation(r *engine.TestResult, tape *edgeTape, from string) (*bless.Conversation, error) {
	t := r.Test
	if r.Status == status.Skip {
		a.warn("bless", fmt.Errorf("%s is skipped (%s); left out", t.ID, r.Reason))
		return nil, nil
	}
	keep := len(t.Turns)
	for _, at := range r.Attempts {
		if at.Status != status.Error {
			continue
		}
		i := slices.IndexFunc(t.Turns, func(turn spec.Turn) bool { return turn.Pos == at.ReasonPos })
		if i < 1 || !tape.wentBeyond(t.ID, at.Run, at.Retry) {
			return nil, fmt.Errorf("%s: %s", t.ID, at.Reason)
		}
		keep = min(keep, i)
	}
	if len(r.Attempts) == 0 {
		return nil, fmt.Errorf("%s: %s", t.ID, r.Reason)
	}
	c := &bless.Conversation{ID: t.ID, Name: t.Name.Value, File: t.Path, From: from + " (test " + t.ID + ")"}
	if keep < len(t.Turns) {
		c.Turns = keep
		kept := "turn 0 alone"
		if keep > 1 {
			kept = fmt.Sprintf("turns 0 to %d", keep-1)
		}
		a.warn("bless", fmt.Errorf("note: %s: its recorded run stopped after turn %d, at a failure: the blessed test keeps %s", t.ID, keep-1, kept))
	}
	said := map[string]bool{}
	for _, at := range r.Attempts {
		if at.Trace == nil {
			continue
		}
		tr := *at.Trace
		tr.Turns = tr.Turns[:min(keep, len(tr.Turns))]
		c.Traces = append(c.Traces, &tr)
		for _, res := range at.Results {
			if res.Status == status.Fail && !said[res.ID] && inTurns(res.Scope, keep) {
				said[res.ID] = true
				a.warn("bless", fmt.Errorf("note: %s: the recorded run fails its built-in check %s (%s): the blessed test will fail it too", t.ID, res.ID, res.Message))
			}
		}
	}
	if len(c.Traces) == 0 {
		return nil, fmt.Errorf("%s: the replay kept no trace", t.ID)
	}
	for _, ct := range t.Tools {
		c.Offer(ct.Name.Value, "the test declares it as a client tool")
	}
	return c, nil
}

// inTurns reports whether a result's scope is the whole test or one of
// the first n turns.
func inTurns(scope string, n int) bool {
	var i int
	if _, err := fmt.Sscanf(scope, "turn[%d]", &i); err == nil {
		return i < n
	}
	return true
}

// withoutAssertions is the config with its target's assertions left out:
// a replay for bless judges nothing.
func withoutAssertions(cfg *spec.Config) *spec.Config {
	c := *cfg
	c.Target.Assert = nil
	return &c
}

// testWithoutAssertions is t with its own and its turns' assertions left
// out.
func testWithoutAssertions(t *spec.Test) *spec.Test {
	c := *t
	c.Assert = nil
	c.Turns = slices.Clone(t.Turns)
	for i := range c.Turns {
		c.Turns[i].Assert = nil
	}
	return &c
}
