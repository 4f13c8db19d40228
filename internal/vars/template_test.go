package vars

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/ananke/action/internal/diag"
)

func TestTemplateResolve(t *testing.T) {
	env := map[string]string{"TOKEN": "s3cret", "EMPTY": ""}
	getenv := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	tests := []struct {
		name, in, want, wantErr string
		secrets                 []string
	}{
		{name: "plain", in: "hello", want: "hello"},
		{name: "hook variable", in: "order ${ORDER_ID}!", want: "order o-1!"},
		{name: "two variables", in: "${ORDER_ID}/${ORDER_ID}", want: "o-1/o-1"},
		{name: "env is secret", in: "Bearer ${ENV.TOKEN}", want: "Bearer s3cret", secrets: []string{"s3cret"}},
		{name: "empty env is not a secret", in: "[${ENV.EMPTY}]", want: "[]"},
		{name: "escaped", in: "cost $${PRICE} and $$ and $", want: "cost ${PRICE} and $$ and $"},
		{name: "unknown variable", in: "x ${NOPE}", wantErr: "t.yaml:1:3: unknown variable ${NOPE} (defined: ORDER_ID; environment variables are ${ENV.NAME})"},
		{name: "unset env", in: "${ENV.MISSING}", wantErr: "t.yaml:1:1: environment variable MISSING is not set (referenced as ${ENV.MISSING})"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tmpl, diags := ParseTemplate(tc.in, func(off int) diag.Pos { return diag.Pos{File: "t.yaml", Line: 1, Col: 1 + off} })
			if len(diags) > 0 {
				t.Fatalf("parse: %v", diags)
			}
			v := NewVars(getenv)
			v.Set("ORDER_ID", "o-1")
			got, err := tmpl.Resolve(v)
			if tc.wantErr != "" {
				var re *ResolveError
				if !errors.As(err, &re) || err.Error() != tc.wantErr {
					t.Fatalf("Resolve(%q) error = %v; want %q", tc.in, err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("Resolve(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
			}
			if s := v.Secrets(); !slices.Equal(s, tc.secrets) {
				t.Errorf("Secrets() = %q; want %q", s, tc.secrets)
			}
		})
	}
}

// TestTemplateResolveURL: in a URL field the secrets are the URL's
// password and query values, and a whole ${ENV.…} only when it lies in the
// userinfo or the query — not the host or path a failure must name.
func TestTemplateResolveURL(t *testing.T) {
	env := map[string]string{
		"AGENT_URL": "https://agent.example/agui?key=sk-in-url", "HOST": "agent.example", "KEY": "sk-key-1",
		"CREDS": "ops:pw-1234", "PATH_PART": "/v1/agui", "SHORT": "ab",
	}
	getenv := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	for _, tc := range []struct {
		in, want string
		secrets  []string
	}{
		{"${ENV.AGENT_URL}", "https://agent.example/agui?key=sk-in-url", []string{"sk-in-url"}},
		{"https://${ENV.HOST}${ENV.PATH_PART}", "https://agent.example/v1/agui", nil},
		{"https://agent.example/agui?key=${ENV.KEY}", "https://agent.example/agui?key=sk-key-1", []string{"sk-key-1"}},
		{"https://${ENV.CREDS}@agent.example/", "https://ops:pw-1234@agent.example/", []string{"ops:pw-1234", "pw-1234"}},
		{"https://agent.example/agui?token=lit%2Fval&v=${ENV.SHORT}", "https://agent.example/agui?token=lit%2Fval&v=ab",
			[]string{"ab", "lit%2Fval", "lit/val"}}, // the redactor leaves "ab" alone: too short
		{"${ORDER_URL}", "https://shop.example/o?sig=from-hook", []string{"from-hook"}},
	} {
		tmpl, diags := ParseTemplate(tc.in, func(off int) diag.Pos { return diag.Pos{File: "t.yaml", Line: 1, Col: 1 + off} })
		if len(diags) > 0 {
			t.Fatalf("parse: %v", diags)
		}
		v := NewVars(getenv)
		v.Set("ORDER_URL", "https://shop.example/o?sig=from-hook")
		got, err := tmpl.ResolveURL(v)
		if err != nil || got != tc.want {
			t.Errorf("ResolveURL(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
		want := slices.Sorted(slices.Values(tc.secrets))
		if s := v.Secrets(); !slices.Equal(s, want) {
			t.Errorf("ResolveURL(%q): Secrets() = %q; want %q", tc.in, s, want)
		}
	}
	// Outside a URL field the same value is a secret as a whole.
	v := NewVars(getenv)
	tmpl, _ := ParseTemplate("${ENV.AGENT_URL}", func(int) diag.Pos { return diag.Pos{} })
	if _, err := tmpl.Resolve(v); err != nil || !slices.Equal(v.Secrets(), []string{env["AGENT_URL"]}) {
		t.Errorf("Resolve: Secrets() = %q, %v", v.Secrets(), err)
	}
}

func TestTemplateSyntaxErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"${", `1:1: unterminated "${"`},
		{"ab ${X", `1:4: unterminated "${"`},
		{"${}", `1:1: invalid variable reference "${}"`},
		{"a${1X}", `1:2: invalid variable reference "${1X}"`},
		{"${ENV.}", `invalid variable reference "${ENV.}"`},
		{"${A-B}", `invalid variable reference "${A-B}"`},
		{"${ENV.A.B}", `invalid variable reference "${ENV.A.B}"`},
	}
	for _, tc := range tests {
		_, diags := ParseTemplate(tc.in, func(off int) diag.Pos { return diag.Pos{File: "f", Line: 1, Col: 1 + off} })
		if !hasDiag(diags, tc.want) {
			t.Errorf("ParseTemplate(%q) = %v; want a diagnostic containing %q", tc.in, diags, tc.want)
		}
	}
}

func hasDiag(ds []diag.Diagnostic, substr string) bool {
	for _, d := range ds {
		if strings.Contains(d.String(), substr) {
			return true
		}
	}
	return false
}
