package a2a

import (
	"net/http"
	"testing"
	"testing/synctest"
	"time"
)

// held is an agent, in process, that accepts every request and never
// answers: it holds it until the client gives up.
type held struct{ n int }

func (h *held) RoundTrip(r *http.Request) (*http.Response, error) {
	h.n++
	<-r.Context().Done()
	return nil, r.Context().Err()
}

// TestDiscoveryBounded: fetching the card ends with the target's timeout —
// in a bubble, so the time measured is the clock's, not the machine's.
func TestDiscoveryBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const timeout = 3 * time.Second
		h := &held{}
		start := time.Now()
		s, err := Dial(t.Context(), Options{CardURL: "http://agent.test", Timeout: timeout, HTTP: &http.Client{Transport: h}})
		if err == nil {
			s.Close()
			t.Fatal("Dial succeeded, want a timeout")
		}
		if took := time.Since(start); took != timeout {
			t.Errorf("Dial took %v, want its timeout, %v", took, timeout)
		}
		want := "agent card http://agent.test: no answer within 3s"
		if err.Error() != want || h.n != 1 {
			t.Errorf("Dial: %v after %d requests; want %q after one", err, h.n, want)
		}
	})
}
