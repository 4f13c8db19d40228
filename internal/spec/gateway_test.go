package spec

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"

	gwdecl "github.com/ananke/action/internal/gateway/decl"
)

const gatewayConfig = minimalConfig + `gateway:
  listen: "127.0.0.1:4391"
  upstream: "${ENV.OPENAI_BASE_URL}"
  api_key: "${ENV.OPENAI_API_KEY}"
  mode: record
`

// TestGateway: the config's gateway: and a test's are read into the
// suite, by internal/gateway.
func TestGateway(t *testing.T) {
	test := "version: \"1.0\"\nname: t\nturns: [{user: hi}, {user: again}]\ngateway:\n  faults: [{call: 1, status: 429, retry_after: 2}, {turn: 1, call: 1, fault: truncate}]\n"
	s, diags := loadSuite(t, map[string]string{"ananke.config.yaml": gatewayConfig, "t.ananke.yaml": test, "u.ananke.yaml": pricingTest})
	if diags != nil {
		t.Fatal(diags)
	}
	g := s.Config.Gateway
	if g == nil || g.Mode != gwdecl.Record || g.Listen.Raw != "127.0.0.1:4391" || g.APIKey.Raw != "${ENV.OPENAI_API_KEY}" {
		t.Fatalf("config gateway %+v", g)
	}
	byID := map[string]*Test{}
	for _, tt := range s.Tests {
		byID[tt.ID] = tt
	}
	if byID["u"].Gateway != nil {
		t.Error("a test without gateway: has one")
	}
	faults := byID["t"].Gateway.Faults
	if len(faults) != 2 || faults[0].Status != 429 || *faults[0].RetryAfter != 2 || *faults[1].Turn != 1 || faults[1].Kind != gwdecl.FaultTruncate {
		t.Errorf("faults %+v", faults)
	}
}

// TestGatewayErrors: a fault on a turn the test does not have, and
// faults on a test with a source, are errors at their place.
func TestGatewayErrors(t *testing.T) {
	test := "version: \"1.0\"\nname: t\nturns: [{user: hi}]\ngateway:\n  faults: [{turn: 1, call: 1, status: 500}]\n"
	src := "version: \"1.0\"\nname: s\nsource: {format: claude-transcript, path: x.jsonl}\ngateway: {faults: []}\n"
	_, diags := loadSuite(t, map[string]string{"ananke.config.yaml": gatewayConfig, "t.ananke.yaml": test, "s.ananke.yaml": src, "x.jsonl": "{}\n"})
	got := diags.Error()
	for _, want := range []string{
		"t.ananke.yaml:5:12: gateway.faults[0].turn is 1, but the test has 1 turns (the first is turn 0)",
		"s.ananke.yaml:4:1: gateway: a test with a source talks to no agent, so no model call of it goes through the gateway",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
}

// TestGatewaySchema: the published schemas take the gateway's syntax
// and refuse what the loader refuses.
func TestGatewaySchema(t *testing.T) {
	asJSON := func(src string) any {
		var v any
		if err := yaml.Unmarshal([]byte(src), &v); err != nil {
			t.Fatal(err)
		}
		js, _ := json.Marshal(v)
		out, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	cfg, test := compileSchema(t, "config"), compileSchema(t, "test")
	for _, tc := range []struct {
		schema *jsonschema.Schema
		src    string
		ok     bool
	}{
		{cfg, gatewayConfig, true},
		{cfg, minimalConfig + "gateway: {listen: \":4391\", mode: replay}\n", true},
		{cfg, minimalConfig + "gateway: {listen: \":4391\"}\n", false},
		{cfg, minimalConfig + "gateway: {listen: \":4391\", mode: replay, timeout: 1}\n", false},
		{test, "version: \"1.0\"\nname: t\nturns: [{user: hi}]\ngateway: {faults: [{call: 1, status: 429, retry_after: 1}, {turn: 0, call: 2, fault: drop}]}\n", true},
		{test, "version: \"1.0\"\nname: t\nturns: [{user: hi}]\ngateway: {faults: [{call: 1, status: 429, fault: drop}]}\n", false},
		{test, "version: \"1.0\"\nname: t\nturns: [{user: hi}]\ngateway: {faults: [{call: 1, fault: drop, retry_after: 1}]}\n", false},
		{test, "version: \"1.0\"\nname: t\nturns: [{user: hi}]\ngateway: {faults: [{call: 1}]}\n", false},
	} {
		err := tc.schema.Validate(asJSON(tc.src))
		if (err == nil) != tc.ok {
			t.Errorf("%s: valid %v, want %v (%v)", tc.src, err == nil, tc.ok, err)
		}
	}
}
