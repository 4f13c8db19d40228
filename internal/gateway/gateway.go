package gateway

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ananke/action/internal/backend"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/secret"
)

// Options are what a gateway needs for a run: the config's gateway:,
// resolved, and the run's board and tests.
type Options struct {
	// Mode is the run's mode: the config's, or the command line's
	// override (ParseMode).
	Mode Mode
	// Upstream is the real model's base URL, resolved; required but in
	// Replay.
	Upstream string
	// APIKey is the upstream's key, resolved: sent as a bearer token and
	// masked in every error; "" forwards the agent's own Authorization.
	APIKey string
	// Dir is the recordings directory (Config.RecordingsDir): read when
	// the gateway is made in Replay, written by Save in Record.
	Dir string
	// Ignore are the fields the fingerprint leaves out (Config.Ignore).
	Ignore []string
	// Timeout bounds one upstream exchange and a timeout fault's hold
	// (zero: DefaultTimeoutMs).
	Timeout time.Duration
	// LeaveStreamOptions forwards a streamed request as the agent sent it
	// (the config's gateway.include_usage: false, Config.IncludeUsage).
	// Otherwise one that does not set stream_options.include_usage goes
	// upstream with it set to true, so that its stream reports its usage.
	LeaveStreamOptions bool
	// ModelFor, when set, names the model a test's requests ask the
	// upstream for, by the test id of the attempt the request belongs to
	// (a variant's gateway.model, docs/variants.md); "" keeps the
	// request's own. The request is rewritten before anything else sees
	// it: what is forwarded, recorded, fingerprinted for replay and shown
	// as the model call's model all name the rewritten model.
	ModelFor func(testID string) string
	// Board attributes each request to the test attempt bound to it.
	Board *backend.Board
	// Tests are the tests' gateway: by test id (spec.Test.ID); a test
	// not in it has no faults.
	Tests map[string]*Test
	// HTTP is the client that reaches the upstream (nil: one that
	// follows no redirect and reads no proxy from the environment).
	HTTP *http.Client
	// Now is the clock of the model calls' times (nil: time.Now).
	Now func() time.Time
}

// Gateway is the model gateway of a run: Handler serves the agent, Save
// writes what Record kept.
type Gateway struct {
	o        Options
	upstream *url.URL
	client   *http.Client
	now      func() time.Time

	// recordings are Replay's, by test id.
	recordings map[string]*recording

	mu sync.Mutex
	// attempts are the attempts the gateway has seen, by binding token;
	// numbered per test in the order of their first request.
	attempts map[string]*attempt
	numbered map[string]int
	// kept are Record's exchanges, by test id.
	kept map[string][]Exchange
}

// attempt is what the gateway counts for one bound attempt: its model
// calls (for faults) and, in Replay, how often each request was seen.
type attempt struct {
	testID    string
	n         int
	calls     int
	turnCalls map[int]int
	seen      map[string]int
}

// maxRequestBytes bounds a request body the agent sends.
const maxRequestBytes = 32 << 20

// New makes the gateway of a run. In Replay it reads every recording in
// o.Dir, and reports each corrupt one at its file:line:col.
func New(o Options) (*Gateway, error) {
	if !slices.Contains(Modes, o.Mode) {
		return nil, fmt.Errorf("gateway: unknown mode %q; the modes are passthrough, record and replay", o.Mode)
	}
	if o.Board == nil {
		return nil, errors.New("gateway: no backend board to attribute requests with")
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeoutMs * time.Millisecond
	}
	g := &Gateway{o: o, now: o.Now, attempts: map[string]*attempt{}, numbered: map[string]int{}, kept: map[string][]Exchange{}}
	if g.now == nil {
		g.now = time.Now
	}
	g.client = httpClient(o.HTTP)
	if o.Mode != Replay {
		u, err := url.Parse(o.Upstream)
		if o.Upstream == "" {
			return nil, fmt.Errorf("gateway: %s mode forwards to gateway.upstream, which is empty", o.Mode)
		}
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("gateway: gateway.upstream %q is not an http:// or https:// URL", g.mask(secret.URL(o.Upstream)))
		}
		g.upstream = u
	}
	if o.Mode != Passthrough && o.Dir == "" {
		return nil, fmt.Errorf("gateway: %s mode needs a recordings directory", o.Mode)
	}
	if o.Mode == Replay {
		recs, err := readRecordings(o.Dir, o.Ignore)
		if err != nil {
			return nil, err
		}
		g.recordings = recs
	}
	return g, nil
}

