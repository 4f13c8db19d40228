package markdown_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/reporters/markdown"
)

// FuzzRender puts arbitrary strings where agents, hooks (a test's and the
// suite's) and test authors write, attachments' names included: whatever they are, Render does not panic, stays within budget,
// closes every fence and block, and leaves nothing live outside code.
func FuzzRender(f *testing.F) {
	f.Add("checkout", "turn text", "`search` called", "detail", 0)
	f.Add(hostile, hostile, hostile, hostile, 1500)
	f.Add("``````", "```\n~~~", "`a``b`", "</details>", 65000)
	f.Add("\x1b[31m", "\xff\xfe", "@a #1 [x](y)", "\r\n\r", 300)
	f.Fuzz(func(t *testing.T, name, agent, msg, detail string, budget int) {
		budget = max(budget, 0) % 20000
		r := reporttest.Report()
		for i := range r.Tests {
			tt := &r.Tests[i]
			tt.Name, tt.Reason, tt.Detail = name, msg, detail
			for j := range tt.Turns {
				tt.Turns[j].User = agent
				tt.Turns[j].Attachments = []trace.Attachment{{Name: agent, MIME: name, Bytes: len(detail)}}
			}
			for j := range tt.Assertions {
				scribble(&tt.Assertions[j], name, agent, msg, detail)
			}
			for j := range tt.Attempts {
				at := &tt.Attempts[j]
				at.Reason = detail
				for k := range at.Failed {
					scribble(&at.Failed[k], name, agent, msg, detail)
				}
			}
		}
		r.Tests = append(r.Tests, r.Tests[:2]...) // more than three failing tests
		r.Hooks = []report.Hook{{Phase: "after_all", Source: report.Location{File: name, Line: 9}, Status: status.Error, Message: msg, Detail: detail}}
		out := markdown.Render(r, markdown.Options{Budget: budget, Marker: "<!-- m -->"})
		if budget > 0 && len(out) > budget {
			t.Fatalf("len(out) = %d; want ≤ %d", len(out), budget)
		}
		if !utf8.ValidString(out) {
			t.Fatal("invalid UTF-8")
		}
		// Below ~300 bytes even the heading and totals are cut; from there
		// on, only whole pieces are added.
		if budget == 0 || strings.Contains(out, "|--:|\n| ") {
			checkStructure(t, out)
			checkInert(t, out, "")
			for _, row := range tableRows(out) {
				if n, want := cells(row), wantCells(r); n != want {
					t.Errorf("row has %d cells; want %d: %s", n, want, row)
				}
			}
		}
	})
}

// scribble writes the fuzzer's strings into an assertion and its evidence;
// the id is the same in a test and its attempts, so FirstFailure finds it.
func scribble(a *report.Assertion, name, agent, msg, detail string) {
	a.Message, a.Expected, a.Observed, a.ID = msg, agent, msg, name
	for k := range a.Evidence {
		e := &a.Evidence[k]
		e.Note = name
		if e.Text != "" {
			e.Text = agent
		}
		if e.Call != nil {
			c := *e.Call
			c.Args, c.Name = agent, name
			c.Result = &detail
			e.Call = &c
		}
	}
}
