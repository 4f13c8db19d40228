package cli

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sethvargo/go-githubactions"
	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/github/artifact/artifacttest"
	"github.com/ananke/action/internal/github/githubtest"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/prcomment"
)

const actionSecret = "ak-live-7a6b5c4d3e2f"

// actionEnv is a GitHub-like environment for `ananke action` run from the
// workspace dir, publishing to the fakes.
func actionEnv(t *testing.T, dir, event, eventJSON string, gh *githubtest.Server, art *artifacttest.Server) (map[string]string, string, string) {
	t.Helper()
	files := t.TempDir()
	eventPath, output, summary := filepath.Join(files, "event.json"), filepath.Join(files, "output"), filepath.Join(files, "summary")
	os.WriteFile(eventPath, []byte(eventJSON), 0o644)
	os.WriteFile(output, nil, 0o644)
	os.WriteFile(summary, nil, 0o644)
	return map[string]string{
		"GITHUB_ACTIONS": "true", "GITHUB_REPOSITORY": "acme/shop", "GITHUB_SHA": "merge0000", "GITHUB_RUN_ID": "99",
		"GITHUB_EVENT_NAME": event, "GITHUB_EVENT_PATH": eventPath, "GITHUB_SERVER_URL": "https://github.com",
		"GITHUB_API_URL": gh.URL, "GITHUB_WORKSPACE": dir, "GITHUB_OUTPUT": output, "GITHUB_STEP_SUMMARY": summary,
		"ACTIONS_RUNTIME_TOKEN": art.Token(), "ACTIONS_RESULTS_URL": art.URL + "/", "GITHUB_RETENTION_DAYS": "5",
		"INPUT_GITHUB-TOKEN": "ghs_token", "INPUT_CHECK-NAME": "agent tests", "INPUT_PARALLEL": "3",
		"ANANKE_ACTION_SECRET": actionSecret,
		// The base branch's history has tests of its own
		// (actionhistory_test.go): the others leave it off, so that their
		// requests to the actions API are their own.
		"INPUT_HISTORY": "off",
	}, output, summary
}

// failingWorkspace is the failing example with a secret header.
func failingWorkspace(t *testing.T) string {
	dir := copySuite(t, "failing")
	cfg := filepath.Join(dir, "ananke.config.yaml")
	b, _ := os.ReadFile(cfg)
	b = bytes.Replace(b, []byte("  agentId: example-shop\n"), []byte("  agentId: example-shop\n  headers:\n    X-Api-Key: \"${ENV.ANANKE_ACTION_SECRET}\"\n"), 1)
	os.WriteFile(cfg, b, 0o644)
	return dir
}

const prEvent = `{"number": 5, "pull_request": {"number": 5, "head": {"sha": "head1111"}}}`