// httpClient is a copy of hc, or a new client, that follows no
// redirect: a redirect would send the conversation, and with some
// clients the key, elsewhere.
func httpClient(hc *http.Client) *http.Client {
	var c http.Client
	if hc != nil {
		c = *hc
	} else {
		t := http.DefaultTransport.(*http.Transport).Clone()
		// Only internal/cli reads the environment; it passes Options.HTTP
		// when a proxy is wanted.
		t.Proxy = nil
		c.Transport = t
	}
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &c
}

// readRecordings reads every recording (*.jsonl) in dir, by test id.
func readRecordings(dir string, ignore []string) (map[string]*recording, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("gateway: replay: there is no recordings directory %s; record the tests first (ananke run --gateway record)", dir)
	}
	if err != nil {
		return nil, fmt.Errorf("gateway: replay: read the recordings: %w", err)
	}
	recs := map[string]*recording{}
	var diags diag.Diagnostics
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".jsonl") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("gateway: replay: %w", err)
		}
		rec, ds := parseRecording(path, f, ignore)
		f.Close()
		if ds != nil {
			diags = append(diags, ds...)
			continue
		}
		if prev := recs[rec.test]; prev != nil {
			diags.Add(diag.Pos{File: path, Line: 1, Col: 1}, "test %q is recorded in %s already; keep one of the two files", rec.test, prev.file)
			continue
		}
		recs[rec.test] = rec
	}
	if diags != nil {
		return nil, diags
	}
	return recs, nil
}

// Mode is the gateway's mode.
func (g *Gateway) Mode() Mode { return g.o.Mode }

// attemptOf is the gateway's count for a binding.
func (g *Gateway) attemptOf(bd *backend.Binding) *attempt {
	g.mu.Lock()
	defer g.mu.Unlock()
	a := g.attempts[bd.Token]
	if a == nil {
		g.numbered[bd.TestID]++
		a = &attempt{testID: bd.TestID, n: g.numbered[bd.TestID], turnCalls: map[int]int{}, seen: map[string]int{}}
		g.attempts[bd.Token] = a
	}
	return a
}

// keep adds an exchange to the recording of a test.
func (g *Gateway) keep(testID string, e Exchange) {
	g.mu.Lock()
	g.kept[testID] = append(g.kept[testID], e)
	g.mu.Unlock()
}

// Save writes, in Record, the recording of every test that made a model
// call: one file per test in Options.Dir (created if need be), replacing
// the test's file, its exchanges by attempt then in the order they were
// made. A test that made none keeps its file. Other modes write nothing.
func (g *Gateway) Save() error {
	if g.o.Mode != Record {
		return nil
	}
	g.mu.Lock()
	kept := make(map[string][]Exchange, len(g.kept))
	for id, ex := range g.kept {
		kept[id] = slices.Clone(ex)
	}
	g.mu.Unlock()
	if len(kept) == 0 {
		return nil
	}
	if err := os.MkdirAll(g.o.Dir, 0o755); err != nil {
		return fmt.Errorf("gateway: record: %w", err)
	}
	ids := make([]string, 0, len(kept))
	for id := range kept {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var errs []error
	for _, id := range ids {
		ex := kept[id]
		slices.SortStableFunc(ex, func(a, b Exchange) int { return a.Attempt - b.Attempt })
		if err := writeRecording(g.o.Dir, id, ex); err != nil {
			errs = append(errs, fmt.Errorf("gateway: %w", err))
		}
	}
	return errors.Join(errs...)
}

// Close saves the recordings (Save) and closes the upstream's idle
// connections; call it once the server stopped serving.
func (g *Gateway) Close() error {
	err := g.Save()
	g.client.CloseIdleConnections()
	return err
}

// mask hides the key in a text meant for a person.
func (g *Gateway) mask(s string) string {
	if len(g.o.APIKey) >= 3 {
		s = strings.ReplaceAll(s, g.o.APIKey, secret.Mask)
	}
	return s
}

// maskBytes hides the key in what is recorded: an upstream that echoes
// it in an answer does not put it in a file.
func (g *Gateway) maskBytes(b []byte) []byte {
	if len(g.o.APIKey) >= 3 {
		b = bytes.ReplaceAll(b, []byte(g.o.APIKey), []byte(secret.Mask))
	}
	return b
}
