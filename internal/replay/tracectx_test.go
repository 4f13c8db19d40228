package replay

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/otel/tracectx"
	"github.com/ananke/action/internal/spec"
)

// TestReplayStampsRequestSpans: the spans of an attempt's requests
// (tracectx) take the exchanges' recorded times, so a replay on a far
// busier machine gives each the recorded start and end exactly, from the
// attempt's start; the tape, not the attempt's clock, stamps them, and the
// traceparent the request carries plays no part in matching it.
func TestReplayStampsRequestSpans(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("traceparent") == "" {
			t.Error("a recorded request without traceparent")
		}
		io.WriteString(w, "data: a\n\n")
	}))
	defer srv.Close()
	dir := t.TempDir()
	test := &spec.Test{ID: "suite/spans", Path: filepath.Join(dir, "spans.ananke.yaml")}
	os.WriteFile(test.Path, []byte("name: spans\n"), 0o644)

	// attempt sends two requests in one turn, the machine's clock moving
	// by load around each, and returns their spans from the attempt's
	// start, in ms.
	attempt := func(aio engine.AttemptIO, url string, machine *machineClock, load time.Duration) [][2]int64 {
		t.Helper()
		tc, err := tracectx.New(tracectx.Options{Now: machine.now})
		if err != nil {
			t.Fatal(err)
		}
		start := aio.Now()
		c := tc.Client(aio.HTTP)
		tc.StartTurn(0)
		for range 2 {
			machine.advance(3 * load)
			resp, err := c.Post(url, "application/json", strings.NewReader(`{"runId":"r"}`))
			if err != nil {
				t.Fatal(err)
			}
			machine.advance(2 * load)
			io.ReadAll(resp.Body)
			resp.Body.Close()
		}
		var out [][2]int64
		for _, r := range tc.EndTurn(0) {
			out = append(out, [2]int64{(r.StartNs - start.UnixNano()) / 1e6, (r.EndNs - start.UnixNano()) / 1e6})
		}
		return out
	}
	recMachine := &machineClock{t: time.Unix(1_700_000_000, 900_000)}
	rec, err := NewRecorder(filepath.Join(dir, "rec"), recMachine.now)
	if err != nil {
		t.Fatal(err)
	}
	recorded := attempt(rec.Attempt(test, 0, 0, srv.Client()), srv.URL, recMachine, time.Millisecond)
	if want := [][2]int64{{3, 5}, {8, 10}}; !slices.Equal(recorded, want) {
		t.Errorf("recorded request spans %v, want %v", recorded, want)
	}
	if err := rec.Write(&spec.Suite{Tests: []*spec.Test{test}}, Meta{Version: "test"}, func(s string) string { return s }); err != nil {
		t.Fatal(err)
	}
	machine := &machineClock{t: time.Unix(1_800_000_000, 200_000)}
	p, err := Open(filepath.Join(dir, "rec"), machine.now)
	if err != nil {
		t.Fatal(err)
	}
	if replayed := attempt(p.Attempt(test, 0, 0, http.DefaultClient), "http://agent.invalid/", machine, 40*time.Millisecond); !slices.Equal(replayed, recorded) {
		t.Errorf("replayed request spans %v, recorded %v", replayed, recorded)
	}
}
