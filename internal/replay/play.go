package replay

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/otel/tracectx"
	"github.com/ananke/action/internal/spec"
)

// Player is the tape of ananke run --replay: no run reaches the agent;
// each is answered from the recording.
type Player struct {
	dir string
	now func() time.Time

	mu    sync.Mutex
	files map[string]*TestFile // by test id, read when first needed
	byID  map[string]TestEntry
}

// Open reads a recording.
func Open(dir string, now func() time.Time) (*Player, error) {
	idx, err := ReadIndex(dir)
	if err != nil {
		return nil, err
	}
	p := &Player{dir: dir, now: now, files: map[string]*TestFile{}, byID: map[string]TestEntry{}}
	for _, t := range idx.Tests {
		p.byID[t.ID] = t
	}
	return p, nil
}

// Live: replayed runs reach no agent.
func (p *Player) Live() bool { return false }

// Changed lists the recorded tests whose file changed since the recording
// (their requests may no longer match).
func (p *Player) Changed(suite *spec.Suite) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range suite.Tests {
		e, ok := p.byID[t.ID]
		if !ok || e.FileSHA256 == "" || seen[t.Path] {
			continue
		}
		seen[t.Path] = true
		if h := fileHash(t.Path); h != "" && h != e.FileSHA256 {
			out = append(out, filepath.ToSlash(t.Path))
		}
	}
	return out
}

// Attempt answers the attempt from its recording: its clock starts now
// and reads, in order, the times the recorded attempt read.
func (p *Player) Attempt(t *spec.Test, run, retry int, base *http.Client) engine.AttemptIO {
	c := &clock{start: p.now()}
	pt := &playTransport{p: p, clock: c, ids: map[string]string{}}
	pt.attempt, pt.err = p.attempt(t.ID, run, retry)
	if pt.attempt != nil {
		c.readings = pt.attempt.Clock
	}
	hc := *base
	hc.Transport = pt
	return engine.AttemptIO{HTTP: &hc, Now: c.now}
}

func (p *Player) attempt(id string, run, retry int) (*AttemptEntry, error) {
	e, ok := p.byID[id]
	if !ok {
		return nil, fmt.Errorf("replay: the recording in %s has no test %q (record it again with --record)", p.dir, id)
	}
	p.mu.Lock()
	f := p.files[id]
	if f == nil {
		f = &TestFile{}
		if err := readJSON(filepath.Join(p.dir, filepath.FromSlash(e.Recording)), f); err != nil {
			p.mu.Unlock()
			return nil, fmt.Errorf("replay: %w", err)
		}
		p.files[id] = f
	}
	p.mu.Unlock()
	for i := range f.Attempts {
		if a := &f.Attempts[i]; a.Run == run && a.Retry == retry {
			return a, nil
		}
	}
	what := fmt.Sprintf("run %d", run)
	if retry > 0 {
		what += fmt.Sprintf(" (retry %d)", retry)
	}
	return nil, fmt.Errorf("replay: the recording has no %s of this test: it recorded %d attempt(s)", what, len(f.Attempts))
}

// clock is an attempt's time in replay: its start, plus, at each reading,
// the recorded attempt's reading of the same rank. Past the recorded
// readings (or with none: a recording made before they were kept), it
// reads the recorded time of the last thing that happened.
type clock struct {
	start time.Time

	mu       sync.Mutex
	readings [][2]int64 // AttemptEntry.Clock, shared: never written
	next     int        // the readings used: whole entries of readings...
	used     int64      // ...and readings of readings[next]
	at       int64      // ms since start: the latest time read or set
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	ms := c.at
	if c.next < len(c.readings) {
		r := c.readings[c.next]
		ms = r[0]
		if c.used++; c.used >= r[1] {
			c.next, c.used = c.next+1, 0
		}
		c.at = max(c.at, ms)
	}
	return c.start.Add(time.Duration(ms) * time.Millisecond)
}

func (c *clock) set(ms int64) {
	c.mu.Lock()
	c.at = max(c.at, ms)
	c.mu.Unlock()
}

