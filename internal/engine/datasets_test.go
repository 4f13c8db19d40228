package engine_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ananke/action/internal/agui/aguitest"
	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/target/registry"
)

// suiteFiles writes a config (pointing at endpoint, plus extraConfig) and
// the files given, verbatim, into a temp dir, and loads the suite.
func suiteFiles(t *testing.T, endpoint, extraConfig string, files map[string]string) (*spec.Suite, string) {
	t.Helper()
	dir := t.TempDir()
	files["ananke.config.yaml"] = "version: \"1.0\"\ntarget:\n  type: agui\n  endpoint: \"" + endpoint + "\"\n  agentId: test\n  timeout_ms: " + strconv.Itoa(answerTimeoutMs) + "\n" + extraConfig
	for name, body := range files {
		mode := os.FileMode(0o644)
		if strings.HasSuffix(name, ".sh") {
			mode = 0o755
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), mode); err != nil {
			t.Fatal(err)
		}
	}
	s, err := spec.Load(spec.Options{ConfigPath: filepath.Join(dir, "ananke.config.yaml")})
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	return s, dir
}

// record is a hook that writes its stdin to the file named by its first
// argument.
const record = "#!/bin/sh\ncat > \"$1\"\n"

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the hook did not run: %v", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v\n%s", path, err, b)
	}
}

// attemptSeen is what an after hook reads.
type attemptSeen struct {
	Schema string `json:"schema"`
	Test   struct {
		ID   string `json:"id"`
		Line int    `json:"line"`
	} `json:"test"`
	Run        int    `json:"run"`
	Status     string `json:"status"`
	Reason     string `json:"reason"`
	Text       string `json:"text"`
	Assertions []struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	} `json:"assertions"`
}

func TestAfterHooks(t *testing.T) {
	srv := aguitest.New(t, textAgent)
	tests := []struct {
		name       string
		body       string
		wantStatus status.Status
		wantSeen   string // the status the after hook read
		wantReason string
	}{
		{"a pass stays a pass", `turns: [{user: "hi"}]
after: [{cmd: [./record.sh, seen.json]}]`, status.Pass, "pass", ""},
		{"the hook sees the failure", `turns: [{user: "hi", assert: {text: {contains: "bye"}}}]
after: [{cmd: [./record.sh, seen.json]}]`, status.Fail, "fail", ""},
		{"a failing hook turns a pass into an error", `turns: [{user: "hi"}]
after: [{cmd: [./record.sh, seen.json]}, {cmd: [./fail.sh]}]`, status.Error, "pass", `after[1]: hook "./fail.sh" exited with status 3; stderr: cleanup broke`},
		{"a failing hook leaves a failure a failure", `turns: [{user: "hi", assert: {text: {contains: "bye"}}}]
after: [{cmd: [./fail.sh]}, {cmd: [./record.sh, seen.json]}]`, status.Fail, "fail", ""},
		{"after hooks run when a before hook failed, with its variables", `hooks: [{cmd: [./vars.sh]}, {cmd: [./fail.sh]}]
turns: [{user: "hi"}]
after: [{cmd: [./record.sh, "seen-${ID}.json"]}]`, status.Error, "error", `hooks[1]: hook "./fail.sh" exited with status 3`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, dir := suiteFiles(t, srv.Endpoint(), "", map[string]string{
				"record.sh": record, "fail.sh": "#!/bin/sh\necho cleanup broke >&2\nexit 3\n", "vars.sh": "#!/bin/sh\necho '{\"ID\": \"u7\"}'\n",
				"t.ananke.yaml": "version: \"1.0\"\nname: t\n" + tt.body + "\n",
			})
			r := one(t, run(t, s))
			if r.Status != tt.wantStatus || !strings.HasPrefix(r.Reason, tt.wantReason) {
				t.Fatalf("status %s (%s), want %s (%s)", r.Status, r.Reason, tt.wantStatus, tt.wantReason)
			}
			seen := filepath.Join(dir, "seen.json")
			if strings.Contains(tt.body, "seen-${ID}") {
				seen = filepath.Join(dir, "seen-u7.json")
			}
			var got attemptSeen
			readJSON(t, seen, &got)
			if got.Schema != "ananke.attempt/v1" || got.Test.ID != "t" || got.Test.Line != 1 || got.Run != 1 || got.Status != tt.wantSeen {
				t.Fatalf("the hook read %+v", got)
			}
			if tt.wantSeen == "fail" && (len(got.Assertions) == 0 || !hasStatus(got.Assertions, "turn[0].text.contains[0]", "fail")) {
				t.Errorf("the hook did not see the failing assertion: %+v", got.Assertions)
			}
			if tt.wantSeen != "error" && got.Text != "you said: hi" {
				t.Errorf("text = %q", got.Text)
			}
			// A failed after hook is an error result beside the agent's
			// checks, never a silent change.
			for _, res := range r.Shown().Results {
				if res.Kind == assertion.KindAfterHook && res.Status == status.Error && !strings.Contains(res.Message, "exited with status 3") {
					t.Errorf("after hook result: %+v", res)
				}
			}
		})
	}
}

