package cli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ananke/action/internal/agui/aguitest"
	"github.com/ananke/action/internal/judge"
	"github.com/ananke/action/internal/labels"
	"github.com/ananke/action/internal/model/modeltest"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/reportdir"
	"github.com/ananke/action/schema"
	"github.com/ananke/action/schema/schematest"
)

// judgeModel is a fake model that answers a judge's question with
// decide's verdict on each criterion over the transcript it is shown.
func judgeModel(t *testing.T, decide func(criterion, transcript string) string) *modeltest.Server {
	t.Helper()
	var srv *modeltest.Server
	srv = modeltest.New(t, func(w http.ResponseWriter, r *http.Request) {
		reqs := srv.Requests() // the body was read into the last request
		var req struct {
			Messages []struct{ Role, Content string }
		}
		if err := json.Unmarshal(reqs[len(reqs)-1].Body, &req); err != nil || len(req.Messages) == 0 {
			modeltest.Respond(400, `{"error": {"message": "not a chat request"}}`)(w, r)
			return
		}
		transcript, crits, _ := strings.Cut(req.Messages[len(req.Messages)-1].Content, "\nCriteria:\n")
		out := map[string]any{}
		for _, line := range strings.Split(crits, "\n") {
			if k, c, ok := strings.Cut(strings.TrimPrefix(line, "- "), ": "); ok {
				out[k] = map[string]string{"verdict": decide(c, transcript), "reasoning": "fake"}
			}
		}
		b, _ := json.Marshal(map[string]any{"verdicts": out})
		modeltest.Answer(string(b))(w, r)
	})
	return srv
}