type playTransport struct {
	p       *Player
	clock   *clock
	attempt *AttemptEntry
	err     error
	mu      sync.Mutex
	next    int
	// ids maps each id of the recorded requests to the one sent now, so
	// the streams answer with the ids of this run.
	ids map[string]string
}

func (t *playTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		defer req.Body.Close()
	}
	if t.err != nil {
		return nil, t.err
	}
	t.mu.Lock()
	k := t.next
	t.next++
	t.mu.Unlock()
	if k >= len(t.attempt.Exchanges) {
		return nil, fmt.Errorf("replay: this attempt sent request %d, and the recording has %d: the conversation went further than when it was recorded", k+1, len(t.attempt.Exchanges))
	}
	x := &t.attempt.Exchanges[k]
	sent, err := requestBody(req)
	if err != nil {
		return nil, err
	}
	if diffs := Compare(x.Request, sent, t.ids); len(diffs) > 0 {
		return nil, fmt.Errorf("replay: request %d differs from the recording: %s", k+1, formatDiffs(diffs))
	}
	t.clock.set(x.AtMs)
	// The request's span (tracectx) has the recorded exchange's times.
	tracectx.Stamp(req.Context(), t.clock.start.Add(time.Duration(x.AtMs)*time.Millisecond), t.clock.start.Add(time.Duration(x.EndMs)*time.Millisecond))
	if x.Error != "" {
		t.clock.set(x.EndMs)
		return nil, errors.New(x.Error)
	}
	f, err := os.Open(filepath.Join(t.p.dir, filepath.FromSlash(x.Stream)))
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	h := http.Header{}
	if x.ContentType != "" {
		h.Set("Content-Type", x.ContentType)
	}
	return &http.Response{Status: fmt.Sprintf("%d %s", x.Status, http.StatusText(x.Status)), StatusCode: x.Status,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Header: h, Request: req, ContentLength: -1,
		Body: &playBody{f: f, x: x, clock: t.clock, ids: t.replacer()}}, nil
}

// replacer rewrites the recorded ids in a stream to this run's.
func (t *playTransport) replacer() *strings.Replacer {
	var pairs []string
	for rec, now := range t.ids {
		if rec != now {
			pairs = append(pairs, rec, now)
		}
	}
	if len(pairs) == 0 {
		return nil
	}
	return strings.NewReplacer(pairs...)
}

// playBody gives the recorded stream back chunk by chunk, moving the
// attempt's clock to each chunk's recorded time.
type playBody struct {
	f     *os.File
	x     *Exchange
	clock *clock
	ids   *strings.Replacer
	chunk int
	buf   []byte
}

func (b *playBody) Read(p []byte) (int, error) {
	for len(b.buf) == 0 {
		if b.chunk >= len(b.x.Chunks) {
			b.clock.set(b.x.EndMs)
			return 0, io.EOF
		}
		c := b.x.Chunks[b.chunk]
		b.chunk++
		buf := make([]byte, c[1])
		if _, err := io.ReadFull(b.f, buf); err != nil {
			return 0, fmt.Errorf("replay: %s: %w", b.x.Stream, err)
		}
		if b.ids != nil {
			buf = []byte(b.ids.Replace(string(buf)))
		}
		b.clock.set(c[0])
		b.buf = buf
	}
	n := copy(p, b.buf)
	b.buf = b.buf[n:]
	return n, nil
}

func (b *playBody) Close() error { return b.f.Close() }

// formatDiffs lists differences on one line.
func formatDiffs(ds []Diff) string {
	var parts []string
	for i, d := range ds {
		if i == maxDiffs {
			parts = append(parts, fmt.Sprintf("and %d more", len(ds)-maxDiffs))
			break
		}
		parts = append(parts, d.String())
	}
	return strings.Join(parts, "; ")
}

// compile-time check: both tapes fit the engine.
var (
	_ engine.Tape = (*Player)(nil)
	_ engine.Tape = (*Recorder)(nil)
)
