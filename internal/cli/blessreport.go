package cli

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/ananke/action/internal/bless"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/reporters/reportdir"
)

// blessReport reads the tests of the report in dir (those --test names):
// each test's shown attempt — the one its report shows, a failed test's
// first failing one — its turns as its test file wrote them when the
// file is still where the run found it, else rebuilt from the trace.
func (a *app) blessReport(o blessOptions, dir string) ([]*bless.Conversation, error) {
	r, err := reportdir.Read(dir)
	if err != nil {
		return nil, err
	}
	for _, id := range o.tests {
		if !slices.ContainsFunc(r.Tests, func(t report.Test) bool { return t.ID == id }) {
			return nil, fmt.Errorf("--test %s: the report has no such test", id)
		}
	}
	var convs []*bless.Conversation
	from := "the report " + filepath.ToSlash(dir)
	for i := range r.Tests {
		t := &r.Tests[i]
		if t.Trace == nil {
			a.warn("bless", fmt.Errorf("%s never ran (%s); left out", t.ID, t.Status))
			continue
		}
		tr := *t.Trace
		tr.Turns = slices.Clone(tr.Turns)
		for k := range tr.Turns {
			// A trace file keeps an AG-UI turn's text in its events only;
			// the report has it whole (up to its cap).
			if k < len(t.Turns) && len(tr.Turns[k].Texts) == 0 && t.Turns[k].Text != "" {
				tr.Turns[k].Texts = []string{t.Turns[k].Text}
			}
		}
		c := &bless.Conversation{ID: t.ID, Name: t.Name, From: from + " (test " + t.ID + ")", Traces: []*trace.Trace{&tr}}
		// A dynamic test's turns are in its trace, not its file.
		simulated := slices.ContainsFunc(tr.Turns, func(turn trace.Turn) bool { return turn.Kind == trace.KindSimulated })
		if t.Line == 1 && spec.IsTestFile(t.File) && isFile(t.File) && !simulated {
			c.File = t.File
		}
		c.OfferDeclared()
		convs = append(convs, c)
	}
	bless.OfferEachOther(convs, "other tests of the report called it")
	if len(o.tests) > 0 {
		convs = slices.DeleteFunc(convs, func(c *bless.Conversation) bool { return !slices.Contains(o.tests, c.ID) })
	}
	return convs, nil
}
