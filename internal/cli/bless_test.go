package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBless records the quickstart suite, blesses the recording, and
// checks the blessed tests: they validate, pass against the recording
// with no agent — under CI=true too, their snapshots written beside them
// — and fail against a recording of a changed agent (one that asks
// get_price for B-300 where it asked for B-200), their snapshot with its
// diff. Then the same
// recording is blessed on a terminal, and with the flags scripts use; a
// report is blessed (its test file kept, or gone and rebuilt from the
// trace) and passes against the live agent.
func TestBless(t *testing.T) {
	dir := copySuite(t, "quickstart")
	rec := filepath.Join(dir, "rec")
	r := runClock(context.Background(), t, dir, nil, steadyClock(), "run", "--record", rec, "--report-dir", filepath.Join(dir, "out1"))
	if r.code != ExitPass {
		t.Fatalf("record: exit %d\n%s\n%s", r.code, r.out, r.errOut)
	}
	r = run(t, dir, nil, "bless", "rec")
	if r.code != ExitPass {
		t.Fatalf("bless: exit %d\n%s\n%s", r.code, r.out, r.errOut)
	}
	for _, want := range []string{"Wrote blessed/shopping.ananke.yaml: ", "Wrote blessed/weather.ananke.yaml: ",
		"Wrote blessed/__snapshots__/shopping.ananke.snap.yaml: the snapshot of shopping (2 turns, 3 calls)\n",
		"Wrote blessed/__snapshots__/weather.ananke.snap.yaml: the snapshot of weather (1 turn, 1 call)\n",
		"Check them against the recording: ananke run --replay rec blessed\n",
		"Note: blessed lies in the suite's directory and its tests keep the recorded tests' ids, so a run without paths finds both and stops on the duplicates: name the paths, or move the blessed files over the originals once reviewed.\n"} {
		if !strings.Contains(r.out, want) {
			t.Errorf("bless output lacks %q:\n%s", want, r.out)
		}
	}
	shopping := readFile(t, filepath.Join(dir, "blessed", "shopping.ananke.yaml"))
	for _, want := range []string{"id: shopping\n", "  - user: \"Compare A-100 and B-200\"\n",
		"# inferred: the agent called get_price with sku B-200 in turn 1\n          - name: get_price\n            args_match: {sku: \"^B-200$\"}\n",
		"# inferred: the agent never called charge_card in this test, though other tests of the recording called it\n      - charge_card\n",
		"  # inferred: the agent's trajectory in this test — 3 tool calls over 2 turns — written to __snapshots__/shopping.ananke.snap.yaml\n  snapshot: true\n"} {
		if !strings.Contains(shopping, want) {
			t.Errorf("blessed shopping test lacks %q:\n%s", want, shopping)
		}
	}
	snap := readFile(t, filepath.Join(dir, "blessed", "__snapshots__", "shopping.ananke.snap.yaml"))
	if want := "snapshots:\n  shopping:\n    test.snapshot:\n      turns:\n        - turn: 0\n          calls:\n            - tool: search_products\n"; !strings.Contains(snap, want) {
		t.Errorf("the shopping test's snapshot lacks %q:\n%s", want, snap)
	}
	if hooks := readFile(t, filepath.Join(dir, "blessed", "hook-variables.ananke.yaml")); !strings.Contains(hooks, `cmd: ["sh", "../hooks/city.sh"]`) {
		t.Errorf("the hook's script is not named from the blessed file's directory:\n%s", hooks)
	}
	if r := run(t, dir, nil, "validate", "blessed"); r.code != ExitPass || !strings.Contains(r.out, "6 test files are valid") {
		t.Errorf("validate blessed: exit %d\n%s", r.code, r.out)
	}
	// No agent from here on: its server command cannot start.
	cfg := filepath.Join(dir, "ananke.config.yaml")
	live := readFile(t, cfg)
	writeFile(t, cfg, strings.Replace(live, "command: [", "command: [\"/nonexistent/agent\", ", 1))
	// CI=true fails a snapshot not stored: each is, and matches.
	r = run(t, dir, map[string]string{"CI": "true"}, "run", "--replay", "rec", "--report-dir", filepath.Join(dir, "out2"), "blessed")
	if r.code != ExitPass || !strings.Contains(r.out, "Tests: 6 total, 6 passed") || strings.Contains(r.out, "Snapshots:") {
		t.Fatalf("the blessed tests against their recording, CI=true: exit %d\n%s\n%s", r.code, r.out, r.errOut)
	}

	t.Run("changed agent", func(t *testing.T) {
		changed := filepath.Join(dir, "rec-changed")
		writeFile(t, cfg, live)
		defer writeFile(t, cfg, strings.Replace(live, "command: [", "command: [\"/nonexistent/agent\", ", 1))
		proxied := rewritingProxy(t, cfg, "TOOL_CALL_ARGS", "B-200", "B-300")
		writeFile(t, cfg, proxied)
		// The originals, named: blessed/ holds tests with their ids.
		originals, _ := filepath.Glob(filepath.Join(dir, "*.ananke.yaml"))
		for i, o := range originals {
			originals[i] = filepath.Base(o)
		}
		r := runClock(context.Background(), t, dir, nil, steadyClock(), append([]string{"run", "--record", changed, "--report-dir", filepath.Join(dir, "out3")}, originals...)...)
		if r.code != ExitFail { // the original shopping test sees it too
			t.Fatalf("record the changed agent: exit %d\n%s\n%s", r.code, r.out, r.errOut)
		}
		r = run(t, dir, map[string]string{"CI": "true"}, "run", "--replay", changed, "--report-dir", filepath.Join(dir, "out4"), "blessed")
		if r.code != ExitFail {
			t.Fatalf("the blessed tests against the changed agent: exit %d, want %d\n%s", r.code, ExitFail, r.out)
		}
		for _, want := range []string{"✗ search, then compare prices with parallel calls", "Tests: 6 total, 5 passed, 1 failed",
			"assertion: turn[1].tools.require[1]"} {
			if !strings.Contains(r.out, want) {
				t.Errorf("output lacks %q:\n%s", want, r.out)
			}
		}
		// The failing turn stops the test before its snapshot is
		// compared; blessed with its snapshot alone, the test fails on
		// it, with its diff.
		r = run(t, dir, nil, "bless", "rec", "--test", "shopping", "--skip", "require,args,order,text,forbid", "-o", "snapshot-only")
		if r.code != ExitPass {
			t.Fatalf("bless the snapshot alone: exit %d\n%s\n%s", r.code, r.out, r.errOut)
		}
		r = run(t, dir, map[string]string{"CI": "true"}, "run", "--replay", changed, "--report-dir", filepath.Join(dir, "out6"), "snapshot-only")
		if r.code != ExitFail {
			t.Fatalf("the blessed snapshot against the changed agent: exit %d, want %d\n%s", r.code, ExitFail, r.out)
		}
		for _, want := range []string{"✗ search, then compare prices with parallel calls", "Tests: 1 total, 0 passed, 1 failed",
			"differs from its snapshot in __snapshots__/shopping.ananke.snap.yaml: turn[1] call 2 get_price: arguments.sku: stored \"B-200\", got \"B-300\"; if the change is right, accept it with `ananke run -u`\n",
			"      assertion: test.snapshot\n", "      turn[1] call 2 get_price: arguments.sku: stored \"B-200\", got \"B-300\"\n", "Snapshots: 1 failed\n"} {
			if !strings.Contains(r.out, want) {
				t.Errorf("output lacks %q:\n%s", want, r.out)
			}
		}
	})

	t.Run("terminal", func(t *testing.T) {
		// weather's checks: get_weather required, then five tools
		// forbidden, then its snapshot. y keeps the first, n drops the
		// second, q the rest.
		r := runOnTerminal(t, dir, "y\nn\nq\n", "bless", "rec", "--test", "weather", "-o", "asked")
		if r.code != ExitPass {
			t.Fatalf("exit %d\n%s\n%s", r.code, r.out, r.errOut)
		}
		for _, want := range []string{"asked/weather.ananke.yaml: 7 checks inferred\n  [1/7] turn[0] tools.require: {name: get_weather}\n        inferred: the agent called get_weather in turn 0\n  keep? [Y/n/q] ",
			"  [2/7] test tools.forbid: charge_card\n", "  [3/7] test tools.forbid: confirm_purchase\n", "Wrote asked/weather.ananke.yaml: 1 check (7 inferred)\n"} {
			if !strings.Contains(r.out, want) {
				t.Errorf("output lacks %q:\n%s", want, r.out)
			}
		}
		if strings.Contains(r.out, "[4/7]") || isFile(filepath.Join(dir, "asked", "__snapshots__", "weather.ananke.snap.yaml")) {
			t.Errorf("asked on after q, or wrote the snapshot dropped:\n%s", r.out)
		}
		got := readFile(t, filepath.Join(dir, "asked", "weather.ananke.yaml"))
		if !strings.Contains(got, "- name: get_weather") || strings.Contains(got, "forbid") {
			t.Errorf("the kept checks are not the ones answered y:\n%s", got)
		}
		// --yes asks nothing; so does a script (no terminal).
		r = runOnTerminal(t, dir, "", "bless", "rec", "--test", "weather", "-o", "asked", "--force", "--yes")
		if r.code != ExitPass || strings.Contains(r.out, "keep?") || !strings.Contains(r.out, "7 checks (7 inferred)") ||
			!strings.Contains(r.out, "Wrote asked/__snapshots__/weather.ananke.snap.yaml: the snapshot of weather (1 turn, 1 call)\n") {
			t.Errorf("--yes: exit %d\n%s", r.code, r.out)
		}
		// The snapshot is one question: n drops it alone.
		r = runOnTerminal(t, dir, "y\ny\ny\ny\ny\ny\nn\n", "bless", "rec", "--test", "weather", "-o", "asked", "--force")
		if r.code != ExitPass || !strings.Contains(r.out, "  [7/7] test snapshot: true\n        inferred: the agent's trajectory in this test — 1 tool call over 1 turn — written to __snapshots__/weather.ananke.snap.yaml\n  keep? [Y/n/q] ") ||
			!strings.Contains(r.out, "Wrote asked/weather.ananke.yaml: 6 checks (7 inferred)\nRemoved asked/__snapshots__/weather.ananke.snap.yaml: the blessed test takes no snapshot now\n") {
			t.Errorf("the snapshot answered n: exit %d\n%s", r.code, r.out)
		}
	})

	t.Run("flags", func(t *testing.T) {
		r := run(t, dir, nil, "bless", "rec", "--test", "purchase", "--skip", "forbid,text", "--dry-run")
		if r.code != ExitPass || !strings.HasPrefix(r.out, "==> blessed/purchase.ananke.yaml <==\n") || strings.Contains(r.out, "forbid") ||
			strings.Contains(r.out, "contains") || !strings.Contains(r.out, "order: [validate_cart, confirm_purchase, charge_card]") ||
			!strings.Contains(r.out, "\n==> blessed/__snapshots__/purchase.ananke.snap.yaml <==\n# Snapshots of this test file's snapshot assertions") ||
			!strings.Contains(r.out, "snapshots:\n  purchase:\n    test.snapshot:\n") {
			t.Errorf("--skip forbid,text --dry-run: exit %d\n%s", r.code, r.out)
		}
		r = run(t, dir, nil, "bless", "rec", "--test", "purchase", "--skip", "snapshot", "--dry-run")
		if r.code != ExitPass || strings.Contains(r.out, "snapshot") || !strings.Contains(r.out, "forbid") {
			t.Errorf("--skip snapshot --dry-run: exit %d\n%s", r.code, r.out)
		}
		r = run(t, dir, nil, "bless", "rec", "--test", "purchase", "--no-infer", "--dry-run")
		if r.code != ExitPass || strings.Contains(r.out, "inferred:") || !strings.Contains(r.out, "  - user: \"I want to buy the trail shoe\"\n") {
			t.Errorf("--no-infer: exit %d\n%s", r.code, r.out)
		}
		for _, c := range []struct {
			args []string
			want string
		}{
			{[]string{"rec", "--skip", "snapshot"}, "ananke bless: blessed/hook-variables.ananke.yaml, blessed/memory.ananke.yaml, blessed/purchase.ananke.yaml, blessed/shopping.ananke.yaml, blessed/timing-and-chunks.ananke.yaml, blessed/weather.ananke.yaml already exist; nothing was written (--force overwrites, -o DIR writes elsewhere)\n"},
			{[]string{"rec", "--test", "weather"}, "ananke bless: blessed/weather.ananke.yaml, blessed/__snapshots__/weather.ananke.snap.yaml already exist; nothing was written (--force overwrites, -o DIR writes elsewhere)\n"},
			{[]string{"rec", "--skip", "snapshots"}, "ananke bless: --skip: unknown kind \"snapshots\" (kinds: require, args, order, text, forbid, snapshot)\n"},
			{[]string{"rec", "--from", "tape"}, "ananke bless: --from \"tape\": want recording, report, transcript or nanoclaw\n"},
			{[]string{"rec", "--test", "nope"}, "ananke bless: --test nope: the recording has no such test\n"},
			{[]string{"rec", "--group", "family"}, "ananke bless: --group, --session and --task pick a NanoClaw session; rec is a recording\n"},
			{[]string{"hooks"}, "ananke bless: hooks holds no index.json (a recording), no summary.json (a report), no transcripts (*.jsonl) and is no NanoClaw folder; say what it is with --from\n"},
			{nil, "ananke bless: name one recording, report directory or transcript (e.g. ananke bless recordings/main)\n"},
		} {
			r := run(t, dir, nil, append([]string{"bless"}, c.args...)...)
			if r.code != ExitInvalid || r.errOut != c.want {
				t.Errorf("bless %v: exit %d, stderr %q; want 3, %q", c.args, r.code, r.errOut, c.want)
			}
		}
		// The snapshot file alone exists: it is an existing file too.
		if err := os.Rename(filepath.Join(dir, "blessed", "weather.ananke.yaml"), filepath.Join(dir, "weather.bak")); err != nil {
			t.Fatal(err)
		}
		r = run(t, dir, nil, "bless", "rec", "--test", "weather")
		if r.code != ExitInvalid || r.errOut != "ananke bless: blessed/__snapshots__/weather.ananke.snap.yaml already exists; nothing was written (--force overwrites, -o DIR writes elsewhere)\n" {
			t.Errorf("bless over a snapshot file: exit %d, stderr %q", r.code, r.errOut)
		}
		if err := os.Rename(filepath.Join(dir, "weather.bak"), filepath.Join(dir, "blessed", "weather.ananke.yaml")); err != nil {
			t.Fatal(err)
		}
		before := readFile(t, filepath.Join(dir, "blessed", "memory.ananke.yaml"))
		r = run(t, dir, nil, "bless", "rec", "--test", "memory", "--force", "--no-infer")
		if r.code != ExitPass || readFile(t, filepath.Join(dir, "blessed", "memory.ananke.yaml")) == before ||
			isFile(filepath.Join(dir, "blessed", "__snapshots__", "memory.ananke.snap.yaml")) {
			t.Errorf("--force: exit %d, the file unchanged or its old snapshot kept\n%s\n%s", r.code, r.out, r.errOut)
		}
	})

	t.Run("report", func(t *testing.T) {
		writeFile(t, cfg, live) // these run against the agent
		defer writeFile(t, cfg, strings.Replace(live, "command: [", "command: [\"/nonexistent/agent\", ", 1))
		r := run(t, dir, nil, "bless", "out1", "--test", "purchase", "-o", "from-report")
		if r.code != ExitPass {
			t.Fatalf("bless out1: exit %d\n%s\n%s", r.code, r.out, r.errOut)
		}
		kept := readFile(t, filepath.Join(dir, "from-report", "purchase.ananke.yaml"))
		if !strings.Contains(kept, "# confirm_purchase is a client (frontend) tool") || !strings.Contains(kept, "\"ch_1\"") {
			t.Errorf("the test file is not the one the report names, or the report's text was not read:\n%s", kept)
		}
		// From elsewhere, the test file is not found: the test is rebuilt
		// from the trace.
		other := t.TempDir()
		r = run(t, other, nil, "bless", filepath.Join(dir, "out1"), "--test", "purchase", "-o", "rebuilt")
		if r.code != ExitPass {
			t.Fatalf("bless from elsewhere: exit %d\n%s\n%s", r.code, r.out, r.errOut)
		}
		rebuilt := filepath.Join(other, "rebuilt", "purchase.ananke.yaml")
		if got := readFile(t, rebuilt); !strings.Contains(got, "the test rebuilt from its trace") || !strings.Contains(got, "  - name: confirm_purchase\n    description: \"Ask the user to confirm the purchase\"\n    parameters: {\"type\": \"object\", \"properties\": {\"amount\": {\"type\": \"number\"}}}\n    result: \"yes\"\n") {
			t.Errorf("not rebuilt from the trace:\n%s", got)
		}
		if !isFile(filepath.Join(dir, "from-report", "__snapshots__", "purchase.ananke.snap.yaml")) || !isFile(filepath.Join(other, "rebuilt", "__snapshots__", "purchase.ananke.snap.yaml")) {
			t.Errorf("a test blessed from a report has no snapshot file")
		}
		for _, test := range []string{filepath.Join("from-report", "purchase.ananke.yaml"), rebuilt} {
			r = run(t, dir, map[string]string{"CI": "true"}, "run", "--config", cfg, "--report-dir", filepath.Join(dir, "out5"), test)
			if r.code != ExitPass || !strings.Contains(r.out, "Tests: 1 total, 1 passed") {
				t.Errorf("%s, blessed from a report, live: exit %d\n%s\n%s", test, r.code, r.out, r.errOut)
			}
		}
	})
}

