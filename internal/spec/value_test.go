package spec

import (
	"strings"
	"testing"

	"github.com/ananke/action/internal/vars"
)

func TestValueResolve(t *testing.T) {
	cfg := mustConfig(t, minimalConfig+`  forwardedProps:
    z: first
    a: [1, 2.50, true, null, "${ENV.TOKEN}"]
    nested: {html: "<b>&</b>", hex: 0x1F, big: 1e3}
  state: "just a string"
`)
	v := vars.NewVars(func(k string) (string, bool) { return "tok", k == "TOKEN" })
	got, err := cfg.Target.ForwardedProps.Resolve(v)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"z":"first","a":[1,2.50,true,null,"tok"],"nested":{"html":"<b>&</b>","hex":31,"big":1e3}}`
	if string(got) != want {
		t.Errorf("forwardedProps = %s\nwant %s", got, want)
	}
	if s, err := cfg.Target.State.Resolve(v); err != nil || string(s) != `"just a string"` {
		t.Errorf("state = %s, %v", s, err)
	}
	if got, _ := (vars.Value{}).Resolve(v); got != nil {
		t.Errorf("absent value resolved to %s; want nil", got)
	}
}

func TestValueErrors(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{"  state: {a: .inf}\n", "has no JSON form"},
		{"  state: {[1]: x}\n", "mapping keys must be strings"},
		{"  state: {a: \"${\"}\n", `unterminated "${"`},
		{"  forwardedProps: [1]\n", "target.forwardedProps must be a mapping, not a list"},
	} {
		_, diags := parseConfig(t, minimalConfig+tc.body)
		if !hasDiag(diags, tc.want) {
			t.Errorf("%q: diagnostics %v; want one containing %q", tc.body, diags, tc.want)
		}
	}
}

func TestClientToolResults(t *testing.T) {
	tt := mustTest(t, `version: "1.0"
name: tools
tools:
  - name: confirm
    parameters: {type: object, properties: {amount: {type: number}}}
    result: "yes"
  - name: quote
    result: {price: 42, currency: EUR}
  - name: pick
    results:
      - args_match: {choice: "^a$"}
        result: first
      - result: other
turns: [{user: hi}]
`)
	v := vars.NewVars(nil)
	if s, _ := tt.Tools[0].Result.ResolveString(v); s != "yes" {
		t.Errorf("string result = %q; want yes", s)
	}
	if s, _ := tt.Tools[1].Result.ResolveString(v); s != `{"price":42,"currency":"EUR"}` {
		t.Errorf("object result = %q", s)
	}
	if p, _ := tt.Tools[0].Parameters.Resolve(v); !strings.Contains(string(p), `"amount":{"type":"number"}`) {
		t.Errorf("parameters = %s", p)
	}
	if n := len(tt.Tools[2].Results); n != 2 || len(tt.Tools[2].Results[0].ArgsMatch) != 1 {
		t.Fatalf("results = %+v", tt.Tools[2].Results)
	}
}
