package cli

// The GitLab pipeline files (docs/gitlab.md): the CI/CD component
// templates/ananke/template.yml, the template to include
// ci/gitlab/ananke.gitlab-ci.yml and the examples that paste them. No
// GitLab runs in CI, so each example runs through gitlab-ci-local (pinned
// in testdata/interop, run offline: it reads a component of its own
// project and local includes from the working tree), which resolves the
// includes, inputs and extends as GitLab does, validates the result
// against GitLab's schema and evaluates the rules; every file is validated
// against that schema as written too (ci.json, read from the pinned
// gitlab-ci-local's bundle); and the job's command lines are parsed with
// Ananke's own flags.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"
)

const (
	gitlabComponent = "templates/ananke/template.yml"
	gitlabTemplate  = "ci/gitlab/ananke.gitlab-ci.yml"
)

// gitlabExamples are the pasted examples, and how the test points each one's
// include at this checkout's files: gitlab-ci-local reads a component of
// its own project (gitlab.com/ananke/action, the test project's origin)
// from the working tree only at the commit it runs, and fetches remote
// includes, which the test makes local.
var gitlabExamples = []struct{ file, include, local string }{
	{"examples/gitlab/component.gitlab-ci.yml",
		"component: gitlab.com/ananke/action/ananke@v1",
		"component: gitlab.com/ananke/action/ananke@$CI_COMMIT_SHA"},
	{"examples/gitlab/include.gitlab-ci.yml",
		"remote: https://raw.githubusercontent.com/ananke/action/v1/" + gitlabTemplate,
		"local: " + gitlabTemplate},
}

// gitlabCILocal is the pinned gitlab-ci-local, run by node in dir with no
// environment but PATH and a home of its own; its standard output.
type gitlabCILocal struct {
	node, script, home string
}

func newGitLabCILocal(t *testing.T) *gitlabCILocal {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is not installed (%v): the GitLab pipeline files are checked by gitlab-ci-local from testdata/interop; install Node >= 20, then run `npm ci` there", err)
	}
	script := filepath.Join(repoRoot(), "testdata", "interop", "node_modules", "gitlab-ci-local", "dist", "index.js")
	if _, err := os.Stat(script); err != nil {
		t.Fatalf("gitlab-ci-local is not installed (%v): run `npm ci` in testdata/interop (bash .ci/run does)", err)
	}
	return &gitlabCILocal{node: node, script: script, home: t.TempDir()}
}

func (g *gitlabCILocal) env() []string {
	return []string{"PATH=" + os.Getenv("PATH"), "HOME=" + g.home, "GIT_CONFIG_NOSYSTEM=1", "NO_COLOR=1"}
}

// run runs `argv` in dir (git or gitlab-ci-local) and returns its stdout.
func (g *gitlabCILocal) run(t *testing.T, dir string, argv ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a hang guard
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = dir, g.env()
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s%s", strings.Join(argv, " "), err, out.String(), errOut.String())
	}
	return out.Bytes()
}

// gci runs gitlab-ci-local with args in the project dir.
func (g *gitlabCILocal) gci(t *testing.T, dir string, args ...string) []byte {
	t.Helper()
	return g.run(t, dir, append([]string{g.node, g.script, "--no-color"}, args...)...)
}

// project makes a GitLab project of the pipeline file pipeline and this
// checkout's GitLab files, committed on main, its origin
// gitlab.com/ananke/action.
func (g *gitlabCILocal) project(t *testing.T, pipeline string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{".gitlab-ci.yml": pipeline}
	for _, f := range []string{gitlabComponent, gitlabTemplate} {
		b, err := os.ReadFile(filepath.Join(repoRoot(), f))
		if err != nil {
			t.Fatal(err)
		}
		files[f] = string(b)
	}
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, argv := range [][]string{
		{"git", "init", "-q", "-b", "main"},
		{"git", "config", "user.name", "Ananke tests"},
		{"git", "config", "user.email", "tests@ananke.invalid"},
		{"git", "remote", "add", "origin", "https://gitlab.com/ananke/action.git"},
		{"git", "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main"},
		{"git", "add", "-A"},
		{"git", "commit", "-q", "-m", "pipeline"},
	} {
		g.run(t, dir, argv...)
	}
	return dir
}

