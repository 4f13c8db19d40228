package cli

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/ananke/action/internal/otel/export"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/secret"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/vars"
)

// otelOut is where the run is exported as OTLP (docs/opentelemetry.md,
// "Test runs out"), resolved before the run so that a problem stops it
// at once; nil when neither the config's otel.export nor the
// OTEL_EXPORTER_OTLP_* variables name an endpoint.
type otelOut struct {
	target  export.Target
	secrets []string
}

// exportTarget resolves otel.export, its headers and the OTEL_EXPORTER_OTLP_*
// variables. An endpoint that is Ananke's own receiver (an agent's
// OTEL_EXPORTER_OTLP_ENDPOINT left in the environment) is not exported to.
func (a *app) exportTarget(cfg *spec.Config, rcv *otelReceiver) (*otelOut, error) {
	vs := vars.NewVars(a.lookupEnv)
	var base string
	headers := map[string]string{}
	if o := cfg.OTel; o != nil {
		if !o.Export.IsZero() {
			u, err := o.Export.ResolveURL(vs)
			if err != nil {
				return nil, withCode(ExitInvalid, "", fieldError(o.Export.Pos, "otel.export", err))
			}
			base = u
		}
		for _, h := range o.Headers {
			v, err := h.Value.Resolve(vs)
			if err != nil {
				return nil, withCode(ExitInvalid, "", fieldError(h.Value.Pos, "otel.headers."+h.Name, err))
			}
			headers[h.Name] = v
		}
	}
	t, ok, err := export.Endpoint(base, headers, a.lookupEnv)
	if err != nil {
		return nil, withCode(ExitInvalid, "", err)
	}
	if !ok || (rcv != nil && sameHost(t.URL, rcv.url)) {
		return nil, nil
	}
	out := &otelOut{target: t, secrets: vs.Secrets()}
	for _, v := range t.Headers {
		out.secrets = append(out.secrets, v)
	}
	return out, nil
}

// sameHost reports whether two URLs name the same host and port.
func sameHost(a, b string) bool {
	ua, erra := url.Parse(a)
	ub, errb := url.Parse(b)
	return erra == nil && errb == nil && strings.EqualFold(ua.Host, ub.Host)
}

// secretsOrNil are the export's secrets: its headers' values.
func (o *otelOut) secretsOrNil() []string {
	if o == nil {
		return nil
	}
	return o.secrets
}

// send exports the run's report; a failure is a warning, never the run's
// verdict: the tracing backend is not the agent under test.
func (a *app) send(ctx context.Context, o *otelOut, r *report.Report, cfg *spec.Config) {
	if o == nil {
		return
	}
	where := secret.URL(o.target.URL)
	err := export.Send(ctx, r, export.Options{Endpoint: o.target.URL, Headers: o.target.Headers,
		Redactor: report.ConfigRedactor(r.MaskValues(), cfg)})
	if err != nil {
		a.warn("", fmt.Errorf("export the run to %s: %w", where, err))
		return
	}
	fmt.Fprintf(a.Out, "OpenTelemetry: the run was exported to %s\n", where)
}

// traceState is otel.tracestate, resolved ("" without one).
func (a *app) traceState(cfg *spec.Config) (string, error) {
	if cfg.OTel == nil || cfg.OTel.TraceState.IsZero() {
		return "", nil
	}
	v, err := cfg.OTel.TraceState.Resolve(vars.NewVars(a.lookupEnv))
	if err != nil {
		return "", withCode(ExitInvalid, "", fieldError(cfg.OTel.TraceState.Pos, "otel.tracestate", err))
	}
	return v, nil
}
