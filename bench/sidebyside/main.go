// Command sidebyside measures Ananke beside a bare Go AG-UI consumer
// (bench/bare, about the lower bound for Go) and the official TypeScript
// client (@ag-ui/client's HttpAgent, testdata/interop/bench-client.mjs), on
// the same synthetic streams (bench/streamserver), alternating the three,
// and prints the medians of wall time, events per second and peak RSS with
// Ananke's ratios to the bare consumer, and the size of Ananke's report
// directory beside the stream's.
//
//	go run ./bench/sidebyside                  every shape, 3 rounds
//	go run ./bench/sidebyside -quick           small shapes, 1 round: proves it works
//	go run ./bench/sidebyside -official=false  without the official client (it takes minutes on big streams)
//
// Wall time is process start to exit; Ananke's includes loading the suite
// and writing the whole report directory. Peak RSS is the process's
// maximum resident set (getrusage). docs/performance.md holds a run's table.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"
)

// shape is one row of the table: a stream, and how many tests run it.
type shape struct {
	name    string
	message string // what the stream server reads
	tests   int    // 1, or a suite of that many one-turn tests
	quick   bool   // part of -quick
	big     bool   // the official client takes minutes on it: one round
	// noOfficial: the official client would take most of an hour.
	noOfficial bool
}

var shapes = []shape{
	{name: "1k text deltas of 20 B", message: "text:1000:20", tests: 1, quick: true},
	{name: "100k text deltas of 20 B", message: "text:100000:20", tests: 1, big: true},
	{name: "10k text deltas of 1 KB", message: "text:10000:1024", tests: 1, big: true},
	{name: "1k deltas + 50 tool calls", message: "tools:1000:20:50", tests: 1, quick: true},
	{name: "a 1000-test suite (20 deltas each)", message: "text:20:20", tests: 1000},
	{name: "a 100-test suite (20 deltas each)", message: "text:20:20", tests: 100, quick: true},
	{name: "1M text deltas of 20 B", message: "text:1000000:20", tests: 1, big: true, noOfficial: true},
}

// sample is one process's measurement.
type sample struct {
	wall   time.Duration
	rssKB  int64
	events int
}

func main() {
	quick := flag.Bool("quick", false, "small shapes, one round: proves the benchmark works (CI)")
	rounds := flag.Int("rounds", 3, "rounds per shape; the table shows medians")
	official := flag.Bool("official", true, "measure the official TypeScript client too (it needs node and npm ci in testdata/interop)")
	only := flag.String("only", "", "run only the shapes whose name matches this regexp")
	dir := flag.String("dir", "", "where suites and report directories are written (default: the system's temporary directory)")
	flag.Parse()
	if *quick {
		*rounds = 1
	}
	var match *regexp.Regexp
	if *only != "" {
		match = regexp.MustCompile(*only)
	}
	if err := run(*quick, *rounds, *official, match, *dir); err != nil {
		fmt.Fprintln(os.Stderr, "sidebyside:", err)
		os.Exit(1)
	}
}

func run(quick bool, rounds int, official bool, match *regexp.Regexp, dir string) error {
	root, err := repoRoot()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(dir, "ananke-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bins := map[string]string{}
	for name, pkg := range map[string]string{"ananke": ".", "bare": "./bench/bare", "streamserver": "./bench/streamserver"} {
		bins[name] = filepath.Join(tmp, name)
		// Built as releases are (.goreleaser.yaml): static, stripped.
		build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", bins[name], pkg)
		build.Dir = root
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			return fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
		}
	}
	url, stop, err := startServer(bins["streamserver"])
	if err != nil {
		return err
	}
	defer stop()
	node := ""
	if official {
		if node, err = exec.LookPath("node"); err != nil {
			return fmt.Errorf("the official client needs node (or pass -official=false): %w", err)
		}
	}
	fmt.Printf("%s, %d CPUs, %s; %d round(s), medians\n\n", runtime.GOOS+"/"+runtime.GOARCH, runtime.NumCPU(), runtime.Version(), rounds)
	fmt.Println("| stream | official client | bare Go | Ananke | Ananke / bare Go | traces / stream | report dir / stream |")
	fmt.Println("|---|---|---|---|---|---|---|")
	for _, sh := range shapes {
		if (quick && !sh.quick) || (match != nil && !match.MatchString(sh.name)) {
			continue
		}
		row, err := measure(root, tmp, bins, url, node, sh, rounds)
		if err != nil {
			return fmt.Errorf("%s: %w", sh.name, err)
		}
		fmt.Println(row)
	}
	return nil
}