func hasStatus(as []struct {
	ID     string `json:"id"`
	Status string `json:"status"`
}, id, status string) bool {
	for _, a := range as {
		if a.ID == id && a.Status == status {
			return true
		}
	}
	return false
}

// outcomeSeen is what an after_all hook reads.
type outcomeSeen struct {
	Schema string         `json:"schema"`
	Status string         `json:"status"`
	Totals map[string]int `json:"totals"`
	Tests  []struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	} `json:"tests"`
}

func TestSuiteHooks(t *testing.T) {
	srv := aguitest.New(t, textAgent)
	files := func() map[string]string {
		return map[string]string{
			"record.sh": record, "fail.sh": "#!/bin/sh\necho no database >&2\nexit 1\n",
			"token.sh":       "#!/bin/sh\ncat > suite.json\necho '{\"TOKEN\": \"t-42\"}'\n",
			"a.ananke.yaml":  "version: \"1.0\"\nname: a\nturns: [{user: \"token ${TOKEN}\", assert: {text: {contains: \"t-42\"}}}]\n",
			"d.ananke.jsonl": `{"id": "c1", "input": "also ${TOKEN}", "assertions": [{"type": "contains", "value": "also t-42"}]}` + "\n",
		}
	}
	t.Run("before_all variables reach every test; after_all reads the outcome", func(t *testing.T) {
		s, dir := suiteFiles(t, srv.Endpoint(), "before_all: [{cmd: [./token.sh]}]\nafter_all: [{cmd: [./record.sh, \"out-${TOKEN}.json\"]}]\n", files())
		out := engine.Run(context.Background(), engine.Options{Protocols: registry.Lookup, Suite: s, NewID: ids(), Env: os.Environ(), LookupEnv: os.LookupEnv})
		for _, r := range out.Tests {
			if r.Status != status.Pass {
				t.Errorf("%s: %s %s %q", r.Test.ID, r.Status, r.Reason, failed(r))
			}
		}
		if len(out.Hooks) != 2 || out.HookFailed() || out.Hooks[0].Phase != engine.BeforeAll || out.Hooks[1].Phase != engine.AfterAll {
			t.Fatalf("hooks = %+v", out.Hooks)
		}
		var suiteIn struct {
			Schema string `json:"schema"`
			Tests  []struct {
				ID string `json:"id"`
			} `json:"tests"`
		}
		readJSON(t, filepath.Join(dir, "suite.json"), &suiteIn)
		if suiteIn.Schema != "ananke.suite/v1" || len(suiteIn.Tests) != 2 {
			t.Errorf("before_all read %+v", suiteIn)
		}
		var got outcomeSeen
		readJSON(t, filepath.Join(dir, "out-t-42.json"), &got)
		if got.Schema != "ananke.outcome/v1" || got.Status != "pass" || got.Totals["pass"] != 2 || len(got.Tests) != 2 {
			t.Errorf("after_all read %+v", got)
		}
	})
	t.Run("a failing before_all runs no test and still runs after_all", func(t *testing.T) {
		s, dir := suiteFiles(t, srv.Endpoint(), "before_all: [{cmd: [./fail.sh]}, {cmd: [./token.sh]}]\nafter_all: [{cmd: [./record.sh, out.json]}]\n", files())
		before := len(srv.Requests())
		out := engine.Run(context.Background(), engine.Options{Protocols: registry.Lookup, Suite: s, NewID: ids(), Env: os.Environ(), LookupEnv: os.LookupEnv})
		for _, r := range out.Tests {
			if r.Status != status.Error || !strings.HasPrefix(r.Reason, `before_all[0]: hook "./fail.sh" exited with status 1`) || !r.ReasonPos.IsValid() {
				t.Errorf("%s: %s %q at %v", r.Test.ID, r.Status, r.Reason, r.ReasonPos)
			}
		}
		if len(srv.Requests()) != before {
			t.Error("a test ran after before_all failed")
		}
		if len(out.Hooks) != 2 || out.Hooks[0].Error == "" || out.Hooks[0].Detail != "no database" || out.Hooks[1].Phase != engine.AfterAll {
			t.Fatalf("hooks = %+v", out.Hooks)
		}
		var got outcomeSeen
		readJSON(t, filepath.Join(dir, "out.json"), &got)
		if got.Status != "error" || got.Totals["error"] != 2 {
			t.Errorf("after_all read %+v", got)
		}
	})
	t.Run("a failing after_all is reported", func(t *testing.T) {
		s, _ := suiteFiles(t, srv.Endpoint(), "before_all: [{cmd: [./token.sh]}]\nafter_all: [{cmd: [./fail.sh]}]\n", files())
		out := engine.Run(context.Background(), engine.Options{Protocols: registry.Lookup, Suite: s, NewID: ids(), Env: os.Environ(), LookupEnv: os.LookupEnv})
		if !out.HookFailed() || out.Tests[0].Status != status.Pass || !strings.HasPrefix(out.Hooks[1].Error, "after_all[0]: ") {
			t.Fatalf("hooks = %+v, first test %s", out.Hooks, out.Tests[0].Status)
		}
	})
}

