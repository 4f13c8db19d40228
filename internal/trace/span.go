package trace

// Span is one OpenTelemetry span the agent sent about a test's attempt
// (docs/opentelemetry.md): received by Ananke's OTLP receiver under the
// attempt's trace id, or read from an OTLP file (source format otlp).
// Times are Unix nanoseconds, as OTLP writes them.
type Span struct {
	TraceID  string `json:"trace_id"`
	SpanID   string `json:"span_id"`
	ParentID string `json:"parent_span_id,omitempty"`
	Name     string `json:"name"`
	// Kind is the span's kind: "internal", "server", "client",
	// "producer" or "consumer" ("" unspecified).
	Kind    string `json:"kind,omitempty"`
	StartNs int64  `json:"start_unix_nano"`
	EndNs   int64  `json:"end_unix_nano"`
	// Status is "ok", "error" or "" (unset); StatusMessage its message.
	Status        string `json:"status,omitempty"`
	StatusMessage string `json:"status_message,omitempty"`
	// Attributes are the span's attributes, values as JSON gives them
	// (strings, numbers, booleans, lists; bytes as base64).
	Attributes map[string]any `json:"attributes,omitempty"`
	Events     []SpanEvent    `json:"events,omitempty"`
	// Service is the resource's service.name, Scope the instrumentation
	// scope's name.
	Service string `json:"service,omitempty"`
	Scope   string `json:"scope,omitempty"`
	// Turn is the turn the span belongs to: the turn whose span (or whose
	// run's span) it descends from; -1 when it descends from none of them
	// (the attempt's, or a span whose parent never arrived).
	Turn int `json:"turn"`
}

// SpanEvent is an event of a span.
type SpanEvent struct {
	Name       string         `json:"name"`
	TimeNs     int64          `json:"time_unix_nano"`
	Attributes map[string]any `json:"attributes,omitempty"`
}

// DurationMs is the span's duration in milliseconds.
func (s *Span) DurationMs() int64 { return (s.EndNs - s.StartNs) / 1e6 }

// RequestSpan is the span of one HTTP request Ananke sent the agent: the
// parent its traceparent named.
type RequestSpan struct {
	SpanID  string `json:"span_id"`
	StartNs int64  `json:"start_unix_nano"`
	EndNs   int64  `json:"end_unix_nano"`
}
