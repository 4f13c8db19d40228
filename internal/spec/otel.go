package spec

import (
	"math"
	"net"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/vars"
)

// OpenTelemetry (docs/opentelemetry.md): the config's otel: section.

// DefaultGraceMs is how long, at most, the end of a turn waits for the
// agent's spans of the turn when the receiver is on (otel.grace_ms).
const DefaultGraceMs = 2000

// OTel is the config's otel: section.
type OTel struct {
	Pos diag.Pos
	// Receiver is the address of Ananke's OTLP/HTTP receiver, host:port
	// (port 0: a free port); zero when the config starts none. Its Pos
	// is where it is written, as Export's.
	Receiver vars.Template
	// GraceMs bounds the wait, after each turn, for the agent's spans of
	// the turn (DefaultGraceMs when not written).
	GraceMs int64
	// Export is the OTLP/HTTP endpoint Ananke sends the run to (its base
	// URL: /v1/traces is added); zero when the config says none.
	Export vars.Template
	// Headers are sent with every export request; their values are
	// secrets.
	Headers []NamedValue
	// TraceState is sent as tracestate beside every traceparent (zero:
	// none).
	TraceState vars.Template
}

var otelFields = []string{"receiver", "grace_ms", "export", "headers", "tracestate"}

// otel reads the config's otel: section; nil when it is not a mapping.
func (l *loader) otel(n *yaml.Node) *OTel {
	f, ok := l.Fields(n, "otel", otelFields)
	if !ok {
		return nil
	}
	o := &OTel{Pos: l.Pos(l.DerefQuiet(n)), GraceMs: DefaultGraceMs}
	if p, ok := f["receiver"]; ok {
		o.Receiver = l.listenAddr(p.Val, "otel.receiver", "127.0.0.1:4318")
	}
	if p, ok := f["grace_ms"]; ok {
		if v, ok := l.Integer(p.Val, "otel.grace_ms", 0, math.MaxInt32); ok {
			o.GraceMs = v
		}
		if _, on := f["receiver"]; !on {
			l.Errorf(l.DerefQuiet(p.Key), "otel.grace_ms is how long a turn waits for the spans the receiver gets, but otel has no receiver; add receiver: or remove grace_ms")
		}
	}
	if p, ok := f["export"]; ok {
		o.Export = l.url(p.Val, "otel.export")
	}
	if p, ok := f["headers"]; ok {
		o.Headers = l.namedValues(p.Val, "otel.headers", "HTTP header name", validHeaderName)
	}
	if p, ok := f["tracestate"]; ok {
		o.TraceState = l.traceState(p.Val)
	}
	return o
}

// listenAddr reads an address to listen on: host:port, or a template
// resolved later.
func (l *loader) listenAddr(n *yaml.Node, what, example string) vars.Template {
	t, ok := l.Template(n, what)
	if !ok || len(t.Refs()) > 0 {
		return t
	}
	if _, port, err := net.SplitHostPort(t.Raw); err != nil || !validPort(port) {
		l.Errorf(l.DerefQuiet(n), "%s %q is not an address (write host:port, e.g. %s, :%s for every interface, or port 0 for a free one)", what, t.Raw, example, example[strings.LastIndexByte(example, ':')+1:])
	}
	return t
}

// validPort reports whether s is a port number.
func validPort(s string) bool {
	v, err := strconv.ParseUint(s, 10, 16)
	return err == nil && s != "" && s[0] != '+' && v <= math.MaxUint16
}

// traceState reads otel.tracestate: a W3C tracestate header value
// (key=value pairs separated by commas), or a template resolved later.
func (l *loader) traceState(n *yaml.Node) vars.Template {
	t, ok := l.Template(n, "otel.tracestate")
	if !ok || len(t.Refs()) > 0 {
		return t
	}
	if msg := checkTraceState(t.Raw); msg != "" {
		l.Errorf(l.DerefQuiet(n), "otel.tracestate %q is not a W3C tracestate: %s (write key=value pairs separated by commas, e.g. vendor=value)", t.Raw, msg)
	}
	return t
}

// validTraceStateKey reports whether k is a W3C tracestate key: a
// simple key (a lowercase letter, then up to 255 of a-z 0-9 _ - * /) or
// a tenant@system key.
func validTraceStateKey(k string) bool {
	keyChar := func(c byte) bool {
		return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '*' || c == '/'
	}
	part := func(s string, first func(byte) bool, max int) bool {
		if s == "" || len(s) > max || !first(s[0]) {
			return false
		}
		for i := 1; i < len(s); i++ {
			if !keyChar(s[i]) {
				return false
			}
		}
		return true
	}
	lower := func(c byte) bool { return c >= 'a' && c <= 'z' }
	lowerOrDigit := func(c byte) bool { return lower(c) || c >= '0' && c <= '9' }
	if tenant, system, ok := strings.Cut(k, "@"); ok {
		return part(tenant, lowerOrDigit, 241) && part(system, lower, 14)
	}
	return part(k, lower, 256)
}

// validTraceStateValue reports whether v is a W3C tracestate value: 1 to
// 256 printable ASCII characters but , and =, not ending in a space.
func validTraceStateValue(v string) bool {
	if v == "" || len(v) > 256 || v[len(v)-1] == ' ' {
		return false
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < 0x20 || c > 0x7e || c == ',' || c == '=' {
			return false
		}
	}
	return true
}

// checkTraceState says what is wrong with a tracestate ("" when nothing).
func checkTraceState(s string) string {
	members := strings.Split(s, ",")
	if len(members) > 32 {
		return strconv.Itoa(len(members)) + " members, at most 32 are allowed"
	}
	seen := map[string]bool{}
	for _, m := range members {
		m = strings.Trim(m, " \t")
		key, value, ok := strings.Cut(m, "=")
		switch {
		case !ok:
			return strconv.Quote(m) + " has no ="
		case !validTraceStateKey(key):
			return "key " + strconv.Quote(key) + " is not a tracestate key (lowercase letters, digits, _ - * /)"
		case !validTraceStateValue(value):
			return "the value of " + key + " is empty or holds a character a tracestate value may not (, = or a control)"
		case seen[key]:
			return "key " + key + " is written twice"
		}
		seen[key] = true
	}
	return ""
}

func otelSchema() decode.Obj {
	o := decode.Object("OpenTelemetry: receive the agent's spans, send the run to a tracing backend (docs/opentelemetry.md).", otelFields, decode.Obj{
		"receiver":   decode.Str("Address of Ananke's OTLP/HTTP receiver, host:port (127.0.0.1:4318; port 0: a free port); the agent exports its spans to it (ANANKE_OTLP_ENDPOINT holds its URL)."),
		"grace_ms":   decode.Obj{"type": "integer", "minimum": 0, "maximum": math.MaxInt32, "description": "With receiver: how long, at most, the end of a turn waits for the agent's spans of the turn (default 2000)."},
		"export":     decode.Str("OTLP/HTTP endpoint the run is sent to (its base URL, e.g. http://collector:4318); ${ENV.X} allowed."),
		"headers":    decode.StringMap("Headers of every export request; values are secrets."),
		"tracestate": decode.Str("W3C tracestate sent beside every traceparent (vendor=value, comma-separated)."),
	})
	o["dependentRequired"] = decode.Obj{"grace_ms": []string{"receiver"}}
	return o
}
