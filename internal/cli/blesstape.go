package cli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sync"

	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/replay"
	"github.com/ananke/action/internal/spec"
)

// edgeTape is a recording's player that also notes each attempt that asks
// for more exchanges than were recorded: a test whose recorded run
// stopped early (at a failing turn) and that bless plays on, its
// assertions left out. Such an attempt's turns up to the one that went
// further are the conversation that was recorded.
type edgeTape struct {
	*replay.Player
	// recorded is each attempt's number of exchanges, by attemptKey.
	recorded map[attemptKey]int

	mu     sync.Mutex
	beyond map[attemptKey]bool
}

type attemptKey struct {
	test       string
	run, retry int
}

// newEdgeTape plays the recording in dir, idx its index.
func newEdgeTape(p *replay.Player, dir string, idx *replay.Index) (*edgeTape, error) {
	e := &edgeTape{Player: p, recorded: map[attemptKey]int{}, beyond: map[attemptKey]bool{}}
	for _, t := range idx.Tests {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(t.Recording)))
		if err != nil {
			return nil, fmt.Errorf("read the recording of %s: %w", t.ID, err)
		}
		var f replay.TestFile
		if err := json.Unmarshal(b, &f); err != nil {
			return nil, fmt.Errorf("read the recording of %s: %w", t.ID, err)
		}
		for _, a := range f.Attempts {
			e.recorded[attemptKey{t.ID, a.Run, a.Retry}] = len(a.Exchanges)
		}
	}
	return e, nil
}

// Attempt counts the attempt's requests on their way to the player.
func (e *edgeTape) Attempt(t *spec.Test, run, retry int, base *http.Client) engine.AttemptIO {
	io := e.Player.Attempt(t, run, retry, base)
	key := attemptKey{t.ID, run, retry}
	hc := *io.HTTP
	hc.Transport = &countingTransport{inner: hc.Transport, left: e.recorded[key], beyond: func() {
		e.mu.Lock()
		e.beyond[key] = true
		e.mu.Unlock()
	}}
	io.HTTP = &hc
	return io
}

// wentBeyond reports whether the attempt asked for an exchange the
// recording does not have.
func (e *edgeTape) wentBeyond(test string, run, retry int) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.beyond[attemptKey{test, run, retry}]
}

// countingTransport tells when a request goes past the recorded ones.
type countingTransport struct {
	inner  http.RoundTripper
	mu     sync.Mutex
	left   int
	beyond func()
}

func (c *countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	c.mu.Lock()
	c.left--
	over := c.left < 0
	c.mu.Unlock()
	if over {
		c.beyond()
	}
	return c.inner.RoundTrip(req)
}
