package export

import (
	"fmt"
	"net/url"
	"strings"
)

// The standard variables of OpenTelemetry's exporters that Endpoint reads.
const (
	EnvEndpoint       = "OTEL_EXPORTER_OTLP_ENDPOINT"
	EnvTracesEndpoint = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"
	EnvHeaders        = "OTEL_EXPORTER_OTLP_HEADERS"
	EnvTracesHeaders  = "OTEL_EXPORTER_OTLP_TRACES_HEADERS"
)

// TracesPath is what an OTLP/HTTP base URL gets for traces.
const TracesPath = "/v1/traces"

// Target is where a run is exported: the URL to POST to and the headers.
type Target struct {
	URL     string
	Headers map[string]string
}

// Endpoint resolves where to export: the config's export URL (a base, as
// OTEL_EXPORTER_OTLP_ENDPOINT is: /v1/traces is appended unless it ends
// with it) first, else OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as it is, else
// OTEL_EXPORTER_OTLP_ENDPOINT with /v1/traces appended. Headers are
// OTEL_EXPORTER_OTLP_HEADERS, then OTEL_EXPORTER_OTLP_TRACES_HEADERS, then
// the config's, each later one winning for its keys. ok is false when
// neither the config nor the environment names an endpoint.
func Endpoint(export string, headers map[string]string, lookupEnv func(string) (string, bool)) (t Target, ok bool, err error) {
	env := func(k string) string {
		if lookupEnv == nil {
			return ""
		}
		v, _ := lookupEnv(k)
		return strings.TrimSpace(v)
	}
	switch {
	case export != "":
		t.URL = withTracesPath(export)
	case env(EnvTracesEndpoint) != "":
		t.URL = env(EnvTracesEndpoint)
	case env(EnvEndpoint) != "":
		t.URL = withTracesPath(env(EnvEndpoint))
	default:
		return Target{}, false, nil
	}
	if u, err := url.Parse(t.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Target{}, false, fmt.Errorf("export endpoint %q is not an http or https URL", t.URL)
	}
	t.Headers = map[string]string{}
	for _, k := range []string{EnvHeaders, EnvTracesHeaders} {
		hs, err := ParseHeaders(env(k))
		if err != nil {
			return Target{}, false, fmt.Errorf("%s: %w", k, err)
		}
		for hk, hv := range hs {
			t.Headers[hk] = hv
		}
	}
	for k, v := range headers {
		t.Headers[k] = v
	}
	return t, true, nil
}

func withTracesPath(base string) string {
	base = strings.TrimSpace(base)
	if strings.HasSuffix(base, TracesPath) {
		return base
	}
	return strings.TrimSuffix(base, "/") + TracesPath
}

// ParseHeaders reads headers as the OTLP exporters' variables write them:
// "key1=value1,key2=value2", keys and values percent-decoded and trimmed.
// A malformed entry is an error naming its place, never its value (it may
// be a secret).
func ParseHeaders(s string) (map[string]string, error) {
	out := map[string]string{}
	if strings.TrimSpace(s) == "" {
		return out, nil
	}
	for i, kv := range strings.Split(s, ",") {
		if strings.TrimSpace(kv) == "" {
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("entry %d has no '=' (want key=value,key2=value2)", i+1)
		}
		key, err1 := url.PathUnescape(strings.TrimSpace(k))
		val, err2 := url.PathUnescape(strings.TrimSpace(v))
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("entry %d is not percent-encoded correctly", i+1)
		}
		if key == "" {
			return nil, fmt.Errorf("entry %d has an empty key", i+1)
		}
		out[key] = val
	}
	return out, nil
}
