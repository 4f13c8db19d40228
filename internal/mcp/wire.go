package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// Methods whose exchanges a turn records; the wire keeps the responses to
// these requests and the progress notifications, and drops the rest (the
// handshake, pings, other notifications).
const (
	methodCall     = "tools/call"
	methodList     = "tools/list"
	methodProgress = "notifications/progress"
)

// wire keeps the raw JSON-RPC messages of a session's turns as they pass
// between the SDK and the transport, byte for byte: the trace holds what
// the server sent, not the SDK's decoding of it (which drops fields it does
// not know, and fails on content types newer than itself). The transports
// feed it from their own goroutines; a turn takes what arrived once its
// request has returned.
type wire struct {
	now func() time.Time

	mu   sync.Mutex
	sent map[string]message // id (its JSON text) → the request, for the methods above
	got  []message          // responses and progress, in arrival order, since the last take
	// junk is the start of the first frame the server sent that is not
	// JSON, for errors: the SDK's decoding error does not show it.
	junk string
}

// junkQuote is how much of a frame that is not JSON an error quotes.
const junkQuote = 120

// message is one raw JSON-RPC message.
type message struct {
	at     time.Time
	id     string // the id's JSON text; "" for a notification
	method string // a response: its request's method
	raw    json.RawMessage
	params json.RawMessage
	result json.RawMessage
	err    json.RawMessage // the error object of an error response
	// request and sentAt are, for a response, the request it answers and
	// when that was sent.
	request json.RawMessage
	sentAt  time.Time
}

// envelope is the shape every JSON-RPC message shares.
type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

func newWire(now func() time.Time) *wire {
	return &wire{now: now, sent: map[string]message{}}
}

// out notes a message (or batch) the client sent.
func (w *wire) out(data []byte) {
	at, data := w.now(), bytes.Clone(data)
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, raw := range split(data) {
		var e envelope
		if json.Unmarshal(raw, &e) != nil || e.Method == "" || len(e.ID) == 0 {
			continue
		}
		if e.Method == methodCall || e.Method == methodList {
			w.sent[string(e.ID)] = message{at: at, id: string(e.ID), method: e.Method, raw: raw, params: e.Params}
		}
	}
}

// in notes a message (or batch) the server sent, and returns how many
// answers to the requests a turn records it held; what is not JSON is left
// to the SDK, which reports it.
func (w *wire) in(data []byte) (answers int) {
	at, data := w.now(), bytes.Clone(data)
	w.mu.Lock()
	defer w.mu.Unlock()
	if !json.Valid(data) {
		if w.junk == "" {
			w.junk = strings.ToValidUTF8(string(data[:min(len(data), junkQuote)]), "\uFFFD")
		}
		return 0
	}
	for _, raw := range split(data) {
		var e envelope
		if json.Unmarshal(raw, &e) != nil {
			continue
		}
		switch {
		case e.Method == methodProgress:
			w.got = append(w.got, message{at: at, method: e.Method, raw: raw, params: e.Params})
		case e.Method == "" && len(e.ID) > 0:
			req, ok := w.sent[string(e.ID)]
			if !ok {
				continue
			}
			w.got = append(w.got, message{at: at, id: req.id, method: req.method, raw: raw, result: nonNull(e.Result), err: nonNull(e.Error),
				request: req.raw, sentAt: req.at})
			answers++
		}
	}
	return answers
}

// take returns the responses and notifications that arrived since the
// last take, and the requests still unanswered, and forgets them all: a
// response that comes after its turn gave up on it is dropped.
func (w *wire) take() (got, pending []message) {
	w.mu.Lock()
	defer w.mu.Unlock()
	got = w.got
	for _, m := range got {
		delete(w.sent, m.id)
	}
	for _, m := range w.sent {
		pending = append(pending, m)
	}
	slices.SortFunc(pending, func(a, b message) int { return a.at.Compare(b.at) })
	w.got, w.sent = nil, map[string]message{}
	return got, pending
}

// notJSON returns ": the server sent a frame that is not JSON: <quote>"
// once it did, for errors; "" before.
func (w *wire) notJSON() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.junk == "" {
		return ""
	}
	return fmt.Sprintf(" (the server sent something that is not JSON-RPC: %q)", w.junk)
}

// split returns the messages of one JSON-RPC frame: the frame itself, or
// the elements of a batch.
func split(data []byte) []json.RawMessage {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '[' {
		return []json.RawMessage{data}
	}
	var batch []json.RawMessage
	if json.Unmarshal(data, &batch) != nil {
		return nil
	}
	return batch
}

// nonNull returns v, or nil for an absent or null member.
func nonNull(v json.RawMessage) json.RawMessage {
	if len(v) == 0 || string(v) == "null" {
		return nil
	}
	return v
}
