package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/agui/aguitest"
	"github.com/ananke/action/internal/model/modeltest"
)

const modelKey = "sk-cli-test-0123456789abcdef"

// modelSuite writes a suite whose config points the model at endpoint.
func modelSuite(t *testing.T, agent, endpoint, test string) string {
	t.Helper()
	dir := t.TempDir()
	// The model answers or fails at once: its 2 min only a hang meets.
	cfg := "version: \"1.0\"\ntarget: {type: agui, endpoint: \"" + agent + "\", agentId: a}\n" +
		"model: {endpoint: \"" + endpoint + "\", name: m, api_key: \"${ENV.CLI_MODEL_KEY}\", timeout_ms: 120000, cache: false}\n"
	for name, body := range map[string]string{"ananke.config.yaml": cfg, "t.ananke.yaml": "version: \"1.0\"\nname: t\n" + test} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestModelFaults: a judge whose model fails errors the test (exit 2) with
// what happened, never a pass, and the key is in no output.
func TestModelFaults(t *testing.T) {
	agent := aguitest.New(t, func(r *aguitest.Request) aguitest.Response {
		return aguitest.Response{Events: aguitest.Run(r.Input, aguitest.Text("m", "Hello.")...)}
	})
	test := "turns: [{user: hi, assert: {judge: {criteria: [polite], severity: critical}}}]\n"
	down := modeltest.New(t)
	downURL := down.URL
	down.Close()
	for _, tc := range []struct {
		name     string
		endpoint func(t *testing.T) string
		want     string
	}{
		{"unreachable", func(*testing.T) string { return downURL }, "unreachable"},
		{"401", func(t *testing.T) string { return modeltest.New(t, modeltest.EchoAuth(401)).URL }, "401 unauthorized: check model.api_key"},
		{"malformed", func(t *testing.T) string { return modeltest.New(t, modeltest.Answer("I think it is polite.")).URL },
			"the judge gave no verdict"},
		{"429", func(t *testing.T) string {
			return modeltest.New(t, modeltest.Respond(429, `{"error": {"message": "slow down"}}`, "Retry-After", "0")).URL
		}, "rate limited (429) after 3 attempts"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := modelSuite(t, agent.Endpoint(), tc.endpoint(t), test)
			out := filepath.Join(dir, "report")
			r := run(t, dir, map[string]string{"CLI_MODEL_KEY": modelKey}, "run", "--report-dir", out)
			if r.code != ExitError || !strings.Contains(r.out, tc.want) {
				t.Fatalf("exit %d, want 2 and %q:\n%s%s", r.code, tc.want, r.out, r.errOut)
			}
			all := r.out + r.errOut
			filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					b, _ := os.ReadFile(p)
					all += string(b)
				}
				return nil
			})
			if strings.Contains(all, modelKey) {
				t.Error("the model's api key is in the output")
			}
		})
	}
}

func TestGenerate(t *testing.T) {
	draft := "version: \"1.0\"\nname: greets\nturns:\n  - user: hi\n    assert: {text: {contains: [hello]}}\n"
	answer, _ := json.Marshal(map[string]any{"tests": []map[string]string{{"file": "greets.ananke.yaml", "yaml": draft}, {"file": "bad.ananke.yaml", "yaml": "nope: 1\n"}}})
	fixed, _ := json.Marshal(map[string]any{"tests": []map[string]string{{"file": "bad.ananke.yaml", "yaml": "still: bad\n"}}})
	srv := modeltest.New(t, modeltest.Answer(string(answer)), modeltest.Answer(string(fixed)))
	dir := modelSuite(t, "http://127.0.0.1:1/agent", srv.URL, "turns: [{user: hi}]\n")
	r := run(t, dir, map[string]string{"CLI_MODEL_KEY": modelKey}, "generate", "--count", "2", "--out", "gen", "greetings")
	if r.code != ExitError {
		t.Fatalf("exit %d (want 2: one draft stayed invalid)\n%s%s", r.code, r.out, r.errOut)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "gen", "greets.ananke.yaml")); err != nil || string(b) != draft {
		t.Errorf("greets.ananke.yaml: %v %q", err, b)
	}
	if _, err := os.Stat(filepath.Join(dir, "gen", "bad.ananke.yaml")); err == nil {
		t.Error("an invalid draft was written")
	}
	if !strings.Contains(r.errOut, "bad.ananke.yaml is invalid and was not written") || !strings.Contains(r.out, "Model: 2 requests") {
		t.Errorf("output:\n%s%s", r.out, r.errOut)
	}
	if got := len(srv.Requests()); got != 2 {
		t.Errorf("%d model requests, want 2", got)
	}
	// --dry-run prints instead of writing; an existing file is never replaced.
	srv2 := modeltest.New(t, modeltest.Answer(string(answer)), modeltest.Answer(string(fixed)))
	dir2 := modelSuite(t, "http://127.0.0.1:1/agent", srv2.URL, "turns: [{user: hi}]\n")
	r = run(t, dir2, map[string]string{"CLI_MODEL_KEY": modelKey}, "generate", "--dry-run", "--count", "1", "greetings")
	if !strings.Contains(r.out, "greets.ananke.yaml\nversion: \"1.0\"\nname: greets") {
		t.Errorf("dry run output:\n%s", r.out)
	}
	if _, err := os.Stat(filepath.Join(dir2, "greets.ananke.yaml")); err == nil {
		t.Error("--dry-run wrote a file")
	}
	if r := run(t, dir2, nil, "generate"); r.code != ExitInvalid || !strings.Contains(r.errOut, "say what to test") {
		t.Errorf("no subject: %d %q", r.code, r.errOut)
	}
}