func TestActionPullRequest(t *testing.T) {
	gh, art := githubtest.New(t), artifacttest.New(t)
	dir := failingWorkspace(t)
	env, output, summary := actionEnv(t, dir, "pull_request", prEvent, gh, art)
	r := runWall(t, dir, env, "action")
	if r.code != ExitFail {
		t.Fatalf("exit %d; want 1 (tests failed, fail-on error)\n%s%s", r.code, r.out, r.errOut)
	}
	if !strings.Contains(r.out, "::add-mask::"+actionSecret) {
		t.Error("the secret was not registered with ::add-mask::")
	}
	if i := strings.Index(r.out, "::add-mask::"+actionSecret); i > strings.Index(r.out, "✗") {
		t.Error("::add-mask:: came after test output")
	}

	runs := gh.CheckRuns()
	if len(runs) != 1 {
		t.Fatalf("%d check runs", len(runs))
	}
	cr := runs[0]
	if cr.Name != "agent tests" || cr.HeadSHA != "head1111" || cr.Conclusion != "failure" || !strings.Contains(cr.Summary, "6 failed of 6 tests") {
		t.Errorf("check run = %+v", cr)
	}
	var where []string
	for _, a := range cr.Annotations {
		where = append(where, a.Path+":"+itoa(a.StartLine)+":"+a.Level)
	}
	for _, want := range []string{"wrong-city.ananke.yaml:9:failure", "declined.ananke.yaml:14:failure", "crash.ananke.yaml:5:failure", "parallel-count.ananke.yaml:9:failure"} {
		if !slices.Contains(where, want) {
			t.Errorf("no annotation %s in %q", want, where)
		}
	}

	comments := gh.Comments(5)
	if len(comments) != 1 || !strings.HasPrefix(comments[0].Body, prcomment.Marker("agent tests")) || !strings.Contains(comments[0].Body, "wrong-city.ananke.yaml") {
		t.Fatalf("comments = %+v", comments)
	}
	if !strings.Contains(comments[0].Body, "https://github.com/acme/shop/blob/head1111/wrong-city.ananke.yaml#L9") {
		t.Error("the comment does not link the failing YAML line")
	}
	if !strings.Contains(comments[0].Body, "/actions/runs/99/artifacts/") {
		t.Error("the comment does not link the artifact")
	}
	if !strings.Contains(comments[0].Body, "artifact](https://github.com/acme/shop/actions/runs/99/artifacts/1001) (open `index.html` inside, or `ananke show ananke-report.zip`)") {
		t.Error("the comment does not say how to open the artifact's HTML report")
	}

	arts := art.Artifacts()
	if len(arts) != 1 || arts[0].Name != "ananke-report" {
		t.Fatalf("artifacts = %+v", arts)
	}
	zr, err := zip.NewReader(bytes.NewReader(arts[0].Data), int64(len(arts[0].Data)))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
	}
	for _, want := range []string{"summary.json", "junit.xml", "tests/wrong-city.result.json", "tests/wrong-city.trace.json"} {
		if !slices.Contains(names, want) {
			t.Errorf("artifact lacks %s (has %q)", want, names)
		}
	}

	out, _ := os.ReadFile(output)
	for _, want := range []string{"passed<<", "\n0\n", "failed<<", "\n6\n", "total<<", "conclusion<<", "\nfailure\n", "junit-path<<", "ananke-report/junit.xml"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("GITHUB_OUTPUT lacks %q:\n%s", want, out)
		}
	}
	md, _ := os.ReadFile(summary)
	if !strings.Contains(string(md), "6 failed of 6 tests") || !strings.Contains(string(md), "(open `index.html` inside, or `ananke show ananke-report.zip`)") {
		t.Errorf("job summary:\n%s", md)
	}
	// The ::add-mask:: line must carry the value (that is how GitHub learns
	// to hide it); nothing else may.
	log := strings.ReplaceAll(r.out, "::add-mask::"+actionSecret, "")
	everything := log + r.errOut + string(out) + string(md) + string(arts[0].Data) + comments[0].Body + cr.Summary
	if strings.Contains(everything, actionSecret) {
		t.Error("the secret leaked into the action's outputs")
	}

	// A second run edits the comment instead of adding one.
	runWall(t, dir, env, "action")
	if n := len(gh.Comments(5)); n != 1 {
		t.Errorf("%d comments after the second run; want the sticky one", n)
	}
}

// TestActionForkPullRequest: a read-only token cannot publish; the results
// go to workflow-command annotations and the job summary, the verdict
// stands.
func TestActionForkPullRequest(t *testing.T) {
	gh, art := githubtest.New(t), artifacttest.New(t)
	gh.ReadOnly()
	dir := failingWorkspace(t)
	env, _, summary := actionEnv(t, dir, "pull_request", prEvent, gh, art)
	env["INPUT_FAIL-ON"] = "fail"
	r := runWall(t, dir, env, "action")
	if r.code != ExitFail {
		t.Fatalf("exit %d; want 1", r.code)
	}
	if !strings.Contains(r.out, "::warning::the token cannot create check runs") || !strings.Contains(r.out, "::error file=wrong-city.ananke.yaml,line=9,") {
		t.Errorf("no fallback annotations:\n%s", r.out)
	}
	if n := strings.Count(r.out, "::error file="); n > 10 {
		t.Errorf("%d ::error commands; GitHub shows 10 per step", n)
	}
	if md, _ := os.ReadFile(summary); !strings.Contains(string(md), "6 failed of 6 tests") {
		t.Error("no job summary")
	}
}

