//go:build unix

package interop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ananke/action/internal/interop/peer"
)

// targetRun is one `ananke run` of a suite whose target speaks plain HTTP
// (openai, http): run live with --record, checked, then replayed from the
// recording with the server stopped and checked again, to the same
// verdicts.
type targetRun struct {
	name     string   // the subtest's
	config   string   // relative to testdata/interop
	paths    []string // relative to testdata/interop
	wantExit int
	tests    map[string]want
	// reasons: per test, more substrings its reason must hold.
	reasons map[string][]string
	// at: per test, where its failing assertion is reported: at the
	// tools.require entry (its "- name:") written last before the line
	// holding marker in the test's file.
	at map[string]yamlAt
	// tokens: per test with usage, each turn's input, output and total
	// tokens; the test's usage is their sum.
	tokens map[string][][3]int64
	// costed: every test with usage has a cost (its model is priced).
	costed bool
	// hidden, when set, is a secret no output, no report and no recording
	// may show.
	hidden string
}

// yamlAt is the assertion that must fail at a line of its test's file.
type yamlAt struct{ id, marker string }

// buildAnanke builds the binary into the test's temporary directory.
func buildAnanke(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "ananke")
	build := exec.Command("go", "build", "-o", bin, root)
	build.Dir = root
	if msg, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, msg)
	}
	return bin
}

// recordReplay runs each suite live with --record, stops the server, and
// replays each from its recording: every run is checked against its table
// both times, and the replay's verdicts — every test's status, every
// assertion's status and message, usage and turn texts — are the recorded
// run's. check, when set, reads each recording after it was made.
func recordReplay(t *testing.T, bin string, env []string, runs []targetRun, stop func(*testing.T), check func(*testing.T, targetRun, string)) {
	tmp := t.TempDir()
	recorded := make([]map[string]string, len(runs))
	for i, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			rec := filepath.Join(tmp, fmt.Sprint("rec-", i))
			reports := runTarget(t, bin, env, r, "--record", rec)
			recorded[i] = verdicts(t, reports)
			if r.hidden != "" { // request headers are never recorded, and bodies masked
				checkHidden(t, regexp.MustCompile(regexp.QuoteMeta(r.hidden)), "", rec)
			}
			if check != nil {
				check(t, r, rec)
			}
		})
	}
	stop(t)
	for i, r := range runs {
		t.Run("replay "+r.name, func(t *testing.T) {
			if recorded[i] == nil {
				t.Fatal("nothing was recorded")
			}
			reports := runTarget(t, bin, env, r, "--replay", filepath.Join(tmp, fmt.Sprint("rec-", i)))
			replayed := verdicts(t, reports)
			if !maps.Equal(recorded[i], replayed) {
				for k, v := range recorded[i] {
					if replayed[k] != v {
						t.Errorf("%s: recorded %q, replayed %q", k, v, replayed[k])
					}
				}
				for k, v := range replayed {
					if _, ok := recorded[i][k]; !ok {
						t.Errorf("%s: replayed %q, never recorded", k, v)
					}
				}
			}
		})
	}
}