// gitlabSchema compiles GitLab's JSON Schema for .gitlab-ci.yml as the
// pinned gitlab-ci-local bundles it (testdata/interop/gitlab-ci-schema.mjs).
func gitlabSchema(t *testing.T, g *gitlabCILocal) *jsonschema.Schema {
	t.Helper()
	out := g.run(t, filepath.Join(repoRoot(), "testdata", "interop"), g.node, "gitlab-ci-schema.mjs")
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
	if err != nil {
		t.Fatalf("gitlab-ci-schema.mjs: %v", err)
	}
	const id = "https://gitlab.com/.gitlab-ci.yml"
	c := jsonschema.NewCompiler()
	if err := c.AddResource(id, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// yamlDocs decodes every YAML document of b.
func yamlDocs(t *testing.T, name string, b []byte) []map[string]any {
	t.Helper()
	var docs []map[string]any
	dec := yaml.NewDecoder(bytes.NewReader(b))
	for {
		var doc map[string]any
		err := dec.Decode(&doc)
		if err != nil {
			if errors.Is(err, io.EOF) {
				return docs
			}
			t.Fatalf("%s: %v", name, err)
		}
		docs = append(docs, doc)
	}
}

// validate validates a YAML document against the schema.
func validate(s *jsonschema.Schema, doc map[string]any) error {
	b, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return err
	}
	return s.Validate(v)
}

// TestGitLabPipelines: each pasted example, with the component or the
// template it includes, resolves in gitlab-ci-local into one valid job
// that runs Ananke's image with the agent as a service, runs `ananke run`
// and `ananke publish gitlab` with flags Ananke has on the same report
// directory, reports the JUnit and Code Quality files Ananke writes there
// and keeps the directory as its artifact, whatever the job's result; it
// runs in merge request pipelines and on the default branch, not on other
// branches. Every file is valid against GitLab's schema as written,
// the component's spec header included.
func TestGitLabPipelines(t *testing.T) {
	g := newGitLabCILocal(t)
	schema := gitlabSchema(t, g)
	written := writtenReportDir(t)
	for _, f := range []string{gitlabComponent, gitlabTemplate, gitlabExamples[0].file, gitlabExamples[1].file} {
		b, err := os.ReadFile(filepath.Join(repoRoot(), f))
		if err != nil {
			t.Fatal(err)
		}
		docs := yamlDocs(t, f, b)
		if want := map[bool]int{true: 2, false: 1}[f == gitlabComponent]; len(docs) != want {
			t.Errorf("%s has %d YAML documents; want %d", f, len(docs), want)
		}
		for i, doc := range docs {
			if err := validate(schema, doc); err != nil {
				t.Errorf("%s, document %d, is not valid against GitLab's schema: %v", f, i+1, err)
			}
		}
	}
	for _, ex := range gitlabExamples {
		t.Run(filepath.Base(ex.file), func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(repoRoot(), ex.file))
			if err != nil {
				t.Fatal(err)
			}
			if strings.Count(string(b), ex.include) != 1 {
				t.Fatalf("%s does not include %q once", ex.file, ex.include)
			}
			dir := g.project(t, strings.Replace(string(b), ex.include, ex.local, 1))
			preview := g.gci(t, dir, "--preview")
			docs := yamlDocs(t, "the preview", preview)
			if len(docs) != 1 {
				t.Fatalf("the preview has %d documents:\n%s", len(docs), preview)
			}
			if err := validate(schema, docs[0]); err != nil {
				t.Errorf("the resolved pipeline is not valid against GitLab's schema: %v\n%s", err, preview)
			}
			name, job := anankeJob(t, docs[0])
			checkGitLabJob(t, job, written)
			checkGitLabRules(t, g, dir, name)
		})
	}
}

// anankeJob is the one job of a resolved pipeline that runs ananke.
func anankeJob(t *testing.T, pipeline map[string]any) (string, map[string]any) {
	t.Helper()
	var names []string
	for name, v := range pipeline {
		job, ok := v.(map[string]any)
		if !ok || name == "default" || name == "workflow" || name == "variables" {
			continue
		}
		for _, line := range stringList(job["script"]) {
			if strings.Contains(line, "ananke ") {
				names = append(names, name)
				break
			}
		}
	}
	if len(names) != 1 {
		t.Fatalf("jobs running ananke: %q; want one", names)
	}
	return names[0], pipeline[names[0]].(map[string]any)
}

