package junit_test

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/reporters/internal/suitetest"
)

// checkCounts fails when a suite's tests, failures, errors or skipped
// attribute is not what its testcases hold, or the root's is not their
// sum: GitLab and Jenkins show the attributes.
func checkCounts(t *testing.T, p parsed) {
	t.Helper()
	var tests, failures, errors int
	for _, s := range p.Suites {
		var f, e, sk int
		for _, c := range s.Cases {
			switch {
			case c.Failure != nil:
				f++
			case c.Error != nil:
				e++
			case c.Skipped != nil:
				sk++
			}
		}
		if s.Tests != len(s.Cases) || s.Failures != f || s.Errors != e || s.Skipped != sk {
			t.Errorf("suite %s says tests=%d failures=%d errors=%d skipped=%d; holds %d, %d, %d, %d",
				s.Name, s.Tests, s.Failures, s.Errors, s.Skipped, len(s.Cases), f, e, sk)
		}
		tests, failures, errors = tests+len(s.Cases), failures+f, errors+e
	}
	if p.Tests != tests || p.Failures != failures || p.Errors != errors {
		t.Errorf("testsuites says tests=%d failures=%d errors=%d; suites hold %d, %d, %d", p.Tests, p.Failures, p.Errors, tests, failures, errors)
	}
}

// TestSuiteHooks: the suite hooks are a testsuite of their own, first,
// named after the config; a failed hook is an <error type="hook"> with
// its position, message and stderr, so a run errored by an after_all hook
// alone still shows an error; tests from a dataset share its suite, and an
// errored one without a cause's position is at its line; the transcript
// names the files a message carried; a check that could not be made
// follows a failed test's failures.
func TestSuiteHooks(t *testing.T) {
	out := render(t, suitetest.Report())
	golden.Assert(t, "testdata/junit-suite.golden.xml", string(out))
	validate(t, out)
	if strings.Contains(string(out), suitetest.Secret) {
		t.Error("the output holds the secret")
	}
	p := parse(t, out)
	checkCounts(t, p)
	if len(p.Suites) != 3 {
		t.Fatalf("%d suites; want the hooks', the dataset's and the test file's", len(p.Suites))
	}
	hooks := p.Suites[0]
	if hooks.Name != "ananke.config.yaml" || hooks.File != "ananke.config.yaml" || len(hooks.Cases) != 2 {
		t.Fatalf("first suite %s (file %s) with %d cases; want ananke.config.yaml with before_all[0] and after_all[0]", hooks.Name, hooks.File, len(hooks.Cases))
	}
	before, after := hooks.Cases[0], hooks.Cases[1]
	if before.Name != "before_all[0]" || before.Classname != "ananke.config.yaml" || before.Error != nil {
		t.Errorf("first hook case %+v; want a passing before_all[0]", before)
	}
	if after.Name != "after_all[0]" || after.Error == nil || after.Error.Type != "hook" ||
		after.Error.Message != `after_all[0]: hook "./cleanup.sh" exited with status 1; stderr: boom` ||
		!strings.HasPrefix(after.Error.Text, "ananke.config.yaml:9:5: after_all[0]: hook") || !strings.HasSuffix(after.Error.Text, "\n\nremoving tmp/orders with key ***\nboom\n") {
		t.Errorf("after_all case %+v; want an error at ananke.config.yaml:9:5 with the stderr", after)
	}
	dataset := p.Suites[1]
	if dataset.Name != suitetest.Dataset || len(dataset.Cases) != 2 {
		t.Fatalf("second suite %s with %d cases; want the dataset's two tests", dataset.Name, len(dataset.Cases))
	}
	receipt, invoice := dataset.Cases[0], dataset.Cases[1]
	if receipt.Out == nil || !strings.HasPrefix(*receipt.Out, "usage: 5.5k tokens · $0.013\n\nturn[0] user: What is the total on this receipt? + receipt.png (image/png, 2.1 KiB)\n") {
		t.Errorf("receipt transcript: %v", receipt.Out)
	}
	if invoice.Out == nil || !strings.HasPrefix(*invoice.Out, "usage: 4.1k tokens · $0.012\n\nturn[0] user: Book this invoice + invoice.pdf (application/pdf, 47.8 KiB), notes.txt (text/plain, 312 B)\n") {
		t.Errorf("invoice transcript: %v", invoice.Out)
	}
	if invoice.Error == nil || !strings.HasPrefix(invoice.Error.Text, "tests/receipts.ananke.jsonl:4: turn[0]: the agent sent nothing") {
		t.Errorf("invoice error %+v; want it at the dataset's line 4", invoice.Error)
	}
}

// TestHookCounts: whatever the hooks did, the counts add up, and a hook
// that failed is an error GitLab and Jenkins count.
func TestHookCounts(t *testing.T) {
	for _, tc := range []struct {
		name             string
		r                *report.Report
		tests, errors    int
		firstSuiteErrors int
	}{
		// Every test passed; the after_all hook's error is the run's.
		{"after_all failed", suitetest.Pick(suitetest.Smoke), 3, 1, 1},
		// No test ran: each errored, and so did the hook.
		{"before_all failed", suitetest.BeforeAllFailed(), 5, 4, 1},
		{"no hooks", reporttest.Report(), 6, 1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := render(t, tc.r)
			validate(t, out)
			p := parse(t, out)
			checkCounts(t, p)
			if p.Tests != tc.tests || p.Errors != tc.errors || p.Suites[0].Errors != tc.firstSuiteErrors {
				t.Errorf("tests=%d errors=%d, first suite errors=%d; want %d, %d, %d", p.Tests, p.Errors, p.Suites[0].Errors, tc.tests, tc.errors, tc.firstSuiteErrors)
			}
		})
	}
}

// TestHookHostileText: control characters and the CDATA terminator in a
// hook's message, stderr and file, and in an attachment's name and type,
// still produce a valid file.
func TestHookHostileText(t *testing.T) {
	const nasty = "\x1b[31m ]]> <![CDATA[ &amp; \"'<>\ufffe\xff\x00"
	r := suitetest.Report()
	r.Hooks[1].Message, r.Hooks[1].Detail, r.Hooks[1].Source.File = nasty, nasty, nasty
	r.Hooks[0].Phase = nasty
	r.Tests[suitetest.Receipt].Turns[0].Attachments = []trace.Attachment{{Name: nasty, MIME: nasty, Bytes: 1}}
	validate(t, render(t, r))
}
