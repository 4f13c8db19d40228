package spec

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/diag"
)

const doublesConfig = `version: "1.2"
target: {type: agui, endpoint: "http://localhost:8000/agent", agentId: shop}
backend: {forward_test_header: true}
doubles:
  listen: "${ENV.DOUBLES_LISTEN}"
  tools:
    - name: check_stock
      input_schema: {type: object, properties: {sku: {type: string}}}
      output_schema: {type: object, properties: {in_stock: {type: integer}}, required: [in_stock]}
      result: {in_stock: 4}
    - name: place_order
`

// TestDoublesLoad: the config's backend: and doubles:, a test file's
// doubles: and its turns' are read into the suite — the test's plan holds
// its own answers and each turn's by index.
func TestDoublesLoad(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"ananke.config.yaml": doublesConfig,
		"tests/stock.ananke.yaml": `version: "1.2"
name: stock
doubles:
  place_order: {result: ordered}
turns:
  - user: hi
  - user: buy
    doubles:
      check_stock: {fault: timeout}
`,
		"tests/plain.ananke.yaml": "version: \"1.2\"\nname: plain\nturns: [{user: hi}]\n",
	})
	s, err := Load(Options{ConfigPath: filepath.Join(dir, "ananke.config.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	c := s.Config
	if !c.Backend.ForwardTestHeader || c.Doubles == nil || len(c.Doubles.Tools) != 2 || c.Doubles.Listen.Raw != "${ENV.DOUBLES_LISTEN}" || c.Doubles.Path != "/mcp" {
		t.Fatalf("config: backend %+v, doubles %+v", c.Backend, c.Doubles)
	}
	byID := map[string]*Test{}
	for _, tt := range s.Tests {
		byID[tt.ID] = tt
	}
	if p := byID["tests/plain"].Doubles; p != nil {
		t.Errorf("a test without doubles has a plan: %+v", p)
	}
	p := byID["tests/stock"].Doubles
	if p == nil || string(p.Test["place_order"].Reply.Result) != `"ordered"` || p.Turns[1]["check_stock"].Reply.Fault != "timeout" || len(p.Turns) != 1 {
		t.Fatalf("plan: %+v", p)
	}
	if ch := c.Doubles.Choose(p, 1, "check_stock", nil); ch.Label != "turn[1]" {
		t.Errorf("turn 1 chose %q", ch.Label)
	}
}

// TestDoublesProblems: every problem of the doubles, in the config and in
// the test files, is reported at once at its place.
func TestDoublesProblems(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"ananke.config.yaml": strings.Replace(doublesConfig, "forward_test_header: true", "forward: yes", 1) + "      fault: hang\n",
		"tests/stock.ananke.yaml": `version: "1.2"
name: stock
doubles:
  check_stok: {result: x}
turns:
  - user: hi
    doubles:
      check_stock: {result: {in_stock: many}}
`,
	})
	_, err := Load(Options{ConfigPath: filepath.Join(dir, "ananke.config.yaml")})
	var diags diag.Diagnostics
	if !errors.As(err, &diags) {
		t.Fatalf("Load: %v", err)
	}
	got := strings.ReplaceAll(diags.Error(), dir+string(filepath.Separator), "")
	for _, want := range []string{
		`ananke.config.yaml:3:11: unknown field "forward" in backend; known fields: forward_test_header`,
		`ananke.config.yaml:12:14: doubles.tools[1].fault "hang" is not a fault: write timeout, drop or malformed`,
		`tests/stock.ananke.yaml:4:3: doubles.check_stok: tool "check_stok" is not declared in the config's doubles.tools (did you mean "check_stock"?)`,
		`tests/stock.ananke.yaml:8:40: turns[0].doubles.check_stock.result does not match the output schema of check_stock: at /in_stock: got string, want integer`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
}

// TestDoublesSchema: the published schemas accept the doubles the loader
// accepts, and reject a fault it rejects.
func TestDoublesSchema(t *testing.T) {
	test := "version: \"1.2\"\nname: t\ndoubles: {place_order: {result: ok, match: [{args: {sku: A}, fault: drop}]}}\nturns:\n  - user: hi\n    doubles: {check_stock: {result: {in_stock: 1}, latency_ms: 20}}\n  - type: agui:connect\n    doubles: {check_stock: {fault: malformed}}\n"
	dir := writeFiles(t, map[string]string{"ananke.config.yaml": doublesConfig, "t.ananke.yaml": test,
		"bad.ananke.yaml": strings.Replace(test, "fault: drop", "fault: dropped", 1)})
	config, tests := compileSchema(t, "config"), compileSchema(t, "test")
	if err := config.Validate(yamlAsJSON(t, filepath.Join(dir, "ananke.config.yaml"))); err != nil {
		t.Errorf("config rejected: %v", err)
	}
	if err := tests.Validate(yamlAsJSON(t, filepath.Join(dir, "t.ananke.yaml"))); err != nil {
		t.Errorf("test rejected: %v", err)
	}
	if err := tests.Validate(yamlAsJSON(t, filepath.Join(dir, "bad.ananke.yaml"))); err == nil {
		t.Error("a fault that is not one is accepted")
	}
	if _, err := Load(Options{ConfigPath: filepath.Join(dir, "ananke.config.yaml"), Paths: []string{filepath.Join(dir, "t.ananke.yaml")}}); err != nil {
		t.Errorf("the loader rejects what the schema accepts: %v", err)
	}
}