// stringList is a YAML list of strings (or one string) as a list.
func stringList(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, e := range v {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// checkGitLabJob checks the resolved job (see TestGitLabPipelines).
func checkGitLabJob(t *testing.T, job map[string]any, written string) {
	image, _ := job["image"].(map[string]any)
	if image["name"] != releasedImage || !slices.Equal(stringList(image["entrypoint"]), []string{""}) {
		// The image's entry point is ananke (Dockerfile): the runner needs it
		// cleared to run its shell.
		t.Errorf("image = %v; want name %s with the entry point cleared ([\"\"])", job["image"], releasedImage)
	}
	vars := map[string]string{}
	jobVars, _ := job["variables"].(map[string]any)
	for k, v := range jobVars {
		vars[k], _ = v.(string)
	}
	services, _ := job["services"].([]any)
	var alias string
	if len(services) == 1 {
		s, _ := services[0].(map[string]any)
		alias, _ = s["alias"].(string)
	}
	if alias == "" {
		t.Errorf("services = %v; want the agent, with an alias", job["services"])
	}

	script := anankeCommands(t, "script", stringList(job["script"]), vars)
	after := anankeCommands(t, "after_script", stringList(job["after_script"]), vars)
	if len(script) != 1 || script[0][0] != "run" {
		t.Fatalf("the script's ananke commands: %q; want one ananke run", script)
	}
	run, err := anankeFlags(script[0])
	if err != nil {
		t.Fatal(err)
	}
	reportDir := flagValue(t, run, "report-dir")
	if u, err := url.Parse(flagValue(t, run, "endpoint")); err != nil || u.Hostname() != alias {
		t.Errorf("ananke run --endpoint %q: want the agent's service, %s", flagValue(t, run, "endpoint"), alias)
	}
	if len(after) != 1 || len(after[0]) < 2 || after[0][0] != "publish" || after[0][1] != "gitlab" {
		t.Errorf("the after_script's ananke commands: %q; want one ananke publish gitlab", after)
	} else if publish, err := anankeFlags(after[0]); err != nil {
		t.Error(err)
	} else if got := flagValue(t, publish, "report-dir"); got != reportDir {
		t.Errorf("ananke publish gitlab --report-dir %q; want ananke run's, %q", got, reportDir)
	}

	artifacts, _ := job["artifacts"].(map[string]any)
	if artifacts["when"] != "always" {
		t.Errorf("artifacts:when = %v; want always (the reports of a failed run matter most)", artifacts["when"])
	}
	expand := func(s string) string {
		return os.Expand(s, func(name string) string {
			v, ok := vars[name]
			if !ok {
				t.Errorf("artifacts: $%s is not a variable of the job", name)
			}
			return v
		})
	}
	paths := stringList(artifacts["paths"])
	if len(paths) != 1 || expand(paths[0]) != strings.TrimSuffix(reportDir, "/")+"/" {
		t.Errorf("artifacts:paths = %q; want the report directory, %s/", paths, reportDir)
	}
	reports, _ := artifacts["reports"].(map[string]any)
	for kind, file := range map[string]string{"junit": "junit.xml", "codequality": "gl-code-quality-report.json"} {
		got, _ := reports[kind].(string)
		if want := strings.TrimSuffix(reportDir, "/") + "/" + file; expand(got) != want {
			t.Errorf("artifacts:reports:%s = %q; want %s", kind, got, want)
		}
		if err := inReportDir(expand(got), reportDir, written); err != nil {
			t.Errorf("artifacts:reports:%s: %v", kind, err)
		}
	}
}

// checkGitLabRules: the job runs in a merge request pipeline and on the
// default branch, and not for a push to another branch.
func checkGitLabRules(t *testing.T, g *gitlabCILocal, dir, job string) {
	when := func(args ...string) string {
		var jobs []struct{ Name, When string }
		// The preview validated the pipeline already.
		out := g.gci(t, dir, append([]string{"--list-json", "--json-schema-validation=false"}, args...)...)
		if err := json.Unmarshal(out, &jobs); err != nil {
			t.Fatalf("gitlab-ci-local --list-json: %v\n%s", err, out)
		}
		for _, j := range jobs {
			if j.Name == job {
				return j.When
			}
		}
		t.Fatalf("gitlab-ci-local --list-json lists no job %s:\n%s", job, out)
		return ""
	}
	if got := when(); got != "on_success" {
		t.Errorf("a push to the default branch: the job is %s; want on_success", got)
	}
	g.run(t, dir, "git", "checkout", "-q", "-b", "feature")
	if got := when(); got != "never" {
		t.Errorf("a push to another branch: the job is %s; want never", got)
	}
	mr := []string{"--variable", "CI_PIPELINE_SOURCE=merge_request_event", "--ignore-predefined-vars", "CI_PIPELINE_SOURCE"}
	if got := when(mr...); got != "on_success" {
		t.Errorf("a merge request pipeline: the job is %s; want on_success", got)
	}
}

// inputRef is a use of an input in a component.
var inputRef = regexp.MustCompile(`\$\[\[\s*inputs\.([A-Za-z0-9_-]+)\s*\]\]`)

// TestGitLabTemplatesAgree: the component and the template are one job
// configured two ways — the same image, script, after_script, rules,
// artifacts:when and variables (the component sets each from its inputs,
// none from an input GitLab would insert as a boolean or a list); the
// component uses every input it declares and declares every one it uses.
// Read as written, with no gitlab-ci-local.
func TestGitLabTemplatesAgree(t *testing.T) {
	read := func(name string) []map[string]any {
		b, err := os.ReadFile(filepath.Join(repoRoot(), name))
		if err != nil {
			t.Fatal(err)
		}
		return yamlDocs(t, name, b)
	}
	component, template := read(gitlabComponent), read(gitlabTemplate)
	if len(component) != 2 || len(template) != 1 {
		t.Fatalf("%s has %d documents (want a spec header and the job), %s %d (want 1)", gitlabComponent, len(component), gitlabTemplate, len(template))
	}
	spec, _ := component[0]["spec"].(map[string]any)
	inputs, _ := spec["inputs"].(map[string]any)
	if len(component[1]) != 1 {
		t.Fatalf("%s defines %d jobs; want one", gitlabComponent, len(component[1]))
	}
	var cjob, tjob map[string]any
	for _, v := range component[1] {
		cjob, _ = v.(map[string]any)
	}
	tjob, _ = template[0][".ananke"].(map[string]any)
	if tjob == nil {
		t.Fatalf("%s has no .ananke", gitlabTemplate)
	}
	if ext, _ := template[0]["ananke"].(map[string]any); ext == nil || ext["extends"] != ".ananke" {
		t.Errorf("%s: ananke = %v; want a job extending .ananke", gitlabTemplate, template[0]["ananke"])
	}
	keys := func(m any) []string {
		mm, _ := m.(map[string]any)
		var out []string
		for k := range mm {
			out = append(out, k)
		}
		slices.Sort(out)
		return out
	}
	for _, key := range []string{"script", "after_script", "rules"} {
		c, _ := yaml.Marshal(cjob[key])
		tm, _ := yaml.Marshal(tjob[key])
		if !bytes.Equal(c, tm) {
			t.Errorf("%s differ:\n%s: %s\n%s: %s", key, gitlabComponent, c, gitlabTemplate, tm)
		}
	}
	if c, tm := keys(cjob["variables"]), keys(tjob["variables"]); !slices.Equal(c, tm) {
		t.Errorf("variables differ: %s sets %q, %s %q", gitlabComponent, c, gitlabTemplate, tm)
	}
	if img, _ := tjob["image"].(map[string]any); img["name"] != releasedImage {
		t.Errorf("%s's image is %v; want %s", gitlabTemplate, tjob["image"], releasedImage)
	}
	if in, _ := inputs["image"].(map[string]any); in["default"] != releasedImage {
		t.Errorf("%s's image input defaults to %v; want %s", gitlabComponent, inputs["image"], releasedImage)
	}
	ca, _ := cjob["artifacts"].(map[string]any)
	ta, _ := tjob["artifacts"].(map[string]any)
	if ca["when"] != "always" || ta["when"] != "always" {
		t.Errorf("artifacts:when = %v and %v; want always", ca["when"], ta["when"])
	}

	// An input that is a value's whole keeps its type (GitLab's inputs), and
	// a variable's value must be a string or an integer (its Variable
	// entry); gitlab-ci-local makes every value a string, so it cannot tell.
	cvars, _ := cjob["variables"].(map[string]any)
	for name, v := range cvars {
		s, _ := v.(string)
		m := inputRef.FindStringSubmatch(s)
		if m == nil || m[0] != strings.TrimSpace(s) {
			continue
		}
		in, _ := inputs[m[1]].(map[string]any)
		if typ, _ := in["type"].(string); typ != "string" && typ != "number" {
			t.Errorf("%s: variables:%s is the input %s, of type %q: GitLab takes a string or a number there", gitlabComponent, name, m[1], typ)
		}
	}

	b, err := os.ReadFile(filepath.Join(repoRoot(), gitlabComponent))
	if err != nil {
		t.Fatal(err)
	}
	_, body, _ := strings.Cut(string(b), "\n---\n")
	used := map[string]bool{}
	for _, m := range inputRef.FindAllStringSubmatch(body, -1) {
		used[m[1]] = true
		if _, ok := inputs[m[1]]; !ok {
			t.Errorf("%s uses the input %s, which its spec does not declare", gitlabComponent, m[1])
		}
	}
	for _, name := range keys(inputs) {
		if !used[name] {
			t.Errorf("%s declares the input %s and never uses it", gitlabComponent, name)
		}
	}
}

// TestGitLabDocsShowExamples: docs/gitlab.md shows each example as it is
// (without its heading comment), so what readers paste is what is tested.
func TestGitLabDocsShowExamples(t *testing.T) {
	for _, ex := range gitlabExamples {
		docShows(t, "docs/gitlab.md", ex.file, "yaml", "#")
	}
}
