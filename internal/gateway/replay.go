package gateway

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
)

// replay answers from the recording of the call's test: the n-th request
// of an attempt with a fingerprint gets the n-th recorded answer to it
// (the last one again past the end). A request with none is an error to
// the agent, and its model call shows the closest recorded request.
func (c *call) replay() {
	g := c.g
	if c.bd == nil {
		c.fail(http.StatusBadRequest, "no_test", "replay: this request belongs to no running test, so there is no recording to answer it from: "+c.why)
		return
	}
	norm := normalize(c.req, g.o.Ignore)
	fp := fingerprint(norm)
	rec := g.recordings[c.bd.TestID]
	var matches []*recorded
	if rec != nil {
		for i := range rec.exchanges {
			if rec.exchanges[i].fp == fp {
				matches = append(matches, &rec.exchanges[i])
			}
		}
	}
	if len(matches) == 0 {
		c.miss(rec, norm)
		return
	}
	a := g.attemptOf(c.bd)
	g.mu.Lock()
	k := a.seen[fp]
	a.seen[fp]++
	g.mu.Unlock()
	c.answerFrom(&matches[min(k, len(matches)-1)].Exchange)
}

// answerFrom answers with a recorded exchange, a stream chunk by chunk.
func (c *call) answerFrom(e *Exchange) {
	if e.Stream {
		startStream(c.w, e.Status)
		parts := make([][]byte, len(e.Chunks))
		for i, ch := range e.Chunks {
			parts[i] = kept(ch)
			if err := writeEvent(c.w, parts[i]); err != nil {
				c.answered(e.Status, parts[:i], false)
				c.mc.Note = fmt.Sprintf("the agent closed the stream after %d chunks", i)
				return
			}
		}
		if e.Done {
			_ = writeEvent(c.w, []byte(done))
		}
		c.answered(e.Status, parts, false)
		return
	}
	body := kept(e.Body)
	h := c.w.Header()
	if b := bytes.TrimSpace(body); len(b) > 0 && (b[0] == '{' || b[0] == '[') {
		h.Set("Content-Type", "application/json")
	} else {
		h.Set("Content-Type", "text/plain; charset=utf-8")
	}
	if e.RetryAfter != "" {
		h.Set("Retry-After", e.RetryAfter)
	}
	c.w.WriteHeader(e.Status)
	_, _ = c.w.Write(body)
	c.answered(e.Status, [][]byte{body}, true)
	if e.Status >= 400 {
		c.mc.Note = strings.Replace(c.mc.Note, "the upstream answered", "the recorded answer is", 1)
	}
}

// miss answers a request replay has no recording of: the agent gets an
// error, and the model call the closest recorded request and the diff.
func (c *call) miss(rec *recording, norm map[string]any) {
	id := c.bd.TestID
	c.fail(http.StatusNotFound, "replay_miss", fmt.Sprintf("replay: no recorded answer to this request for test %q; the run's report shows the closest recorded request and how this one differs", id))
	if rec == nil || len(rec.exchanges) == 0 {
		c.mc.Error = fmt.Sprintf("replay: test %q has no recording in %s; record it first (ananke run --gateway record)", id, c.g.o.Dir)
		return
	}
	candidates := make([]string, len(rec.exchanges))
	for i := range rec.exchanges {
		candidates[i] = pretty(rec.exchanges[i].norm)
	}
	best, diff := closest(pretty(norm), candidates)
	e := rec.exchanges[best]
	c.mc.Error = fmt.Sprintf("replay: no recorded answer to this request for test %q (%s holds %d); the closest is line %d (turn %d); recorded (-), this request (+):\n%s",
		id, rec.file, len(rec.exchanges), e.line, e.Turn, strings.TrimSuffix(diff, "\n"))
}
