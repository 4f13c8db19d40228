package replay

import (
	"bufio"
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/otel/tracectx"
	"github.com/ananke/action/internal/report"
	"github.com/ananke/action/internal/spec"
)

// Recorder is the tape of ananke run --record: runs reach the agent, and
// every exchange is kept — response streams in files as they arrive —
// until Write puts the recording in place, masked.
type Recorder struct {
	dir, partial string
	now          func() time.Time

	mu    sync.Mutex
	tests map[string]*testRec
	seq   int
}

type testRec struct {
	test     *spec.Test
	attempts []*attemptRec
}

type attemptRec struct {
	run, retry int
	start      time.Time
	// exchanges are appended by the attempt's runs, one after another.
	exchanges []*exchangeRec
	mu        sync.Mutex
	clock     [][2]int64 // the attempt's clock readings (AttemptEntry.Clock)
}

type exchangeRec struct {
	Exchange
	tmp string // the raw stream, unmasked, until Write
}

// NewRecorder records into dir, which Write fills; now is the clock.
func NewRecorder(dir string, now func() time.Time) (*Recorder, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create recording directory: %w", err)
	}
	partial, err := os.MkdirTemp(dir, ".partial-")
	if err != nil {
		return nil, fmt.Errorf("create recording directory: %w", err)
	}
	return &Recorder{dir: dir, partial: partial, now: now, tests: map[string]*testRec{}}, nil
}

// Live: recorded runs reach the agent.
func (r *Recorder) Live() bool { return true }

// Attempt records the attempt's exchanges through base.
func (r *Recorder) Attempt(t *spec.Test, run, retry int, base *http.Client) engine.AttemptIO {
	a := &attemptRec{run: run, retry: retry, start: r.now()}
	r.mu.Lock()
	tr := r.tests[t.ID]
	if tr == nil {
		tr = &testRec{test: t}
		r.tests[t.ID] = tr
	}
	tr.attempts = append(tr.attempts, a)
	r.mu.Unlock()
	c := *base
	c.Transport = &recordTransport{r: r, a: a, base: transport(base)}
	return engine.AttemptIO{HTTP: &c, Now: func() time.Time { return r.read(a) }}
}

// read is the attempt's clock: the recorder's, in whole milliseconds since
// the attempt started, every reading kept so that a replay reads the same
// times in the same order.
func (r *Recorder) read(a *attemptRec) time.Time {
	ms := max(r.since(a), 0)
	a.mu.Lock()
	if n := len(a.clock); n > 0 && a.clock[n-1][0] >= ms {
		ms = a.clock[n-1][0] // never backwards
		a.clock[n-1][1]++
	} else {
		a.clock = append(a.clock, [2]int64{ms, 1})
	}
	a.mu.Unlock()
	return a.start.Add(time.Duration(ms) * time.Millisecond)
}

func transport(c *http.Client) http.RoundTripper {
	if c.Transport != nil {
		return c.Transport
	}
	return http.DefaultTransport
}

type recordTransport struct {
	r    *Recorder
	a    *attemptRec
	base http.RoundTripper
}

func (t *recordTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	body, err := requestBody(req)
	if err != nil {
		return nil, err
	}
	x := &exchangeRec{Exchange: Exchange{AtMs: t.r.since(t.a), Request: body}}
	t.a.exchanges = append(t.a.exchanges, x)
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		x.Error, x.EndMs = err.Error(), t.r.since(t.a)
		t.stamp(req, x)
		return nil, err
	}
	x.Status, x.ContentType = resp.StatusCode, resp.Header.Get("Content-Type")
	f, err := t.r.tempStream()
	if err != nil {
		resp.Body.Close()
		return nil, err
	}
	x.tmp = f.Name()
	resp.Body = &teeBody{body: resp.Body, f: f, x: x, r: t.r, a: t.a, done: func() { t.stamp(req, x) }}
	return resp, nil
}

// stamp gives the request's span (tracectx) the exchange's recorded
// times, which a replay gives it too.
func (t *recordTransport) stamp(req *http.Request, x *exchangeRec) {
	tracectx.Stamp(req.Context(), t.a.start.Add(time.Duration(x.AtMs)*time.Millisecond), t.a.start.Add(time.Duration(x.EndMs)*time.Millisecond))
}

// requestBody reads the request's body and puts it back.
func requestBody(req *http.Request) (json.RawMessage, error) {
	if req.Body == nil {
		return json.RawMessage("null"), nil
	}
	b, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("read request body: %w", err)
	}
	req.Body = io.NopCloser(bytes.NewReader(b))
	if !json.Valid(b) {
		b, _ = json.Marshal(string(b))
	}
	return b, nil
}

func (r *Recorder) since(a *attemptRec) int64 { return r.now().Sub(a.start).Milliseconds() }

func (r *Recorder) tempStream() (*os.File, error) {
	r.mu.Lock()
	r.seq++
	n := r.seq
	r.mu.Unlock()
	f, err := os.Create(filepath.Join(r.partial, fmt.Sprint(n, ".sse")))
	if err != nil {
		return nil, fmt.Errorf("record the response: %w", err)
	}
	return f, nil
}

// teeBody copies the response to its file as the client reads it, noting
// when each chunk came.
type teeBody struct {
	body   io.ReadCloser
	f      *os.File
	x      *exchangeRec
	r      *Recorder
	a      *attemptRec
	closed bool
	// done is called once the exchange has ended (EndMs set).
	done  func()
	ended bool
}

