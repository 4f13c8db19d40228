package mcp

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ananke/action/internal/trace"
)

// TestHeadersSentNotRecorded checks that every request carries the
// configured headers and that the trace holds none of their values.
func TestHeadersSentNotRecorded(t *testing.T) {
	srv := fakeServer(nil)
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	var mu sync.Mutex
	var requests, missing int
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		requests++
		if r.Header.Get("Authorization") != "Bearer "+secret || r.Header.Get("X-Tenant") != "t1" {
			missing++
		}
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	defer ts.Close()
	o := Options{Transport: TransportHTTP, Endpoint: ts.URL,
		Headers: http.Header{"Authorization": {"Bearer " + secret}, "X-Tenant": {"t1"}}}
	s, err := Dial(t.Context(), o)
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	rec := trace.NewRecorder()
	if _, err := turnWith(t, s, rec, call("ok", `{}`)); err != nil {
		t.Fatalf("ok: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if requests == 0 || missing > 0 {
		t.Errorf("%d of %d requests lacked the headers", missing, requests)
	}
	tt := rec.Trace().Turns[0]
	all, _ := json.Marshal(struct {
		Turn   trace.Turn
		Events []trace.Event
	}{tt, tt.Events})
	if strings.Contains(string(all), secret) {
		t.Errorf("the trace shows the header's secret: %s", all)
	}
}
