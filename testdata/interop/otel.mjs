// OpenTelemetry for the interop agents, opt-in: with OTEL_EXPORTER_OTLP_ENDPOINT
// (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) set, startTracing registers a global
// tracer provider (an AsyncLocalStorage context manager and the W3C trace
// context propagator) that exports spans over OTLP/HTTP; unset, it returns
// undefined and nothing is traced.
//
//   OTEL_EXPORTER_OTLP_ENDPOINT          the receiver's base URL; /v1/traces is appended
//   OTEL_EXPORTER_OTLP_TRACES_ENDPOINT   the full traces URL, used as is
//   OTEL_EXPORTER_OTLP_PROTOCOL          http/protobuf (default) or http/json
//   OTEL_EXPORTER_OTLP_HEADERS           headers sent with each export (k=v,k2=v2)
//   OTEL_SERVICE_NAME                    the service name (default: the agent's own)
//   OTEL_BSP_SCHEDULE_DELAY              ms a finished span waits before export
//                                        (default 100, so spans arrive well
//                                        within a second of a run's end)
//
// The exporters read the endpoint and header variables themselves. Spans are
// flushed on SIGTERM and SIGINT (for at most 2 s) before the process exits 0.
import {
  context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace,
} from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { OTLPTraceExporter as ProtoExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { OTLPTraceExporter as JSONExporter } from "@opentelemetry/exporter-trace-otlp-http";

export function startTracing(serviceName) {
  const env = process.env;
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return undefined;
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || "http/protobuf";
  const exporter = protocol === "http/json" ? new JSONExporter() : new ProtoExporter();
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ "service.name": env.OTEL_SERVICE_NAME || serviceName }),
    spanProcessors: [new BatchSpanProcessor(exporter, {
      scheduledDelayMillis: Number(env.OTEL_BSP_SCHEDULE_DELAY ?? 100),
    })],
  });
  provider.register({ propagator: new W3CTraceContextPropagator() });
  const tracer = trace.getTracer(serviceName);
  let stopping;
  const shutdown = () => (stopping ??= provider.shutdown().catch((err) => console.error(`otel: ${err}`)));
  for (const sig of ["SIGTERM", "SIGINT"]) {
    // At most 2 s: a receiver that is gone must not hold the exit up.
    process.once(sig, () => Promise.race([shutdown(), new Promise((r) => setTimeout(r, 2000).unref())])
      .finally(() => process.exit(0)));
  }
  return {
    tracer,
    provider,
    shutdown,
    // serverSpan runs fn inside a SERVER span for an HTTP request, a child of
    // the request's traceparent (a new trace without one). fn gets the span;
    // the span ends when the response is finished or closed.
    serverSpan(req, res, route, fn) {
      const parent = propagation.extract(ROOT_CONTEXT, req.headers);
      const span = tracer.startSpan(`${req.method} ${route}`, {
        kind: SpanKind.SERVER,
        attributes: { "http.request.method": req.method, "url.path": (req.originalUrl ?? req.url).split("?")[0], "http.route": route },
      }, parent);
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        span.setAttribute("http.response.status_code", res.statusCode);
        if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      };
      res.once("finish", end);
      res.once("close", end);
      return context.with(trace.setSpan(parent, span), () => fn(span));
    },
  };
}

// inject adds the active context's traceparent to the headers of an outgoing
// request made while serving one: a Headers object or a plain object.
export function inject(headers) {
  const set = headers instanceof Headers ? (h, k, v) => h.set(k, v) : (h, k, v) => { h[k] = v; };
  propagation.inject(context.active(), headers, { set });
  return headers;
}
