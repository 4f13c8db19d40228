//go:build unix

package interop

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// tokenCounts are the counts summary.json and a TokenUsage both name:
// summary.json's key → TokenUsage's.
var tokenCounts = map[string]string{
	"input_tokens": "inputTokens", "output_tokens": "outputTokens", "total_tokens": "totalTokens",
	"reasoning_tokens": "reasoningTokens", "cached_input_tokens": "cachedInputTokens", "cache_write_input_tokens": "cacheWriteInputTokens",
}

// streamUsage is the usage a test's streams reported, added up from the
// raw events of its trace files without Ananke's reading of them: a count
// is summed over every RUN_FINISHED and RUN_ERROR usage entry and known
// when every entry carried it (a total, when not carried, is input +
// output); reported counts the entries.
type streamUsage struct {
	tokens   map[string]int64
	missing  map[string]bool
	reported int
}

func newStreamUsage() *streamUsage {
	return &streamUsage{tokens: map[string]int64{}, missing: map[string]bool{}}
}

// add adds one TokenUsage entry.
func (u *streamUsage) add(entry map[string]json.RawMessage) {
	u.reported++
	counts := map[string]int64{}
	for k, name := range tokenCounts {
		var n int64
		if v, ok := entry[name]; ok && json.Unmarshal(v, &n) == nil {
			counts[k] = n
		}
	}
	if _, ok := counts["total_tokens"]; !ok {
		in, okIn := counts["input_tokens"]
		out, okOut := counts["output_tokens"]
		if okIn && okOut {
			counts["total_tokens"] = in + out
		}
	}
	for k := range tokenCounts {
		n, ok := counts[k]
		if !ok || u.missing[k] || (u.reported > 1 && !u.has(k)) {
			u.missing[k] = true
			delete(u.tokens, k)
			continue
		}
		u.tokens[k] += n
	}
}

func (u *streamUsage) has(k string) bool { _, ok := u.tokens[k]; return ok }

// merge adds o's entries to u.
func (u *streamUsage) merge(o *streamUsage) {
	if o.reported == 0 {
		return
	}
	first := u.reported == 0
	u.reported += o.reported
	for k := range tokenCounts {
		n, ok := o.tokens[k]
		if !ok || u.missing[k] || (!first && !u.has(k)) {
			u.missing[k] = true
			delete(u.tokens, k)
			continue
		}
		u.tokens[k] += n
	}
}