func (b *teeBody) end() {
	if !b.ended {
		b.ended = true
		b.done()
	}
}

func (b *teeBody) Read(p []byte) (int, error) {
	n, err := b.body.Read(p)
	if n > 0 {
		b.f.Write(p[:n])
		b.x.Chunks = append(b.x.Chunks, [2]int64{b.r.since(b.a), int64(n)})
	}
	if err != nil && !b.ended { // it ended at its first error
		b.x.EndMs = b.r.since(b.a)
		b.end()
	}
	return n, err
}

func (b *teeBody) Close() error {
	if !b.closed {
		b.closed = true
		if !b.ended { // closed before its end was read; 0 ms is an end too
			b.x.EndMs = b.r.since(b.a)
		}
		b.end()
		b.f.Close()
	}
	return b.body.Close()
}

// Meta is what the index says besides the tests.
type Meta struct {
	Version string
	Target  Target
}

// Write puts the recording in place: each test's file and streams, every
// text passed through mask (the report's masking), then index.json. The
// tests are those of suite that ran, in its order.
func (r *Recorder) Write(suite *spec.Suite, m Meta, mask func(string) string) error {
	defer os.RemoveAll(r.partial)
	if err := os.MkdirAll(filepath.Join(r.dir, "tests"), 0o755); err != nil {
		return fmt.Errorf("write recording: %w", err)
	}
	idx := Index{Schema: Schema, AnankeVersion: m.Version, RecordedAt: r.now().UTC().Format(time.RFC3339), Target: m.Target, Tests: []TestEntry{}}
	hashes := map[string]string{}
	var errs []error
	for _, t := range suite.Tests {
		tr := r.tests[t.ID]
		if tr == nil {
			continue
		}
		stem := "tests/" + report.SafeName(t.ID)
		tf := TestFile{Test: t.ID}
		slices.SortStableFunc(tr.attempts, func(a, b *attemptRec) int { return cmp.Or(cmp.Compare(a.run, b.run), cmp.Compare(a.retry, b.retry)) })
		for _, a := range tr.attempts {
			ae := AttemptEntry{Run: a.run, Retry: a.retry, Clock: a.clock, Exchanges: []Exchange{}}
			for k, x := range a.exchanges {
				ex := x.Exchange
				ex.Request = json.RawMessage(mask(string(ex.Request)))
				if x.tmp != "" {
					ex.Stream = fmt.Sprintf("%s.%d-%d.%d.sse", stem, a.run, a.retry, k+1)
					chunks, err := maskStream(x.tmp, filepath.Join(r.dir, filepath.FromSlash(ex.Stream)), x.Chunks, mask)
					if err != nil {
						errs = append(errs, err)
						continue
					}
					ex.Chunks = chunks
				}
				ae.Exchanges = append(ae.Exchanges, ex)
			}
			tf.Attempts = append(tf.Attempts, ae)
		}
		if err := writeJSON(filepath.Join(r.dir, filepath.FromSlash(stem+".json")), tf); err != nil {
			errs = append(errs, err)
			continue
		}
		if _, ok := hashes[t.Path]; !ok {
			hashes[t.Path] = fileHash(t.Path)
		}
		idx.Tests = append(idx.Tests, TestEntry{ID: t.ID, File: filepath.ToSlash(t.Path), FileSHA256: hashes[t.Path], Recording: stem + ".json"})
	}
	if err := writeJSON(filepath.Join(r.dir, IndexFile), idx); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// maskStream copies a raw stream into place, masking it line by line (a
// secret never spans an SSE line), and returns the chunks re-counted over
// the masked bytes: each line belongs to the chunk in which it ended.
func maskStream(from, to string, chunks [][2]int64, mask func(string) string) ([][2]int64, error) {
	in, err := os.Open(from)
	if err != nil {
		return nil, fmt.Errorf("write recording: %w", err)
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		return nil, fmt.Errorf("write recording: %w", err)
	}
	w := bufio.NewWriter(out)
	r := bufio.NewReader(in)
	masked := make([][2]int64, 0, len(chunks))
	var pending, buf []byte
	for _, c := range chunks {
		buf = slices.Grow(buf[:0], int(c[1]))[:c[1]]
		if _, err := io.ReadFull(r, buf); err != nil {
			out.Close()
			return nil, fmt.Errorf("write recording: read %s: %w", from, err)
		}
		pending = append(pending, buf...)
		n := int64(0)
		for {
			i := bytes.IndexByte(pending, '\n')
			if i < 0 {
				break
			}
			m := mask(string(pending[:i+1]))
			w.WriteString(m)
			n += int64(len(m))
			pending = pending[i+1:]
		}
		masked = append(masked, [2]int64{c[0], n})
	}
	if len(pending) > 0 { // a last line without its newline
		m := mask(string(pending))
		w.WriteString(m)
		if len(masked) > 0 {
			masked[len(masked)-1][1] += int64(len(m))
		}
	}
	// Chunks that ended no line carry no bytes: drop them.
	kept := masked[:0]
	for _, c := range masked {
		if c[1] > 0 {
			kept = append(kept, c)
		}
	}
	if err := errors.Join(w.Flush(), out.Close()); err != nil {
		return nil, fmt.Errorf("write recording: %w", err)
	}
	return kept, nil
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write recording: %w", err)
	}
	return nil
}

// fileHash is the hex SHA-256 of a file's content ("" when unreadable).
func fileHash(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
