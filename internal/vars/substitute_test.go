package vars

import (
	"slices"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/diag"
)

// TestSubstitute: the references set aside become literal text — never
// looked up, never secrets, not listed by Refs — and the others resolve
// against the variables as before.
func TestSubstitute(t *testing.T) {
	turn := func(r Ref) (string, bool) {
		if r.Name == "message" && !r.Env {
			return "<msg>", true
		}
		return "", false
	}
	getenv := func(k string) (string, bool) { return map[string]string{"TOKEN": "s3cret"}[k], k == "TOKEN" }
	at := func(off int) diag.Pos { return diag.Pos{File: "c.yaml", Line: 1, Col: 1 + off} }

	tmpl, diags := ParseTemplate("${ORDER}/${message}?k=${ENV.TOKEN}", at)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	sub := tmpl.Substitute(turn)
	v := NewVars(getenv)
	v.Set("ORDER", "o-1")
	got, err := sub.Resolve(v)
	if err != nil || got != "o-1/<msg>?k=s3cret" {
		t.Errorf("Resolve = %q, %v; want o-1/<msg>?k=s3cret", got, err)
	}
	if refs := sub.Refs(); len(refs) != 2 || refs[0].Name != "ORDER" || refs[1].Name != "TOKEN" {
		t.Errorf("Refs() = %v; want ${ORDER} and ${ENV.TOKEN}", refs)
	}
	if _, err := tmpl.Resolve(v); err == nil {
		t.Error("the template itself still resolves ${message} against the variables; want it left as it was")
	}

	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(`{a: "${message}", b: ["${ORDER} ${message}", 2], c: "${ENV.TOKEN}"}`), &doc); err != nil {
		t.Fatal(err)
	}
	val := NewValue(doc.Content[0], "c.yaml", diag.Pos{}).Substitute(turn)
	v = NewVars(getenv)
	v.Set("ORDER", "o-1")
	js, err := val.Resolve(v)
	if want := `{"a":"<msg>","b":["o-1 <msg>",2],"c":"s3cret"}`; err != nil || string(js) != want {
		t.Errorf("Value.Resolve = %s, %v; want %s", js, err, want)
	}
	if s := v.Secrets(); !slices.Equal(s, []string{"s3cret"}) {
		t.Errorf("Secrets() = %q; want the token alone", s)
	}
	if refs := val.Refs(); len(refs) != 2 || refs[0].Name != "ORDER" || refs[1].Name != "TOKEN" {
		t.Errorf("Value.Refs() = %v; want ${ORDER} and ${ENV.TOKEN}", refs)
	}
}
