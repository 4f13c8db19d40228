//go:build unix

package a2a

import (
	"testing"
)

// TestArtifactChunks: an artifact that came in chunks reads the same
// streamed (chunk after chunk) and from a task snapshot (its chunks'
// parts), from both SDKs' servers, over A2A 1.0 and 0.3.
func TestArtifactChunks(t *testing.T) {
	const want = "10 EUR = 11.70 USD"
	nonBlocking := false
	js := startAgent(t)
	agents := []struct {
		name string
		o    Options
	}{
		{"a2a-js/streamed", Options{CardURL: js.url + "/v1"}},
		{"a2a-js/streamed 0.3", Options{CardURL: js.url + "/v03"}},
		{"a2a-js/polled", Options{CardURL: js.url + "/nostream", Blocking: &nonBlocking}},
		{"a2a-js/blocking", Options{CardURL: js.url + "/nostream"}},
		{"a2a-go/streamed", Options{CardURL: goAgent(t, "1.0", true)}},
		{"a2a-go/streamed 0.3", Options{CardURL: goAgent(t, "0.3", true)}},
		{"a2a-go/polled", Options{CardURL: goAgent(t, "1.0", false), Blocking: &nonBlocking}},
		{"a2a-go/polled 0.3", Options{CardURL: goAgent(t, "0.3", false), Blocking: &nonBlocking}},
	}
	for _, a := range agents {
		t.Run(a.name, func(t *testing.T) {
			turn, err := play(t, a.o, "convert 10 EUR")
			if err != nil {
				t.Fatal(err)
			}
			if got := turn.Text(); got != want {
				t.Errorf("text %q, want %q (events %v)", got, want, types(turn))
			}
		})
	}
}