func TestScriptChecks(t *testing.T) {
	srv := aguitest.New(t, func(r *aguitest.Request) aguitest.Response {
		return aguitest.Response{Events: aguitest.Run(r.Input, aguitest.Seq(
			aguitest.Call("c1", "create_expense", `{"amount":3500}`, `{"id":"EXP-1"}`),
			aguitest.Text("a1", "Submitted EXP-1."))...)}
	})
	// has.sh passes when stdin holds its argument, fails (printing why)
	// otherwise.
	has := "#!/bin/sh\nif grep -q \"$1\"; then exit 0; fi\necho \"no $1 in the transcript\"\nexit 1\n"
	tests := []struct {
		name, assert string
		want         status.Status
		wantMsg      string
	}{
		{"turn script passes", `turns: [{user: "submit", assert: {script: {cmd: [./has.sh, create_expense]}}}]`, status.Pass, ""},
		{"turn script fails the test", `turns: [{user: "submit", assert: {script: {cmd: [./has.sh, delete_expense]}}}]`, status.Fail, "no delete_expense in the transcript"},
		{"test script over the whole test", `turns: [{user: "submit"}, {user: "again"}]
assert: {script: [{cmd: [./has.sh, '"scope":"test"']}, {cmd: [./has.sh, EXP-1]}]}`, status.Pass, ""},
		{"a crashing script is an error", `turns: [{user: "submit", assert: {script: {cmd: [./crash.sh]}}}]`, status.Error, "exited with status 2"},
		{"a warning script does not fail", `turns: [{user: "submit", assert: {script: {cmd: [./has.sh, nothing], severity: warning}}}]`, status.Pass, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := suiteFiles(t, srv.Endpoint(), "", map[string]string{"has.sh": has, "crash.sh": "#!/bin/sh\nexit 2\n",
				"t.ananke.yaml": "version: \"1.0\"\nname: t\n" + tt.assert + "\n"})
			r := one(t, run(t, s))
			if r.Status != tt.want {
				t.Fatalf("status %s (%s); failures %q", r.Status, r.Reason, failed(r))
			}
			msgs := strings.Join(append(failed(r), r.Reason), "\n")
			if !strings.Contains(msgs, tt.wantMsg) {
				t.Errorf("messages %q, want %q", msgs, tt.wantMsg)
			}
			n := 0
			for _, res := range r.Shown().Results {
				if res.Kind == assertion.KindScript {
					n++
				}
			}
			if n == 0 {
				t.Error("no script result")
			}
		})
	}
}

// TestAttachmentsSent: a dataset case's attachments reach the agent as
// AG-UI content parts, its history before them, its options in
// forwardedProps over the target's; the trace names the files.
func TestAttachmentsSent(t *testing.T) {
	srv := aguitest.New(t, textAgent)
	for _, tt := range []struct {
		name, protocol, wantPart string
	}{
		{"1.0 content parts", "", `{"type":"document","source":{"type":"data","value":"VG90YWw6ICQ4NS41MA==","mimeType":"text/plain"},"metadata":{"filename":"receipt.txt"}}`},
		{"0.x binary parts", "  protocol_version: \"0.0\"\n", `{"type":"binary","mimeType":"text/plain","data":"VG90YWw6ICQ4NS41MA==","filename":"receipt.txt"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := suiteFiles(t, srv.Endpoint(), tt.protocol+"  forwardedProps: {keep: 1, mode: slow}\n", map[string]string{
				"receipt.txt": "Total: $85.50",
				"d.ananke.jsonl": `{"id": "r", "options": {"mode": "fast"}, "input": [{"role": "user", "content": "Hello"}, {"role": "assistant", "content": "Hi"}, ` +
					`{"role": "user", "content": [{"type": "text", "text": "Read this"}, {"type": "file", "source": "file://receipt.txt"}]}]}` + "\n",
			})
			before := len(srv.Requests())
			r := one(t, run(t, s))
			if r.Status != status.Pass {
				t.Fatalf("status %s %s", r.Status, r.Reason)
			}
			req := srv.Requests()[before]
			msgs := req.Input.Messages
			if len(msgs) != 3 || msgs[0].Role != "user" || msgs[1].Role != "assistant" {
				t.Fatalf("messages = %+v", msgs)
			}
			want := `[{"type":"text","text":"Read this"},` + tt.wantPart + `]`
			if got := string(msgs[2].Content); got != want {
				t.Errorf("content\n got %s\nwant %s", got, want)
			}
			if got := string(req.Input.ForwardedProps); got != `{"keep":1,"mode":"fast"}` {
				t.Errorf("forwardedProps = %s", got)
			}
			turn := r.Shown().Trace.Turns[0]
			if turn.UserText != "Read this" || len(turn.Attachments) != 1 || turn.Attachments[0].Name != "receipt.txt" || turn.Attachments[0].Bytes != 13 {
				t.Errorf("trace turn = %q %+v", turn.UserText, turn.Attachments)
			}
		})
	}
}
