package cli

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ananke/action/internal/github/artifact/artifacttest"
	"github.com/ananke/action/internal/github/githubtest"
)

// TestActionShardsThenMerge plays the sharded workflow: two shard jobs run
// with publish: false (the report is uploaded, nothing published), then a
// report job merges the downloaded artifacts and publishes one check run,
// one comment and one job summary.
func TestActionShardsThenMerge(t *testing.T) {
	gh, art := githubtest.New(t), artifacttest.New(t)
	dir := copySuite(t, "flaky") // one test, 4 runs: fails, flaky
	quick := copySuite(t, "quickstart")
	// One workspace holding both suites, as a repository would.
	if err := os.Rename(quick, filepath.Join(dir, "quickstart")); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "ananke.config.yaml")
	b, _ := os.ReadFile(cfg)
	os.WriteFile(cfg, append(b, []byte("tests: [\"*.ananke.yaml\", \"quickstart/weather.ananke.yaml\", \"quickstart/memory.ananke.yaml\"]\n")...), 0o644)

	downloads := filepath.Join(dir, "shards")
	for _, shard := range []string{"1", "2"} {
		env, _, summary := actionEnv(t, dir, "pull_request", prEvent, gh, art)
		env["INPUT_SHARD"], env["INPUT_PUBLISH"], env["INPUT_FAIL-ON"] = shard+"/2", "false", "never"
		env["INPUT_ARTIFACT-NAME"], env["INPUT_REPORT-DIR"] = "ananke-report-"+shard, "report-"+shard
		r := run(t, dir, env, "action")
		if r.code != ExitPass || !strings.Contains(r.out, "publish: false") {
			t.Fatalf("shard %s: exit %d\n%s%s", shard, r.code, r.out, r.errOut)
		}
		if md, _ := os.ReadFile(summary); len(md) != 0 {
			t.Errorf("shard %s wrote a job summary:\n%s", shard, md)
		}
		// actions/download-artifact puts each artifact in its own folder.
		unzip(t, art.Artifacts()[len(art.Artifacts())-1].Data, filepath.Join(downloads, "ananke-report-"+shard))
	}
	if n := len(gh.CheckRuns()); n != 0 || len(gh.Comments(5)) != 0 {
		t.Fatalf("shards published %d check runs and %d comments; want none", n, len(gh.Comments(5)))
	}

	env, output, summary := actionEnv(t, dir, "pull_request", prEvent, gh, art)
	env["INPUT_MERGE"] = "shards/*"
	r := run(t, dir, env, "action")
	if r.code != ExitFail || !strings.Contains(r.out, "Merged 3 tests from 2 reports") {
		t.Fatalf("merge job: exit %d; want 1 (the flaky test fails)\n%s%s", r.code, r.out, r.errOut)
	}
	runs := gh.CheckRuns()
	if len(runs) != 1 || runs[0].Conclusion != "failure" || !strings.Contains(runs[0].Summary, "1 failed of 3 tests") {
		t.Fatalf("check runs %+v", runs)
	}
	if c := gh.Comments(5); len(c) != 1 || !strings.Contains(c[0].Body, "the agent tosses the coin with its tool") {
		t.Errorf("comments %+v", c)
	}
	var annotated bool
	for _, a := range runs[0].Annotations {
		annotated = annotated || (a.Path == "coin.ananke.yaml" && a.Level == "failure")
	}
	if !annotated {
		t.Errorf("no failure annotation on coin.ananke.yaml: %+v", runs[0].Annotations)
	}
	out, _ := os.ReadFile(output)
	for _, want := range []string{"total<<", "\n3\n", "flaky<<", "\n1\n", "conclusion<<", "\nfailure\n"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("GITHUB_OUTPUT lacks %q:\n%s", want, out)
		}
	}
	if md, _ := os.ReadFile(summary); !strings.Contains(string(md), "1 failed of 3 tests") {
		t.Errorf("job summary:\n%s", md)
	}
	validateReportFiles(t, filepath.Join(dir, "ananke-report"))

	// A merge input that matches no report directory is an input error.
	env["INPUT_MERGE"] = "nowhere/*"
	if r := run(t, dir, env, "action"); r.code != ExitInvalid || !strings.Contains(r.errOut, `input merge: "nowhere/*" matches no report directory`) {
		t.Errorf("bad merge input: exit %d %q", r.code, r.errOut)
	}
}

