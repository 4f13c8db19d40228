package cli

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/ananke/action/internal/otel/receiver"
	"github.com/ananke/action/internal/otel/spanstore"
	"github.com/ananke/action/internal/plural"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/vars"
)

// envOTLPEndpoint gives target.server and the hooks the base URL of
// Ananke's OTLP receiver (docs/opentelemetry.md, "Spans in"): the value
// an agent takes as OTEL_EXPORTER_OTLP_ENDPOINT.
const envOTLPEndpoint = "ANANKE_OTLP_ENDPOINT"

// otelReceiver is the OTLP/HTTP receiver of a run, and the store the
// engine takes each attempt's spans from.
type otelReceiver struct {
	store *spanstore.Store
	rcv   *receiver.Receiver
	hs    *http.Server
	url   string
	done  chan error
}

// startReceiver starts the receiver otel.receiver asks for, listening
// before anything starts (target.server, the hooks); nil when the config
// asks none. With dryRun nothing listens. Its error carries the exit
// code, as startBackend's: 3 for an unset variable in the address, 2 for
// an address this machine cannot listen on.
func (a *app) startReceiver(cfg *spec.Config, dryRun bool) (*otelReceiver, error) {
	o := cfg.OTel
	if o == nil || o.Receiver.IsZero() {
		return nil, nil
	}
	addr, err := o.Receiver.Resolve(vars.NewVars(a.lookupEnv))
	if err != nil {
		return nil, withCode(ExitInvalid, "", fieldError(o.Receiver.Pos, "otel.receiver", err))
	}
	ln, err := a.listen(addr, dryRun)
	if err != nil {
		return nil, errorf("", "%s: otel.receiver: %v", o.Receiver.Pos, err)
	}
	r := &otelReceiver{url: "http://" + a.advertised(addr, ln),
		store: spanstore.New(spanstore.Options{Grace: time.Duration(o.GraceMs) * time.Millisecond})}
	if dryRun {
		return r, nil
	}
	r.rcv = receiver.New(r.store, receiver.Options{})
	r.hs, r.done = r.rcv.Server(), make(chan error, 1)
	go func() {
		err := r.hs.Serve(ln)
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
		r.done <- err
	}()
	return r, nil
}

// environ names the receiver's URL; nothing without one.
func (r *otelReceiver) environ() []string {
	if r == nil {
		return nil
	}
	return []string{envOTLPEndpoint + "=" + r.url}
}

// storeOrNil is the store the engine takes spans from; nil without a
// receiver.
func (r *otelReceiver) storeOrNil() *spanstore.Store {
	if r == nil {
		return nil
	}
	return r.store
}

// describe is the line -v prints as the run starts.
func (r *otelReceiver) describe() string {
	return "OTLP receiver: " + r.url
}

// stop stops the receiver once the tests are over: a span that comes
// later belongs to no test anyway.
func (r *otelReceiver) stop() error {
	if r == nil || r.hs == nil {
		return nil
	}
	hs := r.hs
	r.hs = nil
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if hs.Shutdown(ctx) != nil {
		hs.Close()
	}
	if err := <-r.done; err != nil {
		return fmt.Errorf("serve the OTLP receiver: %w", err)
	}
	return nil
}

// warnings are the run's warnings of what the receiver could not give a
// test: requests it refused, spans of no attempt, spans that came after
// their attempt ended. Masked with the report's secrets.
func (r *otelReceiver) warnings(rep *report.Report) []report.RunWarning {
	if r == nil || r.rcv == nil {
		return nil
	}
	red := report.NewRedactor(rep.MaskValues(), nil)
	var out []report.RunWarning
	add := func(msg string) { out = append(out, report.RunWarning{Rule: "otel", Message: red.String(msg)}) }
	if st := r.rcv.Stats(); st.Refused > 0 {
		add(fmt.Sprintf("the OTLP receiver refused %s of %d: %s", plural.Count(st.Refused, "export request"), st.Requests, st.LastError))
	}
	st := r.store.Stats()
	if st.Unattributed > 0 {
		msg := fmt.Sprintf("%s with a trace id no test attempt had: dropped", plural.Count(st.Unattributed, "span"))
		if f := st.FirstUnattributed; f != nil {
			msg += fmt.Sprintf(" (the first: %q of trace %s", f.Name, f.TraceID)
			if f.Service != "" {
				msg += " from " + f.Service
			}
			msg += "); does the agent continue the traceparent of Ananke's requests?"
		}
		add(msg)
	}
	if st.Late > 0 {
		add(fmt.Sprintf("%s that came after its test attempt ended: dropped; raise otel.grace_ms, or export sooner (OTEL_BSP_SCHEDULE_DELAY)", plural.Count(st.Late, "span")))
	}
	return out
}
