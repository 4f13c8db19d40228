package replay

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/status"
	"github.com/ananke/action/internal/target"
	"github.com/ananke/action/internal/trace"
	"github.com/ananke/action/internal/vars"
)

// echoSession is a protocol the engine has never heard of: each turn POSTs
// its text through the attempt's HTTP client and records the answer as the
// assistant's text.
type echoSession struct {
	s *engine.Setup
}

func (e *echoSession) Turn(ctx context.Context, in target.Turn, rec *trace.Recorder) (target.Outcome, error) {
	rec.StartRun("echo", e.s.Now())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, e.s.Endpoint(), strings.NewReader(`{"say":`+string(must(json.Marshal(in.Text)))+`}`))
	resp, err := e.s.HTTP.Do(req)
	if err != nil {
		return target.Outcome{}, err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	at := e.s.Now()
	seq := rec.Record("echo:reply", body, at)
	rec.Text("m", string(body), at, seq)
	rec.EndRun(1, nil, e.s.Now())
	return target.Outcome{}, nil
}

func (e *echoSession) State() json.RawMessage { return nil }
func (e *echoSession) Source() *trace.Source  { return &trace.Source{Adapter: "echo", Mode: "live"} }
func (e *echoSession) Close() error           { return nil }

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// TestRecordAnyProtocol: a protocol whose sessions go through the
// attempt's HTTP client is recorded and replayed by the engine's tape
// without the engine knowing it; the replayed trace is the recorded one,
// its source says it was replayed, and the agent is not asked again.
func TestRecordAnyProtocol(t *testing.T) {
	var asked atomic.Int32
	var parents []string // the requests' traceparents; one at a time
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		parents = append(parents, r.Header.Get("traceparent"))
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Write(b)
	}))
	defer srv.Close()
	dir := t.TempDir()
	test := &spec.Test{ID: "echo/one", Path: filepath.Join(dir, "one.ananke.yaml"),
		Turns: []spec.Turn{{Type: target.TurnUser, User: vars.Literal("hello")}, {Type: target.TurnUser, User: vars.Literal("again")}}}
	if err := os.WriteFile(test.Path, []byte("name: one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	suite := &spec.Suite{Config: &spec.Config{Dir: dir, Target: spec.Target{Type: "echo", Endpoint: vars.Literal(srv.URL), TimeoutMs: 60_000}},
		Tests: []*spec.Test{test}}
	echo := engine.Protocol{
		Open:     func(s *engine.Setup) target.Session { return &echoSession{s: s} },
		Replayed: &trace.Source{Adapter: "echo", Mode: "replay"},
	}
	protocols := func(typ string) (engine.Protocol, bool) { return echo, typ == "echo" }
	run := func(tape engine.Tape) *trace.Trace {
		t.Helper()
		out := engine.Run(context.Background(), engine.Options{Suite: suite, Tape: tape, Protocols: protocols})
		a := out.Tests[0].Attempts[0]
		if a.Status != status.Pass {
			t.Fatalf("attempt %s: %s", a.Status, a.Reason)
		}
		return a.Trace
	}

	rec, err := NewRecorder(filepath.Join(dir, "rec"), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	live := run(rec)
	if err := rec.Write(suite, Meta{Version: "test"}, func(s string) string { return s }); err != nil {
		t.Fatal(err)
	}
	p, err := Open(filepath.Join(dir, "rec"), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	replayed := run(p)
	if n := asked.Load(); n != 2 {
		t.Errorf("the agent was asked %d times; want 2, both while recording", n)
	}
	for i, want := range []string{`{"say":"hello"}`, `{"say":"again"}`} {
		if got := replayed.Turns[i].Text(); got != want || live.Turns[i].Text() != want {
			t.Errorf("turn %d: replayed %q, live %q; want %q", i, got, live.Turns[i].Text(), want)
		}
		if live.Turns[i].StartMs != replayed.Turns[i].StartMs-replayed.TestStartMs+live.TestStartMs {
			t.Errorf("turn %d started %d ms into the replay, %d ms into the recording", i,
				replayed.Turns[i].StartMs-replayed.TestStartMs, live.Turns[i].StartMs-live.TestStartMs)
		}
	}
	// Each request carried the attempt's trace context, under a span of
	// its own its turn keeps; the replay has a trace of its own, and its
	// request spans the recorded times.
	if replayed.TraceID == "" || replayed.TraceID == live.TraceID {
		t.Errorf("trace ids: live %q, replayed %q; want a fresh one", live.TraceID, replayed.TraceID)
	}
	for i := range live.Turns {
		lt, rt := live.Turns[i], replayed.Turns[i]
		if len(lt.Requests) != 1 || len(rt.Requests) != 1 {
			t.Fatalf("turn %d: %d live requests, %d replayed; want 1", i, len(lt.Requests), len(rt.Requests))
		}
		if want := "00-" + live.TraceID + "-" + lt.Requests[0].SpanID + "-01"; parents[i] != want {
			t.Errorf("turn %d: traceparent %q, want %q", i, parents[i], want)
		}
		// Both are stamped from their tape's start plus the exchange's
		// recorded milliseconds: taken from the first request's start,
		// they are equal to the nanosecond. (The trace's own start is
		// another clock reading, which a busy machine may put in the
		// next millisecond.)
		rel := func(tr *trace.Trace, r trace.RequestSpan) [2]int64 {
			first := tr.Turns[0].Requests[0].StartNs
			return [2]int64{r.StartNs - first, r.EndNs - first}
		}
		if l, r := rel(live, lt.Requests[0]), rel(replayed, rt.Requests[0]); l != r {
			t.Errorf("turn %d: request span at %v ns from the first request live, %v replayed", i, l, r)
		}
	}
	if live.Source.Mode != "live" || replayed.Source.Mode != "replay" || replayed.Source.Adapter != "echo" {
		t.Errorf("sources: live %+v, replayed %+v", live.Source, replayed.Source)
	}
}
