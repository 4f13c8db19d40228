package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ananke/action/internal/golden"
	"github.com/ananke/action/internal/status"
)

// expect is what one test of examples/assertions must report: exactly these
// failing (critical) and warning assertions, by id, each with a message
// containing the text given, and these failure categories.
type expect struct {
	status     status.Status
	fails      map[string]string
	warns      map[string]string
	categories []string
}

// assertionsRecording is examples/assertions recorded against the example
// agent (docs/replay.md). TestAssertionLanguage replays it, so its timing
// assertions are judged on the recorded times exactly — the slow starts
// over their limits, the others within theirs — on any machine, however
// busy. `go test ./internal/cli -run TestAssertionLanguage -update` records
// it anew, live (on a quiet machine: the run must meet the limits).
var assertionsRecording = filepath.Join(repoRoot(), "internal", "cli", "testdata", "assertions-recording")

// TestAssertionLanguage replays examples/assertions as recorded against
// the example agent: every kind of the language passes in pass/ (a
// warning-only test passes, and so does the run) and fails in fail/ with
// the message a reader needs.
func TestAssertionLanguage(t *testing.T) {
	if golden.Updating() {
		os.RemoveAll(assertionsRecording)
		r := runClock(context.Background(), t, copySuite(t, "assertions"), nil, time.Now,
			"run", "--parallel", "4", "--record", assertionsRecording, "--report-dir", t.TempDir(), "pass", "fail")
		if r.code != ExitFail {
			t.Fatalf("recording: exit %d, want 1\n%s%s", r.code, r.out, r.errOut)
		}
	}
	dir := filepath.Join(repoRoot(), "examples", "assertions")
	for _, tc := range []struct {
		path  string
		exit  int
		tests map[string]expect
	}{
		{"pass", ExitPass, map[string]expect{
			"pass/purchase":   {status: "pass"},
			"pass/weather":    {status: "pass"},
			"pass/order-json": {status: "pass"},
			"pass/links":      {status: "pass"},
			"pass/warnings": {status: "pass", warns: map[string]string{
				"turn[0].grounded":         `appears in no tool result, tool argument, user message or history: "24" (char 38)`,
				"turn[0].tools.require[0]": "expected `get_weather` at least 1 time, saw 0"}},
		}},
		{"fail", ExitFail, map[string]expect{
			"fail/process": {status: "fail", categories: []string{"process"}, fails: map[string]string{
				"turn[0].tools.order":              "`validate_cart` (call ",
				"turn[0].tools.max_calls":          "turn[0] made 3 tool calls, over the limit of 2",
				"turn[0].tools.stop_after_success": "`validate_cart` succeeded (call ",
				"turn[0].tools.require[0]":         "over max_duration_ms 100"}},
			"fail/text": {status: "fail", categories: []string{"outcome"}, fails: map[string]string{
				"turn[0].text.contains[0]": `does not contain "refund"`,
				"turn[0].text.omits[0]":    `contains "paris", which it must omit`,
				"turn[0].text.equals":      `expected "It is sunny."`}},
			"fail/case": {status: "fail", fails: map[string]string{
				"turn[0].text.contains[0]": `does not contain "LONDON" (case-sensitive)`}},
			"fail/json": {status: "fail", categories: []string{"format"}, fails: map[string]string{
				"turn[0].text.json_schema":  "does not validate against ../schemas/refund.json: at the root: missing properties 'refund_id', 'amount'",
				"turn[0].text.json_path[0]": `$.status is "shipped", expected "delivered"`,
				"turn[0].text.json_path[1]": "an array, expected an object",
				"turn[0].text.json_path[2]": "$.refund_id selects nothing"}},
			"fail/not-json": {status: "fail", fails: map[string]string{
				"turn[0].text.json_schema": "is not JSON"}},
			"fail/grounded": {status: "fail", categories: []string{"groundedness"}, fails: map[string]string{
				"turn[0].grounded": `"24" (char 38)`}},
			"fail/links": {status: "fail", fails: map[string]string{
				"turn[0].grounded": "https://help.example.com/faq"}},
			"fail/state": {status: "fail", categories: []string{"state"}, fails: map[string]string{
				"turn[0].state[0]": "state /order/status is \"paid\", which does not match `^refunded$`",
				"turn[0].state[1]": "state /cart/total is 89.5, expected 90",
				"turn[0].state[2]": "state /receipt is missing",
				"turn[0].state[3]": "state /turns is 1, expected nothing there"}},
			"fail/first-event": {status: "fail", categories: []string{"timing"}, fails: map[string]string{
				"turn[0].timing.max_first_event_ms": "over the limit of 150 ms"}},
			"fail/first-text": {status: "fail", categories: []string{"timing"}, fails: map[string]string{
				"turn[0].timing.max_first_text_ms": "over the limit of 150 ms"}},
			"fail/severities": {status: "fail", categories: []string{"outcome"},
				fails: map[string]string{"turn[0].text.contains[0]": `does not contain "get_weather"`},
				warns: map[string]string{"turn[0].tools.require[0]": "was never called"}},
		}},
	} {
		t.Run(tc.path, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "report")
			r := run(t, dir, nil, "run", "--replay", assertionsRecording, "--parallel", "4", "--report-dir", out, tc.path)
			if r.code != tc.exit {
				t.Fatalf("exit %d, want %d\n%s%s", r.code, tc.exit, r.out, r.errOut)
			}
			checkExpectations(t, out, tc.tests)
			if tc.path == "fail" {
				// A check brought in by extends points at the config's line.
				if b, _ := os.ReadFile(filepath.Join(out, "tests", "fail_grounded.result.json")); !strings.Contains(string(b), `"file": "ananke.config.yaml"`) {
					t.Errorf("the extended grounded check is not sourced in the config:\n%s", b)
				}
			}
			validateReportFiles(t, out)
			if t.Failed() {
				t.Logf("output:\n%s", r.out)
			}
		})
	}
}

func checkExpectations(t *testing.T, dir string, want map[string]expect) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Tests []struct {
			ID, Status        string
			FailureCategories []string `json:"failure_categories"`
			Assertions        []struct {
				ID, Status, Message, Severity string
			}
		}
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	if len(s.Tests) != len(want) {
		t.Errorf("%d tests, want %d", len(s.Tests), len(want))
	}
	for _, got := range s.Tests {
		w, ok := want[got.ID]
		if !ok {
			t.Errorf("unexpected test %s", got.ID)
			continue
		}
		if status.Status(got.Status) != w.status {
			t.Errorf("%s: status %s, want %s", got.ID, got.Status, w.status)
		}
		if w.categories != nil && !slices.Equal(got.FailureCategories, w.categories) {
			t.Errorf("%s: categories %q, want %q", got.ID, got.FailureCategories, w.categories)
		}
		have := map[string]map[string]string{"fail": {}, "warn": {}}
		for _, a := range got.Assertions {
			if m := have[a.Status]; m != nil {
				m[a.ID] = a.Message
			}
			if a.Status == "warn" && a.Severity != "warning" {
				t.Errorf("%s: %s is warn with severity %s", got.ID, a.ID, a.Severity)
			}
		}
		for status, exp := range map[string]map[string]string{"fail": w.fails, "warn": w.warns} {
			for id, msg := range exp {
				if !strings.Contains(have[status][id], msg) {
					t.Errorf("%s: %s %s = %q, want it to contain %q", got.ID, id, status, have[status][id], msg)
				}
			}
			for id, msg := range have[status] {
				if _, ok := exp[id]; !ok {
					t.Errorf("%s: %s is %s unexpectedly: %s", got.ID, id, status, msg)
				}
			}
		}
	}
}
