package report_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/vars"
)

func TestRedactor(t *testing.T) {
	r := report.NewRedactor([]string{"s3cret", `quo"te`, "ab", "s3cret-longer"}, []*regexp.Regexp{regexp.MustCompile(`tok_[0-9]+`)})
	for in, want := range map[string]string{
		"key s3cret-longer and s3cret":    "key *** and ***",
		`json {"k":"quo\"te"} raw quo"te`: `json {"k":"***"} raw ***`,
		"tok_123 stays masked":            "*** stays masked",
		"ab is too short to mask":         "ab is too short to mask",
		"":                                "",
	} {
		if got := r.String(in); got != want {
			t.Errorf("String(%q) = %q; want %q", in, got, want)
		}
	}
	// A pattern that eats a quote must not leave broken JSON behind.
	q := report.NewRedactor(nil, []*regexp.Regexp{regexp.MustCompile(`"secret":"[^"]*"`)})
	got := q.JSON(json.RawMessage(`{"secret":"x","ok":1}`))
	if !json.Valid(got) || strings.Contains(string(got), `"x"`) {
		t.Errorf("JSON = %s; want valid JSON without the value", got)
	}
}

// TestBuildMasksEverything: the secret planted in agent text, tool
// arguments, a trace event and a hook's stderr survives nowhere in the
// report, the traces included.
func TestBuildMasksEverything(t *testing.T) {
	rep := reporttest.Report()
	all, _ := json.Marshal(rep)
	for _, tt := range rep.Tests {
		b, _ := json.Marshal(tt.Trace)
		all = append(all, b...)
	}
	if strings.Contains(string(all), reporttest.Secret) {
		t.Fatalf("the secret survives in the report:\n%s", all)
	}
	if n := strings.Count(string(all), report.Mask); n < 6 {
		t.Errorf("%d masks; the secret appears at least 6 times in the fixture", n)
	}
}

func TestBuildTotalsAndShape(t *testing.T) {
	rep := reporttest.Report()
	// The passing test's warning judge could not be made: counted, while
	// the test passes.
	want := report.Totals{Total: 6, Passed: 2, Failed: 2, Errored: 1, Skipped: 1, Flaky: 2, Warned: 1, NotMade: 1, PassRate: 40}
	got := rep.Totals
	got.Usage = nil // TestUsage checks it
	if got != want {
		t.Errorf("totals = %+v; want %+v", got, want)
	}
	if rep.Schema != "ananke.report/v1" || rep.DurationMs != 1700 || rep.Target.Endpoint != "https://agent.example.com/agui" {
		t.Errorf("header = %+v", rep)
	}
	ft := rep.Tests[0]
	if ft.Status != "fail" || len(ft.Failed()) != 2 || ft.Turns[1].ToolCalls[0].AtMs != 1300 || ft.Turns[1].ToolCalls[0].DurationMs != 150 {
		t.Errorf("failing test = %+v", ft)
	}
	if pt := rep.Tests[1]; pt.Status != status.Pass || len(pt.NotMade()) != 1 || pt.NotMade()[0].ID != "turn[0].judge" {
		t.Errorf("passing test: %s, checks not made %+v", pt.Status, pt.NotMade())
	}
	if at := rep.Tests[2].At; at == nil || at.String() != "tests/refund.ananke.yaml:5:5" {
		t.Errorf("error location = %v", at)
	}
	js, _ := json.Marshal(rep.Tests[3])
	if strings.Contains(string(js), "null") {
		t.Errorf("a skipped test renders null lists: %s", js)
	}
}

// TestBuildStability: runs, pass rates, the shown attempt and how often
// each assertion failed come through from the engine's verdicts.
func TestBuildStability(t *testing.T) {
	rep := reporttest.Report()
	if rep.Status != status.Fail {
		t.Errorf("run status %q", rep.Status)
	}
	search, flip := rep.Tests[4], rep.Tests[5]
	if search.Status != "pass" || search.Runs != 3 || search.PassedRuns != 2 || search.PassRate != 66.7 || search.MinPassRate != 60 || !search.Flaky || search.Shown != 3 {
		t.Errorf("search = status %s runs %d passed %d rate %v min %v flaky %v shown %d", search.Status, search.Runs, search.PassedRuns, search.PassRate, search.MinPassRate, search.Flaky, search.Shown)
	}
	if w := search.Wobbly(); len(w) != 1 || w[0].FailedRuns != 1 || w[0].Status != "pass" {
		t.Errorf("search wobbly = %+v", w)
	}
	if a, f, ok := search.FirstFailure("turn[0].tools.require[0]"); !ok || a.Label() != "run 2" || f.Status != "fail" {
		t.Errorf("first failure = %v %+v %v", a.Label(), f, ok)
	}
	if flip.Status != "fail" || flip.Reason != "1 of 2 runs passed (50%), below min_pass_rate 100%" || flip.Shown != 1 || flip.Retries != 1 {
		t.Errorf("flip = status %s reason %q shown %d retries %d", flip.Status, flip.Reason, flip.Shown, flip.Retries)
	}
	if o := flip.Others(); len(o) != 1 || o[0].Label() != "run 1 retry 1" {
		t.Errorf("flip others = %+v", o)
	}
	if f := flip.Failed(); len(f) != 1 || f[0].FailedRuns != 2 {
		t.Errorf("flip failed = %+v", f)
	}
	if single := rep.Tests[0]; single.Runs != 1 || single.PassedRuns != 0 || single.Flaky || len(single.Attempts) != 1 || single.Shown != 1 || single.Repeated() {
		t.Errorf("single-run test = runs %d passed %d flaky %v attempts %d shown %d", single.Runs, single.PassedRuns, single.Flaky, len(single.Attempts), single.Shown)
	}
	if skipped := rep.Tests[3]; skipped.Runs != 0 || skipped.Shown != 0 || len(skipped.Attempts) != 0 || skipped.TraceFile != "tests/tests_legacy.trace.json" {
		t.Errorf("skipped test = runs %d shown %d attempts %d trace %q", skipped.Runs, skipped.Shown, len(skipped.Attempts), skipped.TraceFile)
	}
}

