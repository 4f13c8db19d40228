package export

import (
	"crypto/sha256"
	"encoding/hex"

	"go.opentelemetry.io/collector/pdata/pcommon"
)

// traceID parses a W3C trace id (32 hex digits); ok is false for an
// empty or malformed one, or the all-zero id.
func traceID(s string) (pcommon.TraceID, bool) {
	var id pcommon.TraceID
	if len(s) != 32 {
		return id, false
	}
	if _, err := hex.Decode(id[:], []byte(s)); err != nil {
		return id, false
	}
	return id, !id.IsEmpty()
}

// spanID parses a span id (16 hex digits), as traceID does.
func spanID(s string) (pcommon.SpanID, bool) {
	var id pcommon.SpanID
	if len(s) != 16 {
		return id, false
	}
	if _, err := hex.Decode(id[:], []byte(s)); err != nil {
		return id, false
	}
	return id, !id.IsEmpty()
}

// derive makes a stable id from parts, for what the report carries no id
// of: the same report exports the same ids, so sending it twice
// duplicates spans rather than scattering them.
func derive(parts ...string) [32]byte {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	var out [32]byte
	h.Sum(out[:0])
	if out[0] == 0 {
		out[0] = 1 // never the all-zero id
	}
	return out
}

func deriveTrace(parts ...string) pcommon.TraceID {
	d := derive(parts...)
	return pcommon.TraceID(d[:16])
}

func deriveSpan(parts ...string) pcommon.SpanID {
	d := derive(parts...)
	return pcommon.SpanID(d[:8])
}

// spanOr is the id s names, or one derived from parts.
func spanOr(s string, parts ...string) pcommon.SpanID {
	if id, ok := spanID(s); ok {
		return id
	}
	return deriveSpan(parts...)
}
