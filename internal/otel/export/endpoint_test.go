package export_test

import (
	"maps"
	"strings"
	"testing"

	"github.com/ananke/action/internal/otel/export"
)

func TestEndpoint(t *testing.T) {
	cases := []struct {
		name    string
		export  string
		headers map[string]string
		env     map[string]string
		url     string
		hdr     map[string]string
		none    bool
		err     string
	}{
		{name: "nothing", none: true},
		{name: "config base", export: "http://collector:4318", url: "http://collector:4318/v1/traces"},
		{name: "config base with slash", export: "http://collector:4318/", url: "http://collector:4318/v1/traces"},
		{name: "config path kept", export: "https://otel.example/api/v1/traces", url: "https://otel.example/api/v1/traces"},
		{name: "config over env", export: "http://a:4318", env: map[string]string{export.EnvTracesEndpoint: "http://b/x", export.EnvEndpoint: "http://c"}, url: "http://a:4318/v1/traces"},
		{name: "traces endpoint as is", env: map[string]string{export.EnvTracesEndpoint: "http://b:4318/custom", export.EnvEndpoint: "http://c"}, url: "http://b:4318/custom"},
		{name: "base endpoint with a path", env: map[string]string{export.EnvEndpoint: "https://c.example/otlp"}, url: "https://c.example/otlp/v1/traces"},
		{name: "headers: env, traces env, config", export: "http://a",
			env:     map[string]string{export.EnvHeaders: "api-key=one, x-team = blue%20green ,x-k=v", export.EnvTracesHeaders: "x-k=traces"},
			headers: map[string]string{"api-key": "config"},
			url:     "http://a/v1/traces", hdr: map[string]string{"api-key": "config", "x-team": "blue green", "x-k": "traces"}},
		{name: "header value with '='", export: "http://a", env: map[string]string{export.EnvHeaders: "Authorization=Basic%20dTpw=="},
			url: "http://a/v1/traces", hdr: map[string]string{"Authorization": "Basic dTpw=="}},
		{name: "bad header", export: "http://a", env: map[string]string{export.EnvHeaders: "token"}, err: "OTEL_EXPORTER_OTLP_HEADERS: entry 1 has no '='"},
		{name: "bad encoding", export: "http://a", env: map[string]string{export.EnvHeaders: "a=b,k=%zz-secret"}, err: "entry 2 is not percent-encoded"},
		{name: "not http", export: "collector:4318", err: "is not an http or https URL"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok, err := export.Endpoint(c.export, c.headers, func(k string) (string, bool) { v, ok := c.env[k]; return v, ok })
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) || strings.Contains(err.Error(), "secret") {
					t.Fatalf("err = %v, want %q (and no header value)", err, c.err)
				}
				return
			}
			if err != nil || ok == c.none {
				t.Fatalf("ok %v err %v", ok, err)
			}
			if c.none {
				return
			}
			if c.hdr == nil {
				c.hdr = map[string]string{}
			}
			if got.URL != c.url || !maps.Equal(got.Headers, c.hdr) {
				t.Errorf("got %s %v, want %s %v", got.URL, got.Headers, c.url, c.hdr)
			}
		})
	}
}
