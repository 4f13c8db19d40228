package spec

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const otelConfig = minimalConfig + `otel:
  receiver: "127.0.0.1:0"
  grace_ms: 500
  export: "${ENV.COLLECTOR}"
  headers: {authorization: "Bearer ${ENV.OTLP_TOKEN}"}
  tracestate: "ananke=t1,acme@vendor=x"
`

// TestOTel: the config's otel: is read with each key's value and the
// positions a run reports its problems at.
func TestOTel(t *testing.T) {
	c := mustConfig(t, otelConfig)
	o := c.OTel
	if o == nil {
		t.Fatal("no otel")
	}
	if o.Receiver.Raw != "127.0.0.1:0" || o.GraceMs != 500 || o.Export.Raw != "${ENV.COLLECTOR}" || o.TraceState.Raw != "ananke=t1,acme@vendor=x" {
		t.Errorf("otel %+v", o)
	}
	if len(o.Headers) != 1 || o.Headers[0].Name != "authorization" || o.Headers[0].Value.Raw != "Bearer ${ENV.OTLP_TOKEN}" {
		t.Errorf("headers %+v", o.Headers)
	}
	if o.Pos.Line != 7 || o.Receiver.Pos.Line != 7 || o.Receiver.Pos.Col != 13 || o.Export.Pos.Line != 9 || o.TraceState.Pos.Line != 11 || o.Headers[0].Value.Pos.Line != 10 {
		t.Errorf("positions: otel %v, receiver %v, export %v, tracestate %v, header %v", o.Pos, o.Receiver.Pos, o.Export.Pos, o.TraceState.Pos, o.Headers[0].Value.Pos)
	}
	if d := mustConfig(t, minimalConfig+"otel: {receiver: \":4318\"}\n").OTel; d.GraceMs != DefaultGraceMs || !d.Export.IsZero() {
		t.Errorf("defaults: %+v", d)
	}
	if c := mustConfig(t, minimalConfig); c.OTel != nil {
		t.Errorf("a config without otel: has %+v", c.OTel)
	}
}

// TestOTelErrors: each wrong value is an error at its position.
func TestOTelErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"otel: {receiver: \"localhost\"}\n", `ananke.config.yaml:6:18: otel.receiver "localhost" is not an address`},
		{"otel: {receiver: \":99999\"}\n", `otel.receiver ":99999" is not an address`},
		{"otel: {grace_ms: 10}\n", "ananke.config.yaml:6:8: otel.grace_ms is how long a turn waits for the spans the receiver gets, but otel has no receiver"},
		{"otel: {receiver: \":0\", grace_ms: -1}\n", "otel.grace_ms"},
		{"otel: {export: \"collector:4318\"}\n", `otel.export "collector:4318" is not an http:// or https:// URL`},
		{"otel: {headers: {\"bad header\": x}}\n", `otel.headers: "bad header" is not a valid HTTP header name`},
		{"otel: {tracestate: \"Vendor=x\"}\n", `otel.tracestate "Vendor=x" is not a W3C tracestate: key "Vendor" is not a tracestate key`},
		{"otel: {tracestate: \"a=1,a=2\"}\n", "key a is written twice"},
		{"otel: {tracestate: \"a\"}\n", `"a" has no =`},
		{"otel: {tracestate: \"a=x,b=\"}\n", "the value of b is empty"},
		{"otel: {receive: \":4318\"}\n", "receive"},
		{"otel: [receiver]\n", "otel"},
	} {
		_, diags := parseConfig(t, minimalConfig+tc.src)
		if !strings.Contains(diags.Error(), tc.want) {
			t.Errorf("%s: got\n%s\nwant %q", tc.src, diags.Error(), tc.want)
		}
	}
	for _, ok := range []string{"a=1", "a=1, b=2", "t@v=x y", "0t@v=x", "a_-*/9=x", "k=" + strings.Repeat("v", 256), strings.Repeat("k", 256) + "=v"} {
		if msg := checkTraceState(ok); msg != "" {
			t.Errorf("%q: %s", ok, msg)
		}
	}
	for _, bad := range []string{"0a=x", "a@0=x", "@v=x", "t@=x", "a=x=y", "a=\x01", "k=" + strings.Repeat("v", 257), strings.Repeat("k", 257) + "=v",
		strings.Repeat("a=1,", 32) + "b=2"} {
		if msg := checkTraceState(bad); msg == "" {
			t.Errorf("%q taken", bad)
		}
	}
}

// TestOTelSchema: the published config schema takes otel: and refuses
// what the loader refuses.
func TestOTelSchema(t *testing.T) {
	cfg := compileSchema(t, "config")
	for _, tc := range []struct {
		src string
		ok  bool
	}{
		{otelConfig, true},
		{minimalConfig + "otel: {export: \"http://c:4318\"}\n", true},
		{minimalConfig + "otel: {grace_ms: 10}\n", false},
		{minimalConfig + "otel: {receiver: \":0\", grace_ms: -1}\n", false},
		{minimalConfig + "otel: {receiver: \":0\", other: 1}\n", false},
	} {
		path := filepath.Join(t.TempDir(), "c.yaml")
		if err := os.WriteFile(path, []byte(tc.src), 0o600); err != nil {
			t.Fatal(err)
		}
		err := cfg.Validate(yamlAsJSON(t, path))
		if (err == nil) != tc.ok {
			t.Errorf("%s: valid %v, want %v (%v)", tc.src, err == nil, tc.ok, err)
		}
	}
}