// checkUsage: every test's tokens in summary.json, and the totals', are
// the sums of its streams' RUN_FINISHED and RUN_ERROR usage over all its
// attempts, as its trace files hold them; a test none of whose streams
// carried usage has no usage in summary.json. It returns how many tests
// reported usage.
func checkUsage(t *testing.T, reports string) int {
	t.Helper()
	var sum struct {
		Tests []struct {
			ID        string     `json:"id"`
			TraceFile string     `json:"trace_file"`
			Usage     *spendJSON `json:"usage"`
			Attempts  []struct {
				TraceFile string `json:"trace_file"`
			} `json:"attempts"`
		} `json:"tests"`
		Totals struct {
			Usage *spendJSON `json:"usage"`
		} `json:"totals"`
	}
	b, err := os.ReadFile(filepath.Join(reports, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	all := newStreamUsage()
	reported := 0
	for _, x := range sum.Tests {
		files := []string{x.TraceFile}
		if len(x.Attempts) > 1 {
			files = files[:0]
			for _, a := range x.Attempts {
				files = append(files, a.TraceFile)
			}
		}
		want := newStreamUsage()
		for _, f := range files {
			readStreamUsage(t, filepath.Join(reports, filepath.FromSlash(f)), want)
		}
		if want.reported == 0 {
			if x.Usage != nil {
				t.Errorf("%s: usage %+v in summary.json; no stream reported any", x.ID, *x.Usage)
			}
			continue
		}
		reported++
		if x.Usage == nil {
			t.Errorf("%s: no usage in summary.json; its streams reported %v", x.ID, want.tokens)
			continue
		}
		if !maps.Equal(x.Usage.Tokens, want.tokens) {
			t.Errorf("%s: summary.json says %v; its streams' %d usage entries add up to %v", x.ID, x.Usage.Tokens, want.reported, want.tokens)
		}
		all.merge(want)
	}
	switch {
	case all.reported == 0 && sum.Totals.Usage != nil:
		t.Errorf("totals: usage %+v; no stream reported any", *sum.Totals.Usage)
	case all.reported > 0 && (sum.Totals.Usage == nil || !maps.Equal(sum.Totals.Usage.Tokens, all.tokens)):
		t.Errorf("totals: usage %+v; the streams say %v", sum.Totals.Usage, all.tokens)
	}
	return reported
}

// spendJSON is the part of a usage in summary.json the check reads.
type spendJSON struct {
	Tokens map[string]int64 `json:"tokens"`
}

// readStreamUsage adds the usage of the streams of one trace file to u.
// Events are [seq, at_ms, run, event(, origin)], one per line; each run
// of a turn is one stream.
func readStreamUsage(t *testing.T, path string, u *streamUsage) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var file struct {
		Turns []struct {
			Events [][]json.RawMessage `json:"events"`
		} `json:"turns"`
	}
	if err := json.NewDecoder(bufio.NewReader(f)).Decode(&file); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	for _, turn := range file.Turns {
		for _, e := range turn.Events {
			var ev struct {
				Type  string                       `json:"type"`
				Usage []map[string]json.RawMessage `json:"usage"`
			}
			if len(e) < 4 || json.Unmarshal(e[3], &ev) != nil {
				continue // not an event this check reads
			}
			if ev.Type != "RUN_FINISHED" && ev.Type != "RUN_ERROR" {
				continue
			}
			for _, entry := range ev.Usage {
				u.add(entry)
			}
		}
	}
}

// checkA2AUsage: the A2A peer reports the usage of the two model calls
// that answer "weather in Paris" (pass/weather, fail/wrong-city) the way
// ADK does — adk_usage_metadata on the call's status message and on the
// answer's artifact: 40+8 and 60+12 tokens — and summary.json has them
// once per attempt, streamed, sent or polled, over A2A 1.0 or 0.3; every
// other test reports none.
func checkA2AUsage(t *testing.T, reports string) {
	t.Helper()
	var sum struct {
		Tests []struct {
			ID       string            `json:"id"`
			Usage    *spendJSON        `json:"usage"`
			Attempts []json.RawMessage `json:"attempts"`
		} `json:"tests"`
	}
	b, err := os.ReadFile(filepath.Join(reports, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	for _, x := range sum.Tests {
		weather := x.ID == "pass/weather" || x.ID == "fail/wrong-city"
		n := int64(len(x.Attempts))
		want := map[string]int64{"input_tokens": 100 * n, "output_tokens": 20 * n, "total_tokens": 120 * n}
		switch {
		case weather && (x.Usage == nil || !maps.Equal(x.Usage.Tokens, want)):
			t.Errorf("%s: usage %+v over %d attempts; want %v", x.ID, x.Usage, n, want)
		case !weather && x.Usage != nil:
			t.Errorf("%s: usage %+v; its agent reported none", x.ID, *x.Usage)
		}
	}
}

// budgetLimit is a `max_<count>_tokens: N` line of a test file.
var budgetLimit = regexp.MustCompile(`^(\s*)max_(input|output|total)_tokens:\s*(\d+)\s*$`)

// budgetMastra runs mastra-budget against the Mastra agent: over.ananke.yaml
// sets a total below what the agent's streams reported, within.ananke.yaml
// limits at it. With the streams' usage added up from the raw events of
// the trace files (readStreamUsage, not Ananke's reading), every limit the
// within test writes is met and it passes; the over test's limit is under
// the streams' total and its budget fails at that limit's line and column.
func budgetMastra(t *testing.T, bin, dir string, urls map[string]string) {
	reports := t.TempDir()
	suite := filepath.Join(dir, "mastra-budget")
	ctx, cancel := context.WithTimeout(t.Context(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "run", "--config", filepath.Join(suite, "ananke.config.yaml"), "--report-dir", reports, suite)
	cmd.Env = producerEnv(urls)
	out, err := cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); code != 1 {
		t.Fatalf("exit %d (%v), want 1 (the over test fails)\n%s", code, err, out)
	}
	if n := checkUsage(t, reports); n != 2 {
		t.Errorf("%d tests reported usage; want both", n)
	}
	var sum struct {
		Tests []struct {
			ID, Status string
			TraceFile  string `json:"trace_file"`
			Assertions []struct {
				ID, Status string
				Source     struct{ Line, Col json.Number }
			}
		}
	}
	b, err := os.ReadFile(filepath.Join(reports, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	for _, x := range sum.Tests {
		streams := newStreamUsage()
		readStreamUsage(t, filepath.Join(reports, filepath.FromSlash(x.TraceFile)), streams)
		src, err := os.ReadFile(filepath.Join(suite, x.ID+".ananke.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		budgets := 0
		for i, line := range strings.Split(string(src), "\n") {
			m := budgetLimit.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			budgets++
			limit, _ := strconv.ParseInt(m[3], 10, 64)
			used, ok := streams.tokens[m[2]+"_tokens"]
			if !ok {
				t.Fatalf("%s: the streams reported no %s tokens", x.ID, m[2])
			}
			at := fmt.Sprintf("%d:%d", i+1, len(m[1])+len("max_"+m[2]+"_tokens: ")+1)
			var verdicts []string
			for _, a := range x.Assertions {
				if strings.HasSuffix(a.ID, "budget.max_"+m[2]+"_tokens") && string(a.Source.Line)+":"+string(a.Source.Col) == at {
					verdicts = append(verdicts, a.Status)
				}
			}
			want := "pass"
			if used > limit {
				want = "fail"
			}
			if len(verdicts) != 1 || verdicts[0] != want {
				t.Errorf("%s:%s: max_%s_tokens %d, the streams used %d: verdicts %v, want one %s", x.ID, at, m[2], limit, used, verdicts, want)
			}
		}
		wantStatus := map[string]string{"over": "fail", "within": "pass"}[x.ID]
		if x.Status != wantStatus || budgets == 0 {
			t.Errorf("%s: %s with %d budgets; want %s", x.ID, x.Status, budgets, wantStatus)
		}
	}
	if len(sum.Tests) != 2 {
		t.Errorf("%d tests; want over and within", len(sum.Tests))
	}
}