// calibrationSuite writes twelve tests, t00 to t11, each sending "case N":
// a judge of "polite" on the turn, and the config's judge of "brief" on
// the whole conversation, both of severity; extra is added to the config.
func calibrationSuite(t *testing.T, dir, agent, model, severity, extra string) {
	t.Helper()
	cfg := "version: \"1.0\"\n" +
		"target: {type: agui, endpoint: \"" + agent + "\", agentId: a, assert: {judge: {criteria: [brief], severity: " + severity + "}}}\n" +
		"model: {endpoint: \"" + model + "\", name: m, api_key: \"${ENV.CLI_MODEL_KEY}\", timeout_ms: 120000, cache: false" + extra + "\n"
	files := map[string]string{"ananke.config.yaml": cfg}
	for n := range 12 {
		files[fmt.Sprintf("t%02d.ananke.yaml", n)] = fmt.Sprintf("version: \"1.0\"\nname: t%02d\nturns: [{user: \"case %d\", assert: {judge: {criteria: [polite], severity: %s}}}]\n", n, n, severity)
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// calibrationRun starts the agent and the judge's model of the
// calibration tests — the agent says "please" to even cases, "now" to odd
// ones; the judge finds polite where it said please, brief where it said
// now — and makes a first run of calibrationSuite into dir/first, with
// judges that warn, so that every verdict is made, both kinds of each
// criterion, for labelling.
func calibrationRun(t *testing.T) (dir string, env map[string]string, agent *aguitest.Server, model *modeltest.Server) {
	t.Helper()
	env = map[string]string{"CLI_MODEL_KEY": modelKey}
	agent = aguitest.New(t, func(r *aguitest.Request) aguitest.Response {
		n, _ := strconv.Atoi(strings.TrimPrefix(lastUserText(r), "case "))
		reply := "now"
		if n%2 == 0 {
			reply = "please"
		}
		return aguitest.Response{Events: aguitest.Run(r.Input, aguitest.Text("m", reply)...)}
	})
	model = judgeModel(t, func(c, transcript string) string {
		word := map[string]string{"polite": "please", "brief": "now"}[c]
		return strconv.FormatBool(strings.Contains(transcript, "AGENT: "+word))
	})
	dir = t.TempDir()
	calibrationSuite(t, dir, agent.Endpoint(), model.URL, "warning", "}")
	if r := run(t, dir, env, "run", "--report-dir", "first"); r.code != ExitPass || !strings.Contains(r.out, "12 passed") {
		t.Fatalf("first run: exit %d\n%s%s", r.code, r.out, r.errOut)
	}
	return dir, env, agent, model
}

// labelsOf labels every verdict of the report as a person would: polite
// holds when the agent said please (as the judge finds), brief when the
// case number modulo 4 is 0 or 1 (which the judge does not find).
func labelsOf(t *testing.T, dir string) *labels.File {
	t.Helper()
	r, err := reportdir.ReadSummary(dir)
	if err != nil {
		t.Fatal(err)
	}
	f := &labels.File{Schema: labels.Schema, Run: r.StartedAt.Format(time.RFC3339Nano)}
	for _, tt := range r.Tests {
		n, _ := strconv.Atoi(strings.TrimPrefix(tt.Name, "t"))
		for _, a := range tt.Assertions {
			if a.Judge == nil {
				continue
			}
			for _, c := range a.Judge.Criteria {
				met := n%2 == 0
				if c.Criterion == "brief" {
					met = n%4 < 2
				}
				l := labels.Label{Test: tt.ID, Assertion: a.ID, Scope: a.Scope, Criterion: c.Criterion, JudgeModel: a.Judge.Model, PromptHash: a.Judge.PromptHash,
					Verdict: c.Verdict, Label: labels.Agree, Note: "case " + strconv.Itoa(n)}
				if (c.Verdict == "true") != met {
					l.Label = labels.Disagree
				}
				f.Labels = append(f.Labels, l)
			}
		}
	}
	return f
}

// TestJudgeCalibration: a run's verdicts are labelled by hand — agreeing
// with the judge of "polite", disagreeing with the judge of "brief" half
// the time on purpose — and calibrated; with judges.gate, polite's judge
// then gates (its failure fails the run) while brief's verdicts are
// warnings with the reason; a changed judge prompt makes the calibration
// stale; rejudge scores an old report again with another model's
// answers, into a new directory.
func TestJudgeCalibration(t *testing.T) {
	dir, env, agent, model := calibrationRun(t)
	gate := "}\njudges: {gate: {min_kappa: 0.6, min_labels: 10}}"
	lf, err := os.Create(filepath.Join(dir, "labels.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := labels.Write(lf, labelsOf(t, filepath.Join(dir, "first"))); err != nil {
		t.Fatal(err)
	}
	lf.Close()

	calibrationSuite(t, dir, agent.Endpoint(), model.URL, "critical", gate)
	r := run(t, dir, env, "judge", "calibrate", "--report", "first", "labels.json")
	hash := judge.PromptHash("")
	for _, want := range []string{
		"Judge m with prompt " + hash + " against 24 labels from labels.json, on first:",
		"  brief             12  50% [25–75%]      0 [−0.57, 0.57]",
		"  polite            12  100% [76–100%]    1 [1, 1]",
		"Disagreements (6):\n  \"brief\" · t00 · test.target.judge: the judge says false, the label met — note: \"case 0\"\n  \"brief\" · t03 · test.target.judge: the judge says true, the label not met — note: \"case 3\"",
		"Wrote .ananke/calibration.json: the calibration of 2 criteria for judge m with prompt " + hash + ".",
		"  all criteria      24  75% [55–88%]      0.5 [0.15, 0.85]",
		"  ✓ \"polite\": its judge gates",
		"  ✗ \"brief\": its judge's verdicts are warnings: the calibration of \"brief\" has kappa 0 [−0.57, 0.57] over 12 labels, below 0.6",
		"Model: 24 requests",
	} {
		if !strings.Contains(r.out, want) {
			t.Errorf("calibrate lacks %q", want)
		}
	}
	if testing.Verbose() {
		t.Logf("calibrate:\n%s", r.out)
	}
	if r.code != ExitPass || t.Failed() {
		t.Fatalf("calibrate: exit %d\n%s%s", r.code, r.out, r.errOut)
	}
	// The judge was asked over the stored traces exactly what the run
	// asked it over the live ones.
	if reqs := model.Requests(); len(reqs) != 48 || !slices.Equal(questions(t, reqs[:24]), questions(t, reqs[24:])) {
		t.Errorf("%d requests; the run's questions and calibrate's differ:\n%q\n%q", len(reqs), questions(t, reqs[:24]), questions(t, reqs[24:]))
	}
	cal, err := readCalibration(filepath.Join(dir, ".ananke", "calibration.json"))
	if err != nil {
		t.Fatal(err)
	}
	// Both files match their published schemas.
	for file, doc := range map[string][]byte{"labels.json": schema.Labels, ".ananke/calibration.json": schema.Calibration} {
		b, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		name := "ananke." + strings.TrimSuffix(filepath.Base(file), ".json") + ".schema.json"
		if err := schematest.Validate(schematest.Compile(t, doc, name), b); err != nil {
			t.Errorf("%s does not match %s: %v", file, name, err)
		}
	}
	if c, ok := cal.Find("m", hash, "polite"); !ok || c.N != 12 || *c.Kappa != 1 || c.Labels[0] != "labels.json" {
		t.Errorf("calibration of polite: %+v %v", c, ok)
	}

	// Gated: brief's failures are warnings with the reason (exit 0) ...
	r = run(t, dir, env, "run", "--report-dir", "even", "--run", "^t(0[02468]|10)$")
	if r.code != ExitPass || !strings.Contains(r.out, `(reported as a warning: the calibration of "brief" has kappa 0 [−0.57, 0.57] over 12 labels, below 0.6)`) {
		t.Errorf("even tests: exit %d, want 0 and brief reported as a warning\n%s%s", r.code, r.out, r.errOut)
	}
	// ... while polite's fails the build.
	r = run(t, dir, env, "run", "--report-dir", "odd", "--run", "^t01$")
	if r.code != ExitFail || !strings.Contains(r.out, `"polite" (false: fake)`) || strings.Contains(r.out, "reported as a warning") {
		t.Errorf("odd test: exit %d, want 1\n%s%s", r.code, r.out, r.errOut)
	}

	// Rejudged with a model that finds everything met: the odd test's
	// judge passes now, but its run stopped at that turn, so the judge of
	// the whole conversation was never made: the test errors, in a report
	// written beside the run's, which stays as it was.
	yes := judgeModel(t, func(string, string) string { return "true" })
	calibrationSuite(t, dir, agent.Endpoint(), yes.URL, "critical", gate)
	before, _ := os.ReadFile(filepath.Join(dir, "odd", "summary.json"))
	r = run(t, dir, env, "rejudge", "odd")
	for _, want := range []string{"Rejudged odd with judge m, prompt " + hash + ": 1 judge assertion asked again, 1 answer changed.",
		"  t01 · turn[0].judge: fail → pass (\"polite\" false → true)",
		"Test t01: fail → error (turn[0] no longer fails when judged again, but the run stopped there when it failed, so 1 check after it was never made (test.target.judge); run the test again)",
		"Run: fail → error", "Report: odd-rejudged/summary.json"} {
		if !strings.Contains(r.out, want) {
			t.Errorf("rejudge lacks %q", want)
		}
	}
	if r.code != ExitError {
		t.Errorf("rejudge: exit %d, want 2\n%s%s", r.code, r.out, r.errOut)
	}
	after, _ := os.ReadFile(filepath.Join(dir, "odd", "summary.json"))
	if string(after) != string(before) {
		t.Error("rejudge changed the run's own report")
	}
	sum, err := reportdir.ReadSummary(filepath.Join(dir, "odd-rejudged"))
	if err != nil {
		t.Fatal(err)
	}
	if sum.Status != "error" || sum.Totals.Errored != 1 || sum.Tests[0].Assertions[2].Judge.Criteria[0].Verdict != "true" {
		t.Errorf("rejudged summary.json: %s %+v %+v", sum.Status, sum.Totals, sum.Tests[0].Assertions)
	}
	// The even tests' warnings of brief, with a config that no longer
	// gates, are asked as the critical judges they are written as: they
	// pass now, and the run's report is written over when asked to.
	calibrationSuite(t, dir, agent.Endpoint(), yes.URL, "critical", "}")
	r = run(t, dir, env, "rejudge", "--report-dir", "even", "even")
	if !strings.Contains(r.out, "12 judge assertions asked again, 6 answers changed.") || !strings.Contains(r.out, "  t00 · test.target.judge: warn → pass (\"brief\" false → true)") || r.code != ExitPass {
		t.Errorf("rejudge even: exit %d\n%s%s", r.code, r.out, r.errOut)
	}
	if sum, err := reportdir.ReadSummary(filepath.Join(dir, "even")); err != nil || sum.Totals.Warned != 0 || sum.Tests[0].Assertions[3].Severity != "critical" {
		t.Errorf("even rejudged in place: %v %+v", err, sum)
	}
	// The first report's warnings, asked again, all pass.
	r = run(t, dir, env, "rejudge", "--report-dir", "first-again", "first")
	if !strings.Contains(r.out, "24 judge assertions asked again, 12 answers changed.") || r.code != ExitPass {
		t.Errorf("rejudge first: exit %d\n%s%s", r.code, r.out, r.errOut)
	}
	if sum, err := reportdir.ReadSummary(filepath.Join(dir, "first-again")); err != nil || sum.Totals.Warned != 0 {
		t.Errorf("first rejudged: %v %+v", err, sum)
	}

	// A changed judge prompt: the calibration is stale, polite's failure
	// is a warning.
	if err := os.WriteFile(filepath.Join(dir, "judge.md"), []byte("Judge strictly.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	calibrationSuite(t, dir, agent.Endpoint(), model.URL, "critical", ", prompts: {judge: judge.md}}\njudges: {gate: {min_kappa: 0.6, min_labels: 10}}")
	r = run(t, dir, env, "run", "--report-dir", "stale", "--run", "^t01$")
	stale := fmt.Sprintf(`(reported as a warning: the calibration of "polite" was made for judge m with prompt %s, not m with %s: the model or prompt changed; calibrate again)`, hash, judge.PromptHash("Judge strictly.\n"))
	if r.code != ExitPass || !strings.Contains(r.out, stale) {
		t.Errorf("stale: exit %d, want 0 and %s\n%s%s", r.code, stale, r.out, r.errOut)
	}
}

// TestJudgeGateMissing: with judges.gate and no calibration file, every
// critical judge is a warning saying so; the run goes on.
func TestJudgeGateMissing(t *testing.T) {
	agent := aguitest.New(t, func(r *aguitest.Request) aguitest.Response {
		return aguitest.Response{Events: aguitest.Run(r.Input, aguitest.Text("m", "now")...)}
	})
	model := judgeModel(t, func(string, string) string { return "false" })
	dir := t.TempDir()
	calibrationSuite(t, dir, agent.Endpoint(), model.URL, "critical", "}\njudges: {gate: {}}")
	r := run(t, dir, map[string]string{"CLI_MODEL_KEY": modelKey}, "run", "--run", "^t00$")
	want := `(reported as a warning: no calibration of "polite" for judge m with prompt ` + judge.PromptHash("") + ` (.ananke/calibration.json does not exist); run ananke judge calibrate)`
	if r.code != ExitPass || !strings.Contains(r.out, want) {
		t.Errorf("exit %d, want 0 and %s\n%s%s", r.code, want, r.out, r.errOut)
	}
	// A calibration file that is not one: a warning, and still no stop.
	if err := os.MkdirAll(filepath.Join(dir, ".ananke"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".ananke", "calibration.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = run(t, dir, map[string]string{"CLI_MODEL_KEY": modelKey}, "run", "--run", "^t00$")
	if r.code != ExitPass || !strings.Contains(r.errOut, "judges.calibration .ananke/calibration.json: not a calibration file") {
		t.Errorf("unreadable: exit %d\n%s%s", r.code, r.out, r.errOut)
	}
}

// TestJudgeCalibrateInvalid: what calibrate refuses, with exit 3.
func TestJudgeCalibrateInvalid(t *testing.T) {
	dir := modelSuite(t, "http://127.0.0.1:1/agent", "http://127.0.0.1:1/v1", "turns: [{user: hi}]\n")
	os.WriteFile(filepath.Join(dir, "bad.json"), []byte(`{"schema": "nope"}`), 0o644)
	noModel := t.TempDir()
	os.WriteFile(filepath.Join(noModel, "ananke.config.yaml"), []byte("version: \"1.0\"\ntarget: {type: agui, endpoint: \"http://127.0.0.1:1/agent\", agentId: a}\n"), 0o644)
	for _, tc := range []struct {
		dir  string
		args []string
		want string
	}{
		{dir, []string{"judge", "calibrate"}, "name the labels files"},
		{dir, []string{"judge", "calibrate", "--dry-run", "--write", "x.json", "bad.json"}, "give --write or --dry-run, not both"},
		{dir, []string{"judge", "calibrate", "bad.json"}, `bad.json: not a labels file: schema "nope"`},
		{dir, []string{"judge", "calibrate", "missing.json"}, "missing.json"},
		{noModel, []string{"judge", "calibrate", "x.json"}, "has no model: section"},
		{dir, []string{"judge", "nope"}, `unknown command "nope"`},
		{dir, []string{"rejudge"}, "name one report directory"},
		{dir, []string{"rejudge", "nowhere"}, "read report nowhere"},
	} {
		r := run(t, tc.dir, map[string]string{"CLI_MODEL_KEY": modelKey}, tc.args...)
		if r.code != ExitInvalid || !strings.Contains(r.errOut, tc.want) {
			t.Errorf("%v: exit %d, want 3 and %q\n%s%s", tc.args, r.code, tc.want, r.out, r.errOut)
		}
	}
}

// questions are the requests' last messages, sorted.
func questions(t *testing.T, reqs []modeltest.Request) []string {
	var out []string
	for _, r := range reqs {
		msgs, _ := r.JSON(t)["messages"].([]any)
		last, _ := msgs[len(msgs)-1].(map[string]any)
		out = append(out, fmt.Sprint(last["content"]))
	}
	slices.Sort(out)
	return out
}

// lastUserText is the text of the request's last user message.
func lastUserText(r *aguitest.Request) string {
	for i := len(r.Input.Messages) - 1; i >= 0; i-- {
		if m := r.Input.Messages[i]; m.Role == "user" {
			s, _ := m.TextContent()
			return s
		}
	}
	return ""
}

// TestJudgeOnJudgedReport: a judged run's report directory — a repeated
// test whose judge failed in its attempt that is not shown, a critical
// judge reported as a warning — labelled as the page labels it: every
// label is compared, each attempt's over its own trace; rejudged with a
// model that finds every criterion met and no gate, the warning judge
// gates again and the repeated test passes both runs.
func TestJudgeOnJudgedReport(t *testing.T) {
	model := judgeModel(t, func(string, string) string { return "true" })
	dir := modelSuite(t, "http://127.0.0.1:1/agent", model.URL, "turns: [{user: hi}]\n")
	rep := filepath.Join(dir, "judged")
	if err := reportdir.Write(rep, reporttest.JudgesReport()); err != nil {
		t.Fatal(err)
	}
	r0, err := reportdir.ReadSummary(rep)
	if err != nil {
		t.Fatal(err)
	}
	f := &labels.File{Schema: labels.Schema, Run: r0.StartedAt.Format(time.RFC3339Nano)}
	add := func(test string, attempt int, as []report.Assertion) {
		for _, a := range as {
			if a.Judge == nil {
				continue
			}
			for _, c := range a.Judge.Criteria {
				f.Labels = append(f.Labels, labels.Label{Test: test, Attempt: attempt, Assertion: a.ID, Scope: a.Scope, Criterion: c.Criterion,
					JudgeModel: a.Judge.Model, PromptHash: a.Judge.PromptHash, Verdict: c.Verdict, Label: labels.Agree})
			}
		}
	}
	for _, tt := range r0.Tests {
		if len(tt.Attempts) == 1 {
			add(tt.ID, 0, tt.Assertions)
			continue
		}
		for k, at := range tt.Attempts {
			if k+1 == tt.Shown {
				add(tt.ID, k+1, tt.Assertions)
			} else {
				add(tt.ID, k+1, at.Failed)
			}
		}
	}
	lf, _ := os.Create(filepath.Join(dir, "labels.json"))
	if err := labels.Write(lf, f); err != nil {
		t.Fatal(err)
	}
	lf.Close()
	env := map[string]string{"CLI_MODEL_KEY": modelKey}
	r := run(t, dir, env, "judge", "calibrate", "--dry-run", "--report", "judged", "labels.json")
	if r.code != ExitPass || len(f.Labels) != 6 || !strings.Contains(r.out, "against 6 labels") || strings.Contains(r.out, "Not compared") ||
		!strings.Contains(r.out, "Labels made on other judges' verdicts are compared all the same (a label says what the person found): 6 labels on judge gpt-4o-mini with prompt "+reporttest.JudgePromptHash) ||
		!strings.Contains(r.out, "Nothing written (--dry-run).") || len(model.Requests()) != 4 {
		t.Errorf("calibrate: exit %d, %d labels, %d requests\n%s%s", r.code, len(f.Labels), len(model.Requests()), r.out, r.errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, ".ananke")); err == nil {
		t.Error("--dry-run wrote a calibration")
	}
	r = run(t, dir, env, "rejudge", "judged")
	for _, want := range []string{"4 judge assertions asked again", "tests/tone · test.judge: warn → pass", "tests/refund-tone (attempt 1) · turn[0].judge: fail → pass (\"offers a refund politely\" false → true)"} {
		if !strings.Contains(r.out, want) {
			t.Errorf("rejudge lacks %q", want)
		}
	}
	sum, err := reportdir.ReadSummary(filepath.Join(dir, "judged-rejudged"))
	if err != nil {
		t.Fatal(err)
	}
	rt := sum.Tests[1]
	if r.code != ExitPass || rt.ID != "tests/refund-tone" || rt.PassedRuns != 2 || rt.Flaky || rt.Attempts[0].Status != "pass" || sum.Tests[0].Assertions[1].Severity != "critical" || sum.Totals.Flaky != 0 {
		t.Errorf("rejudged: exit %d, %+v\n%s%s", r.code, sum.Tests, r.out, r.errOut)
	}
}