// TestActionPushAndFailOn: a push has no pull request (no comment); fail-on
// decides the exit code.
func TestActionPushAndFailOn(t *testing.T) {
	gh, art := githubtest.New(t), artifacttest.New(t)
	dir := failingWorkspace(t)
	env, _, _ := actionEnv(t, dir, "push", `{"ref": "refs/heads/main"}`, gh, art)
	env["INPUT_FAIL-ON"] = "never"
	env["INPUT_UPLOAD-ARTIFACT"] = "false"
	r := runWall(t, dir, env, "action")
	if r.code != ExitPass {
		t.Errorf("exit %d with fail-on never; want 0", r.code)
	}
	if len(gh.Comments(5)) != 0 || len(gh.CheckRuns()) != 1 || len(art.Artifacts()) != 0 {
		t.Errorf("comments %d, check runs %d, artifacts %d; want 0, 1, 0", len(gh.Comments(5)), len(gh.CheckRuns()), len(art.Artifacts()))
	}
	env["INPUT_PARALLEL"] = "zero"
	if r := runWall(t, dir, env, "action"); r.code != ExitInvalid || !strings.Contains(r.out, "::error::input parallel") {
		t.Errorf("bad input: exit %d %q", r.code, r.out)
	}
}

func TestFailOn(t *testing.T) {
	for _, tc := range []struct {
		mode       string
		exit, want int
	}{
		{"error", ExitFail, ExitFail}, {"error", ExitError, ExitError}, {"error", ExitPass, ExitPass},
		{"fail", ExitFail, ExitFail}, {"fail", ExitError, ExitPass},
		{"never", ExitFail, ExitPass}, {"never", ExitInvalid, ExitInvalid},
	} {
		if got := failOn(tc.mode, tc.exit); got != tc.want {
			t.Errorf("failOn(%s, %d) = %d; want %d", tc.mode, tc.exit, got, tc.want)
		}
	}
}

// TestActionYAML: action.yml declares exactly the inputs `ananke action`
// reads and the outputs it sets, and runs the binary's action command.
func TestActionYAML(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(repoRoot(), "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var meta struct {
		Inputs  map[string]any `yaml:"inputs"`
		Outputs map[string]any `yaml:"outputs"`
		Runs    struct {
			Using, Image string
			Args         []string
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(raw, &meta); err != nil {
		t.Fatal(err)
	}
	if meta.Runs.Using != "docker" || meta.Runs.Image != "Dockerfile" || !slices.Equal(meta.Runs.Args, []string{"action"}) {
		t.Errorf("runs = %+v", meta.Runs)
	}
	var read []string
	a := &app{environ: nil}
	gha := newActionsForTest(a, func(name string) { read = append(read, name) })
	if _, err := readInputs(gha); err != nil {
		t.Fatal(err)
	}
	declared := keys(meta.Inputs)
	slices.Sort(read)
	if !slices.Equal(declared, slices.Compact(read)) {
		t.Errorf("action.yml inputs %q; ananke action reads %q", declared, read)
	}
	outFile := filepath.Join(t.TempDir(), "out")
	os.WriteFile(outFile, nil, 0o644)
	a = &app{environ: []string{"GITHUB_OUTPUT=" + outFile}, Stdio: Stdio{Out: &bytes.Buffer{}}}
	p := &publisher{app: a, gha: newActionsForTest(a, nil), rep: reporttestReport()}
	p.outputs()
	b, _ := os.ReadFile(outFile)
	var set []string
	for _, line := range strings.Split(string(b), "\n") {
		if k, _, ok := strings.Cut(line, "<<"); ok {
			set = append(set, k)
		}
	}
	slices.Sort(set)
	if !slices.Equal(keys(meta.Outputs), set) {
		t.Errorf("action.yml outputs %q; ananke action sets %q", keys(meta.Outputs), set)
	}
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }

func reporttestReport() *report.Report { return reporttest.Report() }

// newActionsForTest is the app's go-githubactions client; onInput (when
// set) sees each input name read.
func newActionsForTest(a *app, onInput func(string)) *githubactions.Action {
	return githubactions.New(githubactions.WithWriter(&bytes.Buffer{}), githubactions.WithGetenv(func(k string) string {
		if name, ok := strings.CutPrefix(k, "INPUT_"); ok && onInput != nil {
			onInput(strings.ToLower(name))
		}
		return a.getenv(k)
	}))
}