// TestBlessTranscripts blesses a Claude Code session and a NanoClaw
// group's session: tests whose source is the transcript, valid, passing
// with their snapshots under CI=true.
func TestBlessTranscripts(t *testing.T) {
	root := repoRoot()
	out := t.TempDir()
	cfg := filepath.Join(out, "ananke.config.yaml")
	// The config found from the output directory: its rules keep the
	// replies' structure, and the snapshots bless writes do too.
	writeFile(t, cfg, "version: \"1.0\"\nsnapshots:\n  text: structure\n")
	r := run(t, "", nil, "bless", filepath.Join(root, "internal", "source", "claude", "testdata", "session.jsonl"), "-o", out)
	if r.code != ExitPass {
		t.Fatalf("bless a transcript: exit %d\n%s\n%s", r.code, r.out, r.errOut)
	}
	r = run(t, "", nil, "bless", filepath.Join(root, "examples", "nanoclaw", "recordings", "memory-same-group", "pass"), "--group", "family", "-o", out)
	if r.code != ExitPass {
		t.Fatalf("bless a NanoClaw folder: exit %d\n%s\n%s", r.code, r.out, r.errOut)
	}
	session := readFile(t, filepath.Join(out, "session.ananke.yaml"))
	if !strings.Contains(session, "source:\n  format: claude-transcript\n") || !strings.Contains(session, "# inferred: the agent called Read in this test") {
		t.Errorf("the transcript's test:\n%s", session)
	}
	if family := readFile(t, filepath.Join(out, "family.ananke.yaml")); !strings.Contains(family, "  format: nanoclaw\n") || !strings.Contains(family, "  group: family\n") {
		t.Errorf("the NanoClaw test:\n%s", family)
	}
	if snap := readFile(t, filepath.Join(out, "__snapshots__", "session.ananke.snap.yaml")); !strings.Contains(snap, "snapshots:\n  session:\n    test.snapshot:\n") || !strings.Contains(snap, "          text:\n            structure:\n") || !strings.Contains(session, "\nid: session\n") {
		t.Errorf("the transcript's snapshot is not keyed by its test's id, or not taken under the config's rules:\n%s\n%s", snap, session)
	}
	r = run(t, "", map[string]string{"CI": "true"}, "run", "--config", cfg, "--report-dir", filepath.Join(out, "report"), out)
	if r.code != ExitPass || !strings.Contains(r.out, "Tests: 2 total, 2 passed") {
		t.Errorf("the blessed transcripts: exit %d\n%s\n%s", r.code, r.out, r.errOut)
	}
	r = run(t, "", nil, "bless", filepath.Join(root, "examples", "nanoclaw", "recordings", "memory-same-group", "pass"), "-o", out, "--force")
	if r.code != ExitInvalid || !strings.Contains(r.errOut, "needs --group") {
		t.Errorf("NanoClaw without --group: exit %d\n%s", r.code, r.errOut)
	}
}