// runTarget runs one suite with args and checks its exit code, its report
// and its table; it returns the report directory.
func runTarget(t *testing.T, bin string, env []string, r targetRun, args ...string) string {
	t.Helper()
	dir := peer.Dir()
	reports := t.TempDir()
	argv := append([]string{"run", "--config", filepath.Join(dir, r.config), "--report-dir", reports, "--parallel", "4"}, args...)
	for _, p := range r.paths {
		argv = append(argv, filepath.Join(dir, p))
	}
	ctx, cancel := context.WithTimeout(t.Context(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, argv...)
	// Files are reported relative to the working directory: the suites'.
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "NO_COLOR=1"), env...)
	out, exit := combined(t, cmd)
	defer logOnFailure(t, out)
	if exit != r.wantExit {
		t.Errorf("exit code %d, want %d", exit, r.wantExit)
	}
	validateReports(t, reports)
	checkExport(t, bin, reports)
	if r.hidden != "" {
		checkHidden(t, regexp.MustCompile(regexp.QuoteMeta(r.hidden)), out, reports)
	}
	sum := readSummary(t, filepath.Join(reports, "summary.json"))
	seen := map[string]bool{}
	for _, got := range sum.Tests {
		seen[got.ID] = true
		w, ok := r.tests[got.ID]
		if !ok {
			t.Errorf("test %s (%s) is not in the expected table", got.ID, got.Status)
			continue
		}
		t.Run(got.ID, func(t *testing.T) {
			checkTest(t, got, w)
			for _, s := range r.reasons[got.ID] {
				if !strings.Contains(got.Reason, s) {
					t.Errorf("reason %q, want it to contain %q", got.Reason, s)
				}
			}
		})
	}
	for id := range r.tests {
		if !seen[id] {
			t.Errorf("expected test %s is missing from summary.json", id)
		}
	}
	checkAt(t, reports, r.at)
	checkTokens(t, reports, r.tokens, r.costed)
	return reports
}

// targetSummary is what the checks of this file read of summary.json.
type targetSummary struct {
	Tests []struct {
		ID     string     `json:"id"`
		File   string     `json:"file"`
		Status string     `json:"status"`
		Reason string     `json:"reason"`
		Usage  *usageJSON `json:"usage"`
		Turns  []struct {
			Text      string     `json:"text"`
			Usage     *usageJSON `json:"usage"`
			ToolCalls []struct {
				Name   string `json:"name"`
				Args   string `json:"args"`
				Result string `json:"result"`
			} `json:"tool_calls"`
		} `json:"turns"`
		Assertions []struct {
			ID      string `json:"id"`
			Status  string `json:"status"`
			Message string `json:"message"`
			Source  struct {
				File string `json:"file"`
				Line int    `json:"line"`
				Col  int    `json:"col"`
			} `json:"source"`
		} `json:"assertions"`
	} `json:"tests"`
}

type usageJSON struct {
	Tokens  map[string]int64 `json:"tokens"`
	CostUSD *float64         `json:"cost_usd"`
}

func readTargetSummary(t *testing.T, reports string) targetSummary {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(reports, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s targetSummary
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("decode summary.json: %v", err)
	}
	return s
}

// verdicts is what a replay must give as recorded: each test's status and
// reason, each assertion's status and message, each turn's text and tool
// calls, and the usage.
func verdicts(t *testing.T, reports string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, x := range readTargetSummary(t, reports).Tests {
		out[x.ID] = x.Status + " " + x.Reason
		for _, a := range x.Assertions {
			out[x.ID+" "+a.ID] = a.Status + ": " + a.Message
		}
		for i, turn := range x.Turns {
			calls, _ := json.Marshal(turn.ToolCalls)
			out[fmt.Sprintf("%s turn[%d]", x.ID, i)] = turn.Text + " " + string(calls)
		}
		usage, _ := json.Marshal(x.Usage)
		out[x.ID+" usage"] = string(usage)
	}
	return out
}

