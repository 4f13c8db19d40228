package replay

import (
	"bufio"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ananke/action/internal/engine"
	"github.com/ananke/action/internal/spec"
)

// machineClock is a machine's clock that moves only when told: the time a
// hook, a busy scheduler or a slow stream takes.
type machineClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *machineClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *machineClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// TestReplayReadsTheRecordedClock plays one attempt as the engine does —
// a hook, the turn's start, the run's, one reading per event, the ends —
// recorded on one machine and replayed on another that is far busier: the
// replay reads the recorded times, in the milliseconds a trace keeps, so
// every duration it reports is the recorded one exactly.
func TestReplayReadsTheRecordedClock(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, e := range []string{"a", "b", "c"} {
			io.WriteString(w, "data: "+e+"\n\n")
			w.(http.Flusher).Flush()
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	test := &spec.Test{ID: "suite/clock", Path: filepath.Join(dir, "clock.ananke.yaml")}
	os.WriteFile(test.Path, []byte("name: clock\n"), 0o644)

	// attempt reads the attempt's clock where the engine does, the machine's
	// clock moving by load × each step; it returns each reading as the
	// trace keeps it: Unix milliseconds, less the attempt's start.
	attempt := func(aio engine.AttemptIO, url string, machine *machineClock, load time.Duration) []int64 {
		t.Helper()
		var got []int64
		start := aio.Now()
		read := func() { got = append(got, aio.Now().UnixMilli()-start.UnixMilli()) }
		machine.advance(7 * load) // a hook
		read()                    // the turn starts
		machine.advance(2 * load)
		read() // the run starts
		resp, err := aio.HTTP.Post(url, "application/json", strings.NewReader(`{"runId":"r"}`))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "data:") {
				read() // an event arrives
			}
			machine.advance(3 * load)
		}
		resp.Body.Close()
		machine.advance(5 * load)
		read() // the run ends
		machine.advance(load + load/2)
		read() // the turn ends
		machine.advance(load / 3)
		read() // the attempt ends
		return got
	}

	// Recorded on a clock 0.9 ms past a millisecond, each step 1 ms.
	recMachine := &machineClock{t: time.Unix(1_700_000_000, 900_000)}
	rec, err := NewRecorder(filepath.Join(dir, "rec"), recMachine.now)
	if err != nil {
		t.Fatal(err)
	}
	recorded := attempt(rec.Attempt(test, 0, 0, srv.Client()), srv.URL, recMachine, time.Millisecond)
	if want := []int64{7, 9, 9, 15, 21, 32, 33, 33}; !slices.Equal(recorded, want) {
		t.Errorf("recorded readings %v, want %v", recorded, want)
	}
	if err := rec.Write(&spec.Suite{Tests: []*spec.Test{test}}, Meta{Version: "test"}, func(s string) string { return s }); err != nil {
		t.Fatal(err)
	}

	// Replayed on a clock 0.2 ms past a millisecond, each step 40 times
	// longer (a loaded machine), and on one whose clock does not move.
	for _, load := range []time.Duration{40 * time.Millisecond, 0} {
		machine := &machineClock{t: time.Unix(1_800_000_000, 200_000)}
		p, err := Open(filepath.Join(dir, "rec"), machine.now)
		if err != nil {
			t.Fatal(err)
		}
		replayed := attempt(p.Attempt(test, 0, 0, http.DefaultClient), "http://agent.invalid/", machine, load)
		if !slices.Equal(replayed, recorded) {
			t.Errorf("step %v: replayed readings %v, recorded %v", load, replayed, recorded)
		}
	}
}