// runOnTerminal runs the CLI from dir as on a terminal, answering input.
func runOnTerminal(t *testing.T, dir, input string, args ...string) result {
	t.Helper()
	var out, errOut bytes.Buffer
	a := &app{
		Stdio:   Stdio{In: strings.NewReader(input), Out: &out, Err: &errOut, InIsTerminal: true, OutIsTerminal: true},
		environ: os.Environ(),
		getwd:   func() (string, error) { return filepath.Abs(".") },
		now:     steadyClock(),
	}
	t.Chdir(dir)
	code := a.main(context.Background(), args)
	return result{code, out.String(), errOut.String()}
}

// rewritingProxy serves the agent of the config at cfg through a proxy
// that replaces old with new on every line of its streams holding mark,
// and returns the config pointing at the proxy.
func rewritingProxy(t *testing.T, cfg, mark, old, new string) string {
	t.Helper()
	b := readFile(t, cfg)
	i := strings.Index(b, "endpoint: \"")
	if i < 0 {
		t.Fatalf("%s has no endpoint", cfg)
	}
	endpoint := b[i+len("endpoint: \"") : i+strings.Index(b[i:], "\"\n")]
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req, err := http.NewRequestWithContext(r.Context(), r.Method, endpoint, r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		req.Header = r.Header.Clone()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		lines := strings.SplitAfter(string(body), "\n")
		for k, l := range lines {
			if strings.Contains(l, mark) {
				lines[k] = strings.ReplaceAll(l, old, new)
			}
		}
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.Header().Del("Content-Length")
		w.WriteHeader(resp.StatusCode)
		fmt.Fprint(w, strings.Join(lines, ""))
	}))
	t.Cleanup(proxy.Close)
	return strings.Replace(b, endpoint, proxy.URL+"/agent", 1)
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeFile(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
