package console_test

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/reporters/console"
	"github.com/ananke/action/reporters/internal/suitetest"
)

// TestWriteSuite: the suite fixture — a failed after_all hook, tests from
// a dataset with attachments, a failing script, an after hook that could
// not clean up — in transcript mode (ananke run -i: every test's
// conversation, then every check) and in the -v tree.
func TestWriteSuite(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts console.Options
	}{
		{"console-transcript.golden.txt", console.Options{Transcript: true}},
		{"console-suite-verbose.golden.txt", console.Options{Verbose: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			if err := console.Write(&b, suitetest.Report(), tc.opts); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			golden.Assert(t, "testdata/"+tc.name, out)
			if strings.Contains(out, suitetest.Secret) {
				t.Error("the console shows the secret")
			}
		})
	}
}

// TestFailedHooks: each failed suite hook gets a line after the tests'
// counts, at its config line, with its stderr below; a run whose tests
// all passed says so, and why it errored all the same.
func TestFailedHooks(t *testing.T) {
	passed := suitetest.Pick(suitetest.Smoke)
	for i := range passed.Hooks {
		passed.Hooks[i].Status, passed.Hooks[i].Message, passed.Hooks[i].Detail = status.Pass, "", ""
	}
	passed.Status = status.Pass
	for _, tc := range []struct {
		name    string
		r       *report.Report
		opts    console.Options
		want    []string
		notWant []string
	}{
		{"after_all failed, tests passed", suitetest.Pick(suitetest.Smoke), console.Options{}, []string{
			"Tests: 1 total, 1 passed, 0 failed, 0 errored, 0 skipped (pass rate 100.0%)\n" +
				"! ananke.config.yaml:9: after_all[0]: hook \"./cleanup.sh\" exited with status 1; stderr: boom\n" +
				"  removing tmp/orders with key ***\n" +
				"  boom\n" +
				"Agent: 820 tokens · $0.0009\n" +
				"Time:  2.1s\n",
		}, []string{"PASS", "before_all", "--fail-on-flaky"}},
		{"colour", suitetest.Pick(suitetest.Smoke), console.Options{Color: true}, []string{
			"\n\x1b[33m! ananke.config.yaml:9: after_all[0]: hook \"./cleanup.sh\" exited with status 1; stderr: boom\x1b[0m\n" +
				"  \x1b[2mremoving tmp/orders with key ***\x1b[0m\n" +
				"  \x1b[2mboom\x1b[0m\n",
		}, nil},
		{"hooks passed", passed, console.Options{}, nil, []string{"_all", "!"}},
		// Every test errored with the hook's message at its line; the
		// summary names the hook once more, after the counts, with its
		// stderr — printed there once, not under every test.
		{"before_all failed", suitetest.BeforeAllFailed(), console.Options{}, []string{
			"ERROR says hello  tests/smoke.ananke.yaml\n" +
				"  ananke.config.yaml:6:5: before_all[0]: hook \"./seed.sh\" exited with status 3; stderr: database unreachable\n\n",
			"Tests: 3 total, 0 passed, 0 failed, 3 errored, 0 skipped (pass rate 0.0%)\n" +
				"! ananke.config.yaml:6: before_all[0]: hook \"./seed.sh\" exited with status 3; stderr: database unreachable\n" +
				"  connecting to db\n  database unreachable\nTime:",
		}, []string{"after_all", "    connecting to db"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			if err := console.Write(&b, tc.r, tc.opts); err != nil {
				t.Fatal(err)
			}
			checkOutput(t, b.String(), tc.want, tc.notWant)
		})
	}
}