func TestActionRunInputs(t *testing.T) {
	gh, art := githubtest.New(t), artifacttest.New(t)
	dir := copySuite(t, "flaky")
	env, _, _ := actionEnv(t, dir, "push", `{}`, gh, art)
	env["INPUT_RUNS"], env["INPUT_MIN-PASS-RATE"], env["INPUT_FAIL-ON-FLAKY"] = "2", "50", "true"
	r := run(t, dir, env, "action")
	if r.code != ExitFail || !strings.Contains(plain(r.out), "1/2 runs (50%, 95% CI 10–91%) · flaky") {
		t.Errorf("exit %d; want 1 (passed at 50%%, but flaky fails the run)\n%s%s", r.code, r.out, r.errOut)
	}
	for input, want := range map[string]string{
		"INPUT_RUNS":          `input runs: want a whole number from 1 to 1000, got "0"`,
		"INPUT_MIN-PASS-RATE": `input min-pass-rate: want a percentage from 0 to 100, got "0"`,
		"INPUT_SHARD":         `input shard: want i/n with 1 <= i <= n <= 1000, e.g. 2/3, got "0"`,
		"INPUT_FAIL-FAST":     `input fail-fast: want true or false, got "0"`,
	} {
		env, _, _ := actionEnv(t, dir, "push", `{}`, gh, art)
		env[input] = "0"
		if input == "INPUT_MIN-PASS-RATE" {
			env[input] = "101"
			want = strings.Replace(want, `"0"`, `"101"`, 1)
		}
		if r := run(t, dir, env, "action"); r.code != ExitInvalid || !strings.Contains(r.out, want) {
			t.Errorf("%s: exit %d, output lacks %q:\n%s%s", input, r.code, want, r.out, r.errOut)
		}
	}
	env, _, _ = actionEnv(t, dir, "push", `{}`, gh, art)
	env["INPUT_DRY-RUN"] = "true"
	before := len(gh.CheckRuns())
	if r := run(t, dir, env, "action"); r.code != ExitPass || !strings.Contains(r.out, "Dry run:") || len(gh.CheckRuns()) != before {
		t.Errorf("dry run: exit %d, %d new check runs\n%s%s", r.code, len(gh.CheckRuns())-before, r.out, r.errOut)
	}
}

func unzip(t *testing.T, data []byte, dir string) {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		b.ReadFrom(rc)
		rc.Close()
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestActionEndpoint: the endpoint input sends to the agent in place of
// the config's target.endpoint (a service container's address in CI).
func TestActionEndpoint(t *testing.T) {
	gh, art := githubtest.New(t), artifacttest.New(t)
	dir := copySuite(t, "quickstart")
	cfg := filepath.Join(dir, "ananke.config.yaml")
	b, _ := os.ReadFile(cfg)
	m := regexp.MustCompile(`endpoint: "(http://[^"]+)"`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("no endpoint in %s", b)
	}
	os.WriteFile(cfg, bytes.Replace(b, m[0], []byte(`endpoint: "http://127.0.0.1:9/agent"`), 1), 0o644)
	env, _, _ := actionEnv(t, dir, "push", `{}`, gh, art)
	env["INPUT_ENDPOINT"] = string(m[1])
	if r := run(t, dir, env, "action"); r.code != ExitPass {
		t.Errorf("exit %d with the endpoint input; want 0\n%s%s", r.code, r.out, r.errOut)
	}
	delete(env, "INPUT_ENDPOINT")
	if r := run(t, dir, env, "action"); r.code == ExitPass {
		t.Errorf("exit 0 without the endpoint input: the config's dead endpoint was not used\n%s", r.out)
	}
}