// TestRunStatus: a flaky test fails the run only with fail-on-flaky, from
// the flag or the config; a failure outranks an error.
func TestRunStatus(t *testing.T) {
	out := reporttest.Outcome()
	flakyOnly := &engine.Outcome{Tests: out.Tests[4:5], Start: out.Start, End: out.End}
	errored := &engine.Outcome{Tests: out.Tests[1:3], Start: out.Start, End: out.End}
	cfg := reporttest.Config()
	strict := *cfg
	strict.FailOnFlaky = true
	for _, tc := range []struct {
		name string
		out  *engine.Outcome
		meta report.Meta
		want status.Status
	}{
		{"flaky pass", flakyOnly, report.Meta{Config: cfg}, status.Pass},
		{"flaky with --fail-on-flaky", flakyOnly, report.Meta{Config: cfg, FailOnFlaky: true}, status.Fail},
		{"flaky with fail_on_flaky", flakyOnly, report.Meta{Config: &strict}, status.Fail},
		{"error", errored, report.Meta{Config: cfg}, status.Error},
		{"everything", out, report.Meta{Config: cfg}, status.Fail},
	} {
		if got := report.Build(tc.out, tc.meta); got.Status != tc.want || got.FailOnFlaky != (tc.want == status.Fail && tc.name != "everything") {
			t.Errorf("%s: status %q fail_on_flaky %v; want %q", tc.name, got.Status, got.FailOnFlaky, tc.want)
		}
	}
}

// TestBuildNamesTarget: summary.json says where the agent is for every
// target type — an A2A agent's card URL, a stdio MCP server's command —
// as configured, masked.
func TestBuildNamesTarget(t *testing.T) {
	redact := []*vars.Regex{vars.MustRegex(`tok_[a-z0-9]{8}`)}
	for _, tc := range []struct {
		name   string
		target spec.Target
		want   report.Target
	}{
		{"a2a card", spec.Target{Type: "a2a", A2A: &spec.A2ATarget{AgentCardURL: vars.Literal("https://agent.example.com/card.json")}},
			report.Target{Type: "a2a", AgentCardURL: "https://agent.example.com/card.json"}},
		{"a2a card and endpoint", spec.Target{Type: "a2a", Endpoint: vars.Literal("http://localhost:9999/rpc"),
			A2A: &spec.A2ATarget{AgentCardURL: vars.Literal("https://agent.example.com")}},
			report.Target{Type: "a2a", Endpoint: "http://localhost:9999/rpc", AgentCardURL: "https://agent.example.com"}},
		{"mcp stdio", spec.Target{Type: "mcp", MCP: &spec.MCPTarget{Transport: spec.MCPStdio,
			Command: []vars.Template{vars.Literal("node"), vars.Literal("server.js"), vars.Literal("--token=tok_abcdefgh")}}},
			report.Target{Type: "mcp", Command: []string{"node", "server.js", "--token=" + report.Mask}}},
		{"mcp http", spec.Target{Type: "mcp", Endpoint: vars.Literal("http://127.0.0.1:3001/mcp"), MCP: &spec.MCPTarget{Transport: spec.MCPHTTP}},
			report.Target{Type: "mcp", Endpoint: "http://127.0.0.1:3001/mcp"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := report.Build(reporttest.Outcome(), report.Meta{Version: "v1", Parallel: 1,
				Config: &spec.Config{Path: "ananke.config.yaml", Target: tc.target, Redact: redact}})
			got, _ := json.Marshal(rep.Target)
			want, _ := json.Marshal(tc.want)
			if string(got) != string(want) {
				t.Errorf("target %s, want %s", got, want)
			}
		})
	}
}