// TestTranscript: in transcript mode every test is printed, passing ones
// too, as its conversation in full — each message with its attachments,
// each tool call and run error, the whole reply line by line — then every
// check made of it, passed or not. -v keeps its tree.
func TestTranscript(t *testing.T) {
	result := `{"status":"ok"}`
	tt := report.Test{Name: "refund", File: "tests/refund.ananke.yaml", Line: 1, Status: status.Pass,
		Turns: []report.Turn{
			{Index: 0, Type: "agui:connect", Text: "Welcome back."},
			{Index: 1, Type: "user", User: "refund order 42",
				Attachments: []trace.Attachment{{Name: "receipt.png", MIME: "image/png", Bytes: 2150}, {Name: "\x1b[31mnote.txt", MIME: "text/plain", Bytes: 12}},
				ToolCalls:   []report.Call{{ID: "call-1", Name: "refund", Args: `{"order":42}`, Result: &result, AtMs: 40}},
				RunErrors:   []string{"upstream timeout"},
				Text:        "Done.\nYour refund of 42.00 EUR is on its way.\n"},
			{Index: 2, Type: "simulated", User: "thanks"},
		},
		Assertions: []report.Assertion{
			{ID: "turn[1].tools.require[0]", Scope: "turn[1]", Status: status.Pass, Message: "`refund` called 1 time", Source: report.Location{File: "tests/refund.ananke.yaml", Line: 9, Col: 11}},
			{ID: "test.after[0]", Scope: "test", Status: status.Error, Message: `after[0]: hook "./reset.sh" exited with status 2`, Source: report.Location{File: "tests/refund.ananke.yaml", Line: 14, Col: 5}},
		}}
	r := &report.Report{Status: status.Pass, Totals: report.Totals{Total: 1, Passed: 1, PassRate: 100}, Tests: []report.Test{tt}}
	// WARN, not PASS: a check that could not be made is not a pass.
	want := "\nWARN refund  tests/refund.ananke.yaml\n" +
		"  user: (agui:connect)\n" +
		"  agent: Welcome back.\n" +
		"  user: refund order 42 + [receipt.png (image/png, 2.1 KiB), \\x1b[31mnote.txt (text/plain, 12 B)]\n" +
		"    tool refund {\"order\":42} → {\"status\":\"ok\"}  (call call-1, +40ms)\n" +
		"    run error: upstream timeout\n" +
		"  agent: Done.\n" +
		"         Your refund of 42.00 EUR is on its way.\n" +
		"  user: thanks\n" +
		"  agent: (no text)\n" +
		"  ✓ tests/refund.ananke.yaml:9:11: `refund` called 1 time\n" +
		"  ! tests/refund.ananke.yaml:14:5: after[0]: hook \"./reset.sh\" exited with status 2\n"
	var b strings.Builder
	if err := console.Write(&b, r, console.Options{Transcript: true}); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); !strings.HasPrefix(out, want) {
		t.Errorf("transcript =\n%s\nwant it to start\n%s", out, want)
	}
	b.Reset()
	if err := console.Write(&b, r, console.Options{Transcript: true, Verbose: true}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.Contains(out, "  user: ") || !strings.Contains(out, "├─ turn[1] \"refund order 42\" + [receipt.png (image/png, 2.1 KiB), \\x1b[31mnote.txt (text/plain, 12 B)] → ") {
		t.Errorf("with -v, the transcript replaced the tree:\n%s", out)
	}
	if strings.Contains(out, "\x1b[31m") {
		t.Error("an attachment's name reached the terminal raw")
	}
}

// TestVerboseAttachments: the -v tree names the files each user message
// carried after the message, and none for a turn without any.
func TestVerboseAttachments(t *testing.T) {
	var b strings.Builder
	if err := console.Write(&b, suitetest.Report(), console.Options{Verbose: true}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, w := range []string{
		"  ├─ turn[0] \"What is the total on this receipt?\" + [receipt.png (image/png, 2.1 KiB)] → \"The total is 12.00 EUR.\"\n",
		"  └─ turn[0] \"Book this invoice\" + [invoice.pdf (application/pdf, 47.8 KiB), notes.txt (text/plain, 312 B)] → (no text)\n",
		"  └─ turn[0] \"hi\" → \"Hello!\"\n",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
}

// TestRunBudgetLines: each bound of the run's budget gets a line after
// the counts and what the agent spent — exceeded, not checked, kept — and a run that failed on
// its budget alone is not said to have failed on flaky tests.
func TestRunBudgetLines(t *testing.T) {
	r := suitetest.Pick(suitetest.Smoke)
	r.Hooks = nil
	r.Status = status.Fail
	r.Budget = &report.RunBudget{Status: status.Fail, Exceeded: true, Limits: []report.BudgetLimit{
		{Name: report.BudgetTokens, Status: status.Fail, Message: "run budget exceeded: 2.1M total tokens > max_total_tokens 2M (ananke.config.yaml:9:3)"},
		{Name: report.BudgetCost, Status: status.Skip, Message: "run budget not checked: model m has no price (add it under pricing: in the config) — max_cost_usd $5.00 (ananke.config.yaml:8:3)"},
	}}
	var b strings.Builder
	if err := console.Write(&b, r, console.Options{}); err != nil {
		t.Fatal(err)
	}
	want := "(pass rate 100.0%)\n" +
		"Agent: 820 tokens · $0.0009\n" +
		"✗ run budget exceeded: 2.1M total tokens > max_total_tokens 2M (ananke.config.yaml:9:3)\n" +
		"⚠ run budget not checked: model m has no price (add it under pricing: in the config) — max_cost_usd $5.00 (ananke.config.yaml:8:3)\n" +
		"Time:"
	if out := b.String(); !strings.Contains(out, want) || strings.Contains(out, "--fail-on-flaky") {
		t.Errorf("output:\n%s\nwant it to hold:\n%s", out, want)
	}
	r.Status, r.Budget = status.Pass, &report.RunBudget{Status: status.Pass, Limits: []report.BudgetLimit{
		{Name: report.BudgetCost, Status: status.Pass, Message: "run budget kept: $0.50 ≤ max_cost_usd $1.00 (ananke.config.yaml:8:3)"}}}
	b.Reset()
	if err := console.Write(&b, r, console.Options{Color: true}); err != nil {
		t.Fatal(err)
	}
	if want := "\x1b[2m✓ run budget kept: $0.50 ≤ max_cost_usd $1.00 (ananke.config.yaml:8:3)\x1b[0m\n"; !strings.Contains(b.String(), want) {
		t.Errorf("output:\n%q\nwant it to hold %q", b.String(), want)
	}
}