// checkAt checks that each test's failing assertion is reported at the
// line and column of its tools.require entry, in summary.json and in
// junit.xml.
func checkAt(t *testing.T, reports string, at map[string]yamlAt) {
	t.Helper()
	if len(at) == 0 {
		return
	}
	junit, err := os.ReadFile(filepath.Join(reports, "junit.xml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range readTargetSummary(t, reports).Tests {
		w, ok := at[x.ID]
		if !ok {
			continue
		}
		line, col := entryAt(t, filepath.Join(peer.Dir(), x.File), w.marker)
		found := false
		for _, a := range x.Assertions {
			if a.ID != w.id {
				continue
			}
			found = true
			if a.Status != "fail" || a.Source.File != x.File || a.Source.Line != line || a.Source.Col != col {
				t.Errorf("%s: %s %s at %s:%d:%d; want a failure at %s:%d:%d", x.ID, a.ID, a.Status, a.Source.File, a.Source.Line, a.Source.Col, x.File, line, col)
			}
			// JUnit's failure (character data) starts each failing
			// assertion with its position.
			if pos := fmt.Sprintf("%s:%d:%d: %s\n", x.File, line, col, a.Message); !strings.Contains(string(junit), pos) {
				t.Errorf("%s: junit.xml does not show %q", x.ID, pos)
			}
		}
		if !found {
			t.Errorf("%s: no assertion %s", x.ID, w.id)
		}
	}
}

// requireEntry is the first line of a tools.require entry.
var requireEntry = regexp.MustCompile(`^(\s*)- name:`)

// entryAt is the line and column of the name of the entry written last
// before the one line of file that holds marker.
func entryAt(t *testing.T, file, marker string) (line, col int) {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	at := -1
	for i, l := range lines {
		if strings.Contains(l, marker) {
			if at >= 0 {
				t.Fatalf("%s: %q is on lines %d and %d", file, marker, at+1, i+1)
			}
			at = i
		}
	}
	for i := at; i >= 0; i-- {
		if m := requireEntry.FindStringSubmatch(lines[i]); m != nil {
			return i + 1, len(m[1]) + len("- ") + 1
		}
	}
	t.Fatalf("%s: no entry before %q", file, marker)
	return 0, 0
}

// checkTokens checks each listed test's usage: each turn's tokens, and the
// test's as their sum; with costed, a cost for it and for each turn.
func checkTokens(t *testing.T, reports string, want map[string][][3]int64, costed bool) {
	t.Helper()
	tokens := func(in, out, total int64) map[string]int64 {
		return map[string]int64{"input_tokens": in, "output_tokens": out, "total_tokens": total}
	}
	for _, x := range readTargetSummary(t, reports).Tests {
		turns, ok := want[x.ID]
		if !ok {
			continue
		}
		var sum [3]int64
		for i, w := range turns {
			sum[0], sum[1], sum[2] = sum[0]+w[0], sum[1]+w[1], sum[2]+w[2]
			if i >= len(x.Turns) {
				t.Errorf("%s: %d turns, want %d", x.ID, len(x.Turns), len(turns))
				break
			}
			u := x.Turns[i].Usage
			switch {
			case u == nil:
				t.Errorf("%s: turn[%d] has no usage; want %v", x.ID, i, w)
			case !maps.Equal(u.Tokens, tokens(w[0], w[1], w[2])):
				t.Errorf("%s: turn[%d] used %v; want %v", x.ID, i, u.Tokens, w)
			case costed && (u.CostUSD == nil || *u.CostUSD <= 0):
				t.Errorf("%s: turn[%d] has no cost (%v)", x.ID, i, u.CostUSD)
			}
		}
		u := x.Usage
		switch {
		case u == nil:
			t.Errorf("%s: no usage; want %v", x.ID, sum)
		case !maps.Equal(u.Tokens, tokens(sum[0], sum[1], sum[2])):
			t.Errorf("%s: used %v; want %v", x.ID, u.Tokens, sum)
		case costed && (u.CostUSD == nil || *u.CostUSD <= 0):
			t.Errorf("%s: no cost (%v)", x.ID, u.CostUSD)
		}
	}
}

// stopPeer kills a peer's process group and waits until its address
// refuses connections, so that nothing a replay sends can reach it.
func stopPeer(t *testing.T, p *peer.Peer) {
	t.Helper()
	if err := syscall.Kill(-p.Cmd.Process.Pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("kill: %v", err)
	}
	addr := strings.TrimPrefix(p.URL, "http://")
	deadline := time.Now().Add(time.Minute) // a hang guard, never reached
	for {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			return
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatalf("%s still accepts connections a minute after the kill", addr)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// lookNode is node's path; the peers of this file need nothing from
// node_modules but their own package.
func lookNode(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is not installed (%v): the tests run real peers from testdata/interop; install Node >= 20", err)
	}
	return node
}
