package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// maxBodyBytes bounds the request body; conversation histories of a test
// suite are far smaller.
const maxBodyBytes = 1 << 20

// newHandler returns the agent's HTTP routes without listening anywhere, so
// tests can mount it on an httptest.Server. delay is the pause between events.
func newHandler(delay time.Duration) http.Handler {
	mux := http.NewServeMux()
	coins := newTosses()
	mux.HandleFunc("POST /agent", func(w http.ResponseWriter, r *http.Request) {
		serveAgent(w, r, delay, coins)
	})
	newAPI(delay, time.Now).mount(mux)
	mux.HandleFunc("GET /health", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("ok"))
	})
	return mux
}

// serveAgent answers one AG-UI request. A request it cannot accept is
// refused with an HTTP error before any event is sent; once the 200 and the
// event-stream header are out, the run can only report failure in-band, with
// RUN_ERROR.
func serveAgent(w http.ResponseWriter, r *http.Request, delay time.Duration, coins *tosses) {
	in, err := decodeInput(w, r)
	if err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	// A write error means the client went away; there is nobody left to tell,
	// and the request context has already stopped the script.
	play(newStream(newEventWriter(r.Context(), w, delay), in, coins))
}

func decodeInput(w http.ResponseWriter, r *http.Request) (RunAgentInput, error) {
	var in RunAgentInput
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBodyBytes)).Decode(&in); err != nil {
		return in, fmt.Errorf("decode RunAgentInput: %w", err)
	}
	switch {
	case in.ThreadID == "":
		return in, errors.New("threadId is required")
	case in.RunID == "":
		return in, errors.New("runId is required")
	}
	return in, nil
}

// writeError sends {"error": "..."}: the official client shows a JSON error
// body in its "HTTP <status>: <body>" message.
func writeError(w http.ResponseWriter, status int, err error) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": err.Error()})
}