// measure runs one shape's rounds, alternating the consumers, and formats
// its row.
func measure(root, tmp string, bins map[string]string, url, node string, sh shape, rounds int) (string, error) {
	suite, err := writeSuite(tmp, url, sh)
	if err != nil {
		return "", err
	}
	reports := ""
	defer func() { os.RemoveAll(reports) }()
	var ananke, bare, official []sample
	streamBytes := 0
	for round := range rounds {
		// Each round writes a fresh report directory; the previous one is
		// removed now, and the disk settled, so no process is timed while
		// the file system writes back or deletes another's files.
		if reports != "" {
			os.RemoveAll(reports)
		}
		reports = filepath.Join(tmp, fmt.Sprint("report-", round))
		syscall.Sync()
		s, stdout, err := timed(exec.Command(bins["bare"], "-url", url+"/agent", "-message", sh.message, "-n", fmt.Sprint(sh.tests)))
		if err != nil {
			return "", fmt.Errorf("bare: %w", err)
		}
		var st struct{ Events, Bytes int }
		if err := json.Unmarshal(stdout, &st); err != nil {
			return "", fmt.Errorf("bare printed %q: %w", stdout, err)
		}
		s.events, streamBytes = st.Events, st.Bytes
		bare = append(bare, s)

		syscall.Sync()
		cmd := exec.Command(bins["ananke"], "run", "--config", filepath.Join(suite, "ananke.config.yaml"), "--report-dir", reports)
		cmd.Env = append(os.Environ(), "NO_COLOR=1")
		s, out, err := timed(cmd)
		if err != nil {
			return "", fmt.Errorf("ananke: %w\n%s", err, tail(out))
		}
		s.events = st.Events
		ananke = append(ananke, s)

		// The official client takes minutes on big streams: one round.
		if node != "" && !sh.noOfficial && (!sh.big || len(official) == 0) {
			syscall.Sync()
			c := exec.Command(node, "bench-client.mjs", url+"/agent", sh.message, fmt.Sprint(sh.tests))
			c.Dir = filepath.Join(root, "testdata", "interop")
			s, _, err := timed(c)
			if err != nil {
				return "", fmt.Errorf("official client: %w", err)
			}
			s.events = st.Events
			official = append(official, s)
		}
	}
	dir, traces, err := dirSize(reports)
	if err != nil {
		return "", err
	}
	a, b := median(ananke), median(bare)
	off := "—"
	if len(official) > 0 {
		off = cell(median(official))
	}
	return fmt.Sprintf("| %s | %s | %s | %s | %.1f× time, %.1f× memory | %.2f× | %.2f× (%s of %s) |", sh.name, off, cell(b), cell(a),
		float64(a.wall)/float64(b.wall), float64(a.rssKB)/float64(b.rssKB),
		float64(traces)/float64(streamBytes), float64(dir)/float64(streamBytes), mb(dir), mb(int64(streamBytes))), nil
}

// writeSuite writes a suite running the shape: one test, or a dataset of
// tests cases.
func writeSuite(tmp, url string, sh shape) (string, error) {
	dir := filepath.Join(tmp, "suite-"+strings.NewReplacer(":", "-").Replace(sh.message)+fmt.Sprint("-", sh.tests))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	cfg := fmt.Sprintf("version: \"1.0\"\ntarget: {type: agui, endpoint: %q, agentId: bench, timeout_ms: 600000}\n", url+"/agent")
	var cases strings.Builder
	for i := range sh.tests {
		fmt.Fprintf(&cases, "{\"id\": \"t%d\", \"input\": %q, \"assertions\": [{\"type\": \"regex\", \"pattern\": \"^abc\"}]}\n", i+1, sh.message)
	}
	for name, body := range map[string]string{"ananke.config.yaml": cfg, "bench.ananke.jsonl": cases.String()} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// timed runs cmd and measures its wall time and peak RSS.
func timed(cmd *exec.Cmd) (sample, []byte, error) {
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return sample{}, out.Bytes(), err
	}
	s := sample{wall: wall}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		s.rssKB = int64(ru.Maxrss) // KiB on Linux
	}
	return s, out.Bytes(), nil
}

func median(ss []sample) sample {
	walls := make([]time.Duration, len(ss))
	rss := make([]int64, len(ss))
	for i, s := range ss {
		walls[i], rss[i] = s.wall, s.rssKB
	}
	slices.Sort(walls)
	slices.Sort(rss)
	return sample{wall: walls[len(walls)/2], rssKB: rss[len(rss)/2], events: ss[0].events}
}

func cell(s sample) string {
	ms := float64(s.wall.Microseconds()) / 1000
	rate := float64(s.events) / s.wall.Seconds()
	return fmt.Sprintf("%s ms, %s events/s, %d MB", num(ms), num(rate), s.rssKB/1024)
}

// num prints with three significant digits.
func num(f float64) string {
	switch {
	case f >= 1e6:
		return fmt.Sprintf("%.2fM", f/1e6)
	case f >= 1e4:
		return fmt.Sprintf("%.0fk", f/1e3)
	case f >= 100:
		return fmt.Sprintf("%.0f", f)
	}
	return fmt.Sprintf("%.1f", f)
}

func mb(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }

// dirSize is the size of a report directory, and of its trace files.
func dirSize(dir string) (all, traces int64, err error) {
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err == nil {
			all += info.Size()
			if strings.HasSuffix(path, ".trace.json") {
				traces += info.Size()
			}
		}
		return err
	})
	return all, traces, err
}

// startServer starts the stream server and returns its URL.
func startServer(bin string) (string, func(), error) {
	cmd := exec.Command(bin, "-addr", "127.0.0.1:0")
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop := func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }
	buf := make([]byte, 256)
	n, err := out.Read(buf)
	if err != nil {
		stop()
		return "", nil, fmt.Errorf("stream server: %w", err)
	}
	url, ok := strings.CutPrefix(strings.TrimSpace(string(buf[:n])), "listening on ")
	if !ok {
		stop()
		return "", nil, fmt.Errorf("stream server printed %q", buf[:n])
	}
	return url, stop, nil
}

func repoRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", err
	}
	return filepath.Dir(strings.TrimSpace(string(out))), nil
}

func tail(b []byte) string {
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	return string(b)
}
