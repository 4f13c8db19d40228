package receiver_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/ananke/action/internal/otel/receiver"
	"github.com/ananke/action/internal/otel/spanstore"
)

// FuzzReceive: whatever body comes, in either encoding, the receiver
// answers 200 or 400 (never panics), and a body it takes gives spans
// with their ids.
func FuzzReceive(f *testing.F) {
	good := traces(sp{traceA, 1, 0, "agent.run"}, sp{traceA, 2, 1, "tool"})
	f.Add(body(f, good, true, false), true)
	f.Add(body(f, good, false, false), false)
	f.Add([]byte(`{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"0af7651916cd43dd8448eb211c80319c","spanId":"00f067aa0ba902b7","name":"x","attributes":[{"key":"k","value":{"intValue":"x"}}]}]}]}]}`), false)
	f.Add([]byte(`{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"0af7","spanId":"00f0"}]}]}]}`), false)
	f.Add([]byte{0x0a, 0x05, 0x12, 0x03, 0x12, 0x01, 0x0a}, true)
	f.Add([]byte{}, true)
	f.Add([]byte("null"), false)
	f.Fuzz(func(t *testing.T, b []byte, proto bool) {
		store := spanstore.New(spanstore.Options{})
		store.Begin(traceA.String())
		r := receiver.New(store, receiver.Options{MaxBodyBytes: 1 << 20})
		req := httptest.NewRequest(http.MethodPost, receiver.Path, bytes.NewReader(b))
		req.Header.Set("Content-Type", contentType(proto))
		w := httptest.NewRecorder()
		r.ServeHTTP(w, req)
		switch w.Code {
		case http.StatusOK, http.StatusBadRequest:
		default:
			t.Fatalf("status %d: %s", w.Code, w.Body)
		}
		spans, _ := store.Take(traceA.String())
		for _, s := range spans {
			if len(s.TraceID) != 32 || len(s.SpanID) != 16 {
				t.Errorf("span with ids %q %q", s.TraceID, s.SpanID)
			}
		}
		if w.Code != http.StatusOK && len(spans) > 0 {
			t.Errorf("refused, yet %d spans kept", len(spans))
		}
	})
}
