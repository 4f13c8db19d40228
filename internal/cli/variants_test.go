package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/github/artifact/artifacttest"
	"github.com/ananke/action/internal/github/githubtest"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/internal/status"

	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/vars"
)

// TestSelectVariants: --variant names variants of the config, in the
// config's order; --variants all takes them all; anything else is said.
func TestSelectVariants(t *testing.T) {
	cfg := &spec.Config{Variants: []*spec.Variant{{Name: "quick"}, {Name: "careful"}, {Name: "big"}}}
	for _, tc := range []struct {
		named []string
		all   string
		want  string // the names, or the error's text
	}{
		{nil, "", ""},
		{[]string{"big", "quick"}, "", "quick big"},
		{nil, "all", "quick careful big"},
		{[]string{"slow"}, "", `--variant "slow": the config's variants are quick, careful, big`},
		{nil, "some", `--variants "some": write --variants all`},
		{[]string{"big"}, "all", "--variants all runs every variant; remove --variant"},
	} {
		vs, err := selectVariants(cfg, tc.named, tc.all)
		got := ""
		if err != nil {
			got = err.Error()
		}
		for _, v := range vs {
			got = strings.TrimSpace(got + " " + v.Name)
		}
		if !strings.Contains(got, tc.want) || (tc.want == "" && got != "") {
			t.Errorf("selectVariants(%v, %q) = %q; want %q", tc.named, tc.all, got, tc.want)
		}
	}
	if _, err := selectVariants(&spec.Config{}, []string{"a"}, ""); err == nil || !strings.Contains(err.Error(), "declares no variants") {
		t.Errorf("variants of a config without any: %v", err)
	}
}

// TestVariantRuns: each variant's run has its own target and stability
// over the config's, and its tests' ids qualified; the suite itself is
// left as it was.
func TestVariantRuns(t *testing.T) {
	two := 2
	cfg := &spec.Config{Target: spec.Target{Endpoint: vars.Literal("http://cli/agent"), AgentID: vars.Literal("base")},
		Stability: spec.Stability{Runs: 3, Retries: &two}}
	suite := &spec.Suite{Config: cfg, Tests: []*spec.Test{{ID: "weather"}, {ID: "refund"}}}
	careful := &spec.Target{Endpoint: vars.Literal("http://file/agent"), AgentID: vars.Literal("careful")}
	vs := []*spec.Variant{
		{Name: "quick"},
		{Name: "careful", Target: careful, Overrides: []string{"agentId"}, Stability: spec.Stability{Runs: 5}},
		{Name: "moved", Target: &spec.Target{Endpoint: vars.Literal("http://moved/agent")}, Overrides: []string{"endpoint"}},
	}
	runs := variantRuns(suite, vs)
	if len(runs) != 3 || runs[1].name != "careful" || runs[1].suite.Tests[0].ID != "weather@careful" || suite.Tests[0].ID != "weather" {
		t.Fatalf("runs %+v", runs)
	}
	c := runs[1].suite.Config
	if c.Target.AgentID.Raw != "careful" || c.Target.Endpoint.Raw != "http://cli/agent" || c.Stability.Runs != 5 || *c.Stability.Retries != 2 {
		t.Errorf("careful's config: agent %q, endpoint %q (the config's, which --endpoint sets), runs %d", c.Target.AgentID.Raw, c.Target.Endpoint.Raw, c.Stability.Runs)
	}
	if e := runs[2].suite.Config.Target.Endpoint.Raw; e != "http://moved/agent" {
		t.Errorf("a variant's own endpoint %q", e)
	}
	if q := runs[0].suite.Config; q.Target.AgentID.Raw != "base" || q.Stability.Runs != 3 {
		t.Errorf("quick's config %+v", q.Target)
	}
	if all := allVariants(runs); len(all.Tests) != 6 || all.Tests[5].ID != "refund@moved" {
		t.Errorf("all variants' tests: %d", len(all.Tests))
	}
	if plain := variantRuns(suite, nil); len(plain) != 1 || plain[0].suite != suite {
		t.Errorf("without variants, the suite itself: %+v", plain)
	}
}

// TestActionVariants: the action's variants input runs the quickstart
// under both of its config's variants, and the one PR comment on the fake
// GitHub carries the comparison: each variant, the matrix, the verdict.
func TestActionVariants(t *testing.T) {
	gh, art := githubtest.New(t), artifacttest.New(t)
	dir := copySuite(t, "quickstart")
	cfg := filepath.Join(dir, "ananke.config.yaml")
	b, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	b = append(b, []byte("\nvariants:\n  - name: plain\n  - name: tagged\n    target:\n      headers: { X-Variant: tagged }\n")...)
	if err := os.WriteFile(cfg, b, 0o644); err != nil {
		t.Fatal(err)
	}
	env, _, _ := actionEnv(t, dir, "pull_request", prEvent, gh, art)
	env["INPUT_VARIANTS"] = "all"
	r := run(t, dir, env, "action")
	if r.code != ExitPass {
		t.Fatalf("exit %d\n%s%s", r.code, r.out, r.errOut)
	}
	comments := gh.Comments(5)
	if len(comments) != 1 {
		t.Fatalf("%d comments", len(comments))
	}
	body := comments[0].Body
	for _, want := range []string{"Variants", "plain", "tagged", "weather in Paris uses the weather tool", "tagged passes as many tests as plain"} {
		if !strings.Contains(body, want) {
			t.Errorf("the comment lacks %q:\n%s", want, body)
		}
	}
	if strings.Count(r.out, "Variant ") < 2 {
		t.Errorf("the log does not announce each variant:\n%s", r.out)
	}
}

// TestDiffVariants: ananke diff compares each variant's tests with their
// own, by their qualified ids: a test that newly fails under one variant
// is a new failure of that variant alone.
func TestDiffVariants(t *testing.T) {
	dirs := t.TempDir()
	base := writeReport(t, filepath.Join(dirs, "base"), reporttest.VariantsReport())
	head := reporttest.VariantsReport()
	var broke, name string
	for i := range head.Tests {
		if x := &head.Tests[i]; x.Variant == "careful" && x.Status == status.Pass && broke == "" {
			x.Status, broke, name = status.Fail, x.ID, x.Name
		}
	}
	if broke == "" {
		t.Fatal("the fixture has no passing test under careful")
	}
	r := run(t, "", nil, "diff", base, writeReport(t, filepath.Join(dirs, "head"), head))
	if r.code != ExitPass {
		t.Fatalf("diff: exit %d\n%s%s", r.code, r.out, r.errOut)
	}
	if !strings.Contains(r.out, "New failures (1):\n  pass → fail  "+name+" [careful]  ") {
		t.Errorf("diff does not name %s under careful alone as a new failure:\n%s", broke, r.out)
	}
	if strings.Contains(r.out, "error → error  "+name+"  ") || !strings.Contains(r.out, "error → error  "+name+" [broken]") {
		t.Errorf("diff does not say which variant each still failing test is of:\n%s", r.out)
	}
}
