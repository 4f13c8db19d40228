package cli

import (
	"bytes"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// The budgets of a whole run that CI holds, as counts, never as time
// (docs/performance.md, "Budgets CI holds"): `ananke run` of one test
// streaming 100k text deltas of 20 bytes (bench/sidebyside's "100k"
// shape), in process. Each is set about a quarter above what was measured;
// lower it when a run gets cheaper.
const (
	// budgetReportDir bounds the report directory's bytes per byte of
	// stream (design: at most 1.5): the trace, and the HTML page's first
	// MiB of events. Measured 2026-11-25: 1.29.
	budgetReportDir = 1.45
	// budgetTraces bounds the trace files' bytes per byte of stream
	// (design: at most 1.5). Measured 2026-11-25: 1.09.
	budgetTraces = 1.20
	// budgetAllocBytes bounds the bytes the run allocates per byte of
	// stream, reading, checking and reporting it. Measured 2026-11-25:
	// 1.63 (9.39 before; docs/performance.md has both).
	budgetAllocBytes = 2.0
)

// deltaStream is a run of n TEXT_MESSAGE_CONTENT events of 20 bytes, as
// bench/streamserver sends it.
func deltaStream(n int) []byte {
	var b bytes.Buffer
	b.WriteString("data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t1\",\"runId\":\"r1\"}\n\n")
	b.WriteString("data: {\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}\n\n")
	for range n {
		b.WriteString("data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"abcdefghijklmnopqrs \"}\n\n")
	}
	b.WriteString("data: {\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}\n\n")
	b.WriteString("data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t1\",\"runId\":\"r1\"}\n\n")
	return b.Bytes()
}

// TestBudgetRun: a 100k-delta run writes a report directory and traces
// within their budgets per byte of stream, and allocates within its budget.
func TestBudgetRun(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector changes what a run allocates and makes this run slow; .ci/test holds these budgets in a run without it")
	}
	body := deltaStream(100_000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(body)
	}))
	defer srv.Close()
	dir := t.TempDir()
	cfg := fmt.Sprintf("version: \"1.0\"\ntarget: {type: agui, endpoint: %q, agentId: bench, timeout_ms: 600000}\n", srv.URL)
	suite := `{"id": "t1", "input": "text:100000:20", "assertions": [{"type": "regex", "pattern": "^abc"}]}` + "\n"
	for name, content := range map[string]string{"ananke.config.yaml": cfg, "bench.ananke.jsonl": suite} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res := run(t, dir, map[string]string{"NO_COLOR": "1"}, "run", "--report-dir", "report")
	runtime.ReadMemStats(&after)
	if res.code != ExitPass {
		t.Fatalf("exit %d\n%s%s", res.code, res.out, res.errOut)
	}
	var all, traces int64
	err := filepath.WalkDir(filepath.Join(dir, "report"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		all += info.Size()
		if strings.HasSuffix(p, ".trace.json") {
			traces += info.Size()
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	stream := float64(len(body))
	for _, m := range []struct {
		what   string
		got    float64
		budget float64
		hint   string
	}{
		{"the report directory's bytes per byte of stream", float64(all) / stream, budgetReportDir, "which file grew? (ls -l the report directory of go run ./bench/sidebyside -official=false -only 100k)"},
		{"the trace files' bytes per byte of stream", float64(traces) / stream, budgetTraces, "what does a trace write beside each event?"},
		{"bytes allocated per byte of stream", float64(after.TotalAlloc-before.TotalAlloc) / stream, budgetAllocBytes, "what allocates per event? (ananke run --memprofile mem.prof; go tool pprof -sample_index=alloc_space -top mem.prof)"},
	} {
		t.Logf("%s: %.2f (budget %.2f)", m.what, m.got, m.budget)
		if m.got > m.budget {
			t.Errorf("%s: %.2f, over its budget of %.2f: %s", m.what, m.got, m.budget, m.hint)
		}
	}
}

// The start-up budgets: what every run pays before its command starts, for
// the initialisation of every package linked in, whatever the target.
// Measured by the runtime itself (GODEBUG=inittrace=1), so they are counts,
// the same on every machine.
const (
	// budgetInitPackages bounds the packages that run initialisation code
	// at start-up: each maps pages of the binary that count in every run's
	// memory. Measured 2026-11-27: 152 (222 while the SDK's A2A 0.3
	// compatibility linked gRPC and protobuf; 119 before the A2A and MCP
	// SDKs).
	budgetInitPackages = 185
	// budgetInitBytes bounds the heap they allocate. Measured 2026-11-27:
	// 2.08 MB, 1.70 MB of it the JSON Schema validator's (2.40 MB with
	// gRPC and protobuf).
	budgetInitBytes = 2.5e6
	// budgetOwnInitBytes bounds the heap Ananke's own packages allocate at
	// start-up: regular expressions, templates and tables are made at
	// first use. Measured 2026-11-25: 56 KB (270 KB before).
	budgetOwnInitBytes = 70e3
)

// TestBudgetStartup: `ananke version` initialises at most the budgeted
// packages and heap.
func TestBudgetStartup(t *testing.T) {
	cmd := exec.Command(filepath.Join(ananke(t), "ananke"), "version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("ananke version: %v\n%s", err, stderr.String())
	}
	// init github.com/… @0.5 ms, 0.1 ms clock, 1234 bytes, 5 allocs
	var pkgs int
	var heap, own int64
	var biggest string
	var most int64
	for line := range strings.Lines(stderr.String()) {
		f := strings.Fields(line)
		if len(f) < 11 || f[0] != "init" || f[8] != "bytes," {
			continue
		}
		n, err := strconv.ParseInt(f[7], 10, 64)
		if err != nil {
			t.Fatalf("inittrace line %q: %v", line, err)
		}
		pkgs++
		heap += n
		if strings.HasPrefix(f[1], "github.com/ananke/action/") {
			own += n
		}
		if n > most {
			biggest, most = f[1], n
		}
	}
	if pkgs == 0 {
		t.Fatalf("no inittrace lines in\n%s", stderr.String())
	}
	t.Logf("%d packages initialised, %.2f MB allocated, %.0f KB by Ananke's own (budgets %d, %.2f MB, %.0f KB); the most: %s, %.2f MB",
		pkgs, float64(heap)/1e6, float64(own)/1e3, budgetInitPackages, budgetInitBytes/1e6, budgetOwnInitBytes/1e3, biggest, float64(most)/1e6)
	if pkgs > budgetInitPackages {
		t.Errorf("%d packages run initialisation code at start-up, over the budget of %d: which dependency came in? (GODEBUG=inittrace=1 ananke version)", pkgs, budgetInitPackages)
	}
	if heap > budgetInitBytes {
		t.Errorf("package initialisation allocates %.2f MB, over the budget of %.2f MB (the most: %s, %.2f MB): which dependency came in?", float64(heap)/1e6, budgetInitBytes/1e6, biggest, float64(most)/1e6)
	}
	if own > budgetOwnInitBytes {
		t.Errorf("Ananke's packages allocate %.0f KB at start-up, over the budget of %.0f KB: make what they build at first use (sync.OnceValue) (GODEBUG=inittrace=1 ananke version | grep ananke)", float64(own)/1e3, budgetOwnInitBytes/1e3)
	}
}