// TestJudgeProseThenVerdict: a judge whose model first answers in prose is
// asked once more, and the verdict that follows decides the test — through
// the real model client, end to end.
func TestJudgeProseThenVerdict(t *testing.T) {
	agent := aguitest.New(t, func(r *aguitest.Request) aguitest.Response {
		return aguitest.Response{Events: aguitest.Run(r.Input, aguitest.Text("m", "Hello.")...)}
	})
	test := "turns: [{user: hi, assert: {judge: {criteria: [polite], severity: critical}}}]\n"
	for _, tc := range []struct {
		verdict string
		code    int
		want    string
	}{
		{"true", ExitPass, "1 passed"},
		{"false", ExitFail, `the judge found 1 of 1 criterion not met in turn[0]: "polite" (false: terse)`},
	} {
		t.Run(tc.verdict, func(t *testing.T) {
			srv := modeltest.New(t, modeltest.Answer("Yes, the agent was polite."),
				modeltest.Answer(`{"verdicts": {"c1": {"verdict": "`+tc.verdict+`", "reasoning": "terse"}}}`))
			dir := modelSuite(t, agent.Endpoint(), srv.URL, test)
			r := run(t, dir, map[string]string{"CLI_MODEL_KEY": modelKey}, "run", "--report-dir", filepath.Join(dir, "report"))
			if r.code != tc.code || !strings.Contains(r.out, tc.want) || !strings.Contains(r.out, "Model: 2 requests") {
				t.Fatalf("exit %d, want %d and %q and 2 model requests:\n%s%s", r.code, tc.code, tc.want, r.out, r.errOut)
			}
		})
	}
}

// TestWarningJudgeNotMade: a warning judge whose model fails leaves its
// test passing (exit 0), but never silently: the default console's test
// line and summary say a check was not made and why, summary.json counts
// it, and JUnit lists it beside the passing testcase.
func TestWarningJudgeNotMade(t *testing.T) {
	agent := aguitest.New(t, func(r *aguitest.Request) aguitest.Response {
		return aguitest.Response{Events: aguitest.Run(r.Input, aguitest.Text("m", "Hello.")...)}
	})
	srv := modeltest.New(t, modeltest.Respond(500, `{"error": {"message": "upstream down"}}`, "Retry-After", "0"))
	dir := modelSuite(t, agent.Endpoint(), srv.URL, "turns: [{user: hi, assert: {judge: {criteria: [polite], severity: warning}}}]\n")
	out := filepath.Join(dir, "report")
	r := run(t, dir, map[string]string{"CLI_MODEL_KEY": modelKey}, "run", "--report-dir", out)
	reason := "the judge gave no verdict: model m at " + srv.URL + ": server error (500) after 3 attempts: upstream down"
	for _, want := range []string{"✓ t (", "· 1 check not made\n", reason, "1 passed, 0 failed, 0 errored, 0 skipped, 1 check not made (pass rate 100.0%)"} {
		if !strings.Contains(r.out, want) {
			t.Errorf("the console lacks %q", want)
		}
	}
	if r.code != ExitPass {
		t.Errorf("exit %d; want 0: a warning never fails the test", r.code)
	}
	var sum struct {
		Totals map[string]any `json:"totals"`
		Tests  []struct {
			Status     string
			Assertions []struct{ Kind, Severity, Status, Message string }
		}
	}
	b, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	judged := false
	for _, a := range sum.Tests[0].Assertions {
		judged = judged || a.Kind == "judge" && a.Severity == "warning" && a.Status == "error" && a.Message == reason
	}
	if sum.Totals["passed"] != 1.0 || sum.Totals["not_made"] != 1.0 || sum.Tests[0].Status != "pass" || !judged {
		t.Errorf("summary.json: totals %v, tests %+v", sum.Totals, sum.Tests)
	}
	junit, err := os.ReadFile(filepath.Join(out, "junit.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if j := string(junit); !strings.Contains(j, "checks not made (of severity warning, they do not fail the test):") || !strings.Contains(j, reason) ||
		strings.Contains(j, "<failure") || strings.Contains(j, "<error") {
		t.Errorf("junit.xml:\n%s", j)
	}
	if t.Failed() {
		t.Logf("output:\n%s%s", r.out, r.errOut)
	}
}
