//go:build unix

package interop

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ananke/action/internal/interop/peer"
	"github.com/ananke/action/internal/normalized/normalizedtest"
)

// TestBackendMastra runs a real Mastra agent (mastra-backend-server.mjs)
// whose tool comes from Ananke's tool doubles through Mastra's MCP client
// and whose model is Ananke's model gateway, with aimock behind it
// (aimock-backend.json): the suites of mastra-doubles, mastra-parallel,
// mastra-gateway and mastra-otel, each starting its agent with
// target.server.
func TestBackendMastra(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := peer.Dir()
	node := peer.Node(t, filepath.Join("@mastra", "mcp"))
	bin := filepath.Join(t.TempDir(), "ananke")
	build := exec.Command("go", "build", "-o", bin, root)
	build.Dir = root
	if msg, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, msg)
	}
	aimock, err := peer.Start(t, dir, nil, node, filepath.Join("node_modules", "@copilotkit", "aimock", "dist", "cli.js"), "-f", "aimock-backend.json", "-p", "0")
	if err != nil {
		t.Fatalf("start aimock: %v", err)
	}
	b := backendRun{bin: bin, dir: dir, aimock: aimock.URL}
	t.Run("doubles", b.doubles)
	t.Run("parallel", b.parallel)
	t.Run("gateway", b.gateway)
	t.Run("otel", b.otel)
}

type backendRun struct {
	bin, dir string
	aimock   string
}

// run runs ananke with args and the suites' environment (upstream is the
// gateway's upstream) and returns its exit code and output.
func (b backendRun) run(t *testing.T, upstream string, args ...string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, b.bin, args...)
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "AIMOCK_KEY="+aimockKey, "AIMOCK_BACKEND_URL="+upstream,
		"BACKEND_AGENT_PORT="+strconv.Itoa(freePort(t)), "INTEROP_DIR="+b.dir)
	out, exit := combined(t, cmd)
	return exit, out
}

// doubles: each test's answer reaches the agent, which streams no tool
// call: the trace's calls are the doubles' alone, one a call the test gave
// no answer; a dropped connection makes Mastra's MCP client reconnect and
// send the call again, so the doubles see it twice; the tests run one at a
// time though --parallel 4 asks for more.
func (b backendRun) doubles(t *testing.T) {
	reports := t.TempDir()
	cfg := filepath.Join(b.dir, "mastra-doubles")
	exit, out := b.run(t, b.aimock, "run", "-c", filepath.Join(cfg, "ananke.config.yaml"), "-o", reports, "--parallel", "4", cfg)
	defer logOnFailure(t, out)
	if exit != 0 {
		t.Errorf("exit %d, want 0", exit)
	}
	validateReports(t, reports)
	checkHidden(t, regexp.MustCompile(regexp.QuoteMeta(aimockKey)), out, reports)
	sum := readBackendSummary(t, reports)
	want := map[string]struct {
		answer, text string
		calls        int
	}{
		"in-stock":   {"test", "SKU A-1: 4 in stock.", 1},
		"timeout":    {"test fault:timeout", "Sorry, the inventory service did not respond.", 1},
		"is-error":   {"test", "Sorry, the inventory service failed.", 1},
		"unanswered": {"", "Sorry, the inventory service has no answer for SKU A-1.", 1},
		"drop":       {"test fault:drop", "Sorry, the inventory service failed.", 2},
	}
	if len(sum.Tests) != len(want) {
		t.Fatalf("%d tests, want %d", len(sum.Tests), len(want))
	}
	for _, got := range sum.Tests {
		w := want[got.ID]
		if got.Status != "pass" || len(got.Turns) != 1 {
			t.Errorf("%s: %s (%s), %d turns; want a pass of 1 turn", got.ID, got.Status, got.Reason, len(got.Turns))
			continue
		}
		turn := got.Turns[0]
		if turn.Text != w.text {
			t.Errorf("%s: the agent said %q, want %q", got.ID, turn.Text, w.text)
		}
		// The agent streamed no tool call: the ones in the trace are the
		// double's, with the arguments the agent sent.
		if len(turn.ToolCalls) != w.calls {
			t.Fatalf("%s: %d tool calls, want the %d served", got.ID, len(turn.ToolCalls), w.calls)
		}
		for _, c := range turn.ToolCalls {
			if c.Name != "check_stock" || c.Args != `{"sku":"A-1"}` || c.Served == nil || c.Served.Tool != "check_stock" {
				t.Errorf("%s: tool call %+v (served %+v), want check_stock {\"sku\":\"A-1\"} served by the doubles", got.ID, c, c.Served)
				continue
			}
			if c.Served.Answer != w.answer || c.Served.Unanswered != (got.ID == "unanswered") {
				t.Errorf("%s: served %+v, want answer %q, unanswered %v", got.ID, *c.Served, w.answer, got.ID == "unanswered")
			}
		}
		if len(turn.ModelCalls) != 2 {
			t.Errorf("%s: %d model calls, want 2 (the tool call, the answer)", got.ID, len(turn.ModelCalls))
		}
		for _, m := range turn.ModelCalls {
			if m.Mode != "passthrough" || m.Status != 200 {
				t.Errorf("%s: model call %+v, want a passthrough 200", got.ID, m)
			}
		}
	}
	if w := warningsOf(sum, "unanswered"); !strings.Contains(w, "no answer") {
		t.Errorf("the unanswered call is not among the test's warnings: %q", w)
	}
	page, err := os.ReadFile(filepath.Join(reports, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), `"served"`) || !strings.Contains(string(page), `"unanswered":true`) {
		t.Error("index.html carries no served call, or none unanswered")
	}
	checkExport(t, b.bin, reports)
	checkBackendExport(t, b.bin, reports, map[string][]string{"in-stock": {"test"}, "timeout": {"test fault:timeout"}, "is-error": {"test"},
		"unanswered": {""}, "drop": {"test fault:drop", "test fault:drop"}})
}

// checkBackendExport exports a report as normalized traces, validates
// each against the published schema, and checks that each test's trace
// carries the doubles' record of each of its calls (the answers want
// gives) and its two model calls, each a 200 in passthrough.
func checkBackendExport(t *testing.T, bin, reports string, want map[string][]string) {
	t.Helper()
	out := t.TempDir()
	if msg, err := exec.Command(bin, "trace", "export", "-o", out, reports).CombinedOutput(); err != nil {
		t.Fatalf("ananke trace export: %v\n%s", err, msg)
	}
	s := normalizedtest.Schema(t)
	files, _ := filepath.Glob(filepath.Join(out, "*.trace.json"))
	if len(files) != len(want) {
		t.Fatalf("%d exported traces, want %d", len(files), len(want))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if err := s.Validate(v); err != nil {
			t.Errorf("%s does not match the schema: %v", filepath.Base(f), err)
		}
		var tr struct {
			ID     string `json:"test_case_id"`
			Events []struct {
				Type string `json:"type"`
				Data struct {
					Served *struct {
						Tool   string `json:"tool"`
						Answer string `json:"answer"`
					} `json:"served"`
					Status int    `json:"status"`
					Mode   string `json:"mode"`
				} `json:"data"`
			} `json:"events"`
			Metrics struct {
				ModelCalls *int `json:"model_call_count"`
			} `json:"metrics"`
		}
		if err := json.Unmarshal(b, &tr); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var served []string
		models := 0
		for _, e := range tr.Events {
			switch e.Type {
			case "tool_call":
				if e.Data.Served != nil && e.Data.Served.Tool == "check_stock" {
					served = append(served, e.Data.Served.Answer)
				}
			case "model_call":
				models++
				if e.Data.Status != 200 || e.Data.Mode != "passthrough" {
					t.Errorf("%s: model_call %+v, want a passthrough 200", tr.ID, e.Data)
				}
			}
		}
		if !slices.Equal(served, want[tr.ID]) {
			t.Errorf("%s: the served check_stock calls' answers %q, want %q", tr.ID, served, want[tr.ID])
		}
		if models != 2 || tr.Metrics.ModelCalls == nil || *tr.Metrics.ModelCalls != 2 {
			t.Errorf("%s: %d model_call events, model_call_count %v; want 2", tr.ID, models, tr.Metrics.ModelCalls)
		}
	}
}

// parallel: the agent forwards Ananke-Test, so eight tests run four at a
// time, and every call the doubles and the gateway got is the test's that
// sent it: each test's double answers for its own SKU, and a call given to
// another test would change its answer.
func (b backendRun) parallel(t *testing.T) {
	reports := t.TempDir()
	cfg := filepath.Join(b.dir, "mastra-parallel")
	exit, out := b.run(t, b.aimock, "run", "-c", filepath.Join(cfg, "ananke.config.yaml"), "-o", reports, "--parallel", "4", cfg)
	defer logOnFailure(t, out)
	if exit != 0 {
		t.Errorf("exit %d, want 0", exit)
	}
	sum := readBackendSummary(t, reports)
	if len(sum.Tests) != 8 {
		t.Fatalf("%d tests, want 8", len(sum.Tests))
	}
	for _, got := range sum.Tests {
		n, _ := strconv.Atoi(strings.TrimPrefix(got.ID, "stock-"))
		sku := map[bool]string{true: "A-1", false: "B-2"}[n%2 == 1]
		if got.Status != "pass" || len(got.Turns) != 1 {
			t.Errorf("%s: %s (%s); want a pass", got.ID, got.Status, got.Reason)
			continue
		}
		turn := got.Turns[0]
		served := 0
		for _, c := range turn.ToolCalls {
			if c.Served != nil {
				served++
			}
			if c.Args != `{"sku":"`+sku+`"}` {
				t.Errorf("%s: a call with %s in the test of %s", got.ID, c.Args, sku)
			}
		}
		// The agent streams its calls: the served one is merged into it.
		if served != 1 || len(turn.ToolCalls) != 1 || turn.ToolCalls[0].Name != "inventory_check_stock" {
			t.Errorf("%s: tool calls %+v, want the streamed inventory_check_stock, served", got.ID, turn.ToolCalls)
		}
		if len(turn.ModelCalls) != 2 {
			t.Errorf("%s: %d model calls, want its own 2", got.ID, len(turn.ModelCalls))
		}
	}
	if len(sum.Warnings) > 0 {
		t.Errorf("requests no test took: %+v", sum.Warnings)
	}
}

// gateway: record the model calls with aimock behind the gateway, replay
// them with the upstream gone (the same verdicts and the same agent
// text), and replay a prompt that was never recorded (the test errors with
// the closest recorded request and the diff); a 429 the test scripts is
// retried by the agent.
func (b backendRun) gateway(t *testing.T) {
	suite := filepath.Join(t.TempDir(), "mastra-gateway")
	copyDir(t, filepath.Join(b.dir, "mastra-gateway"), suite)
	cfg := filepath.Join(suite, "ananke.config.yaml")
	recorded, replayed := t.TempDir(), t.TempDir()

	exit, out := b.run(t, b.aimock, "run", "-c", cfg, "-o", recorded, "--gateway", "record", filepath.Join(suite, "pass"))
	if exit != 0 {
		t.Fatalf("record: exit %d\n%s", exit, out)
	}
	files, _ := filepath.Glob(filepath.Join(suite, "recordings", "*"))
	if len(files) != 4 {
		t.Errorf("%d recording files %v, want one per test", len(files), files)
	}
	for _, d := range []string{recorded, filepath.Join(suite, "recordings")} {
		checkHidden(t, regexp.MustCompile(regexp.QuoteMeta(aimockKey)), out, d)
	}
	dead := "http://127.0.0.1:" + strconv.Itoa(freePort(t)) // nothing listens
	exit, out = b.run(t, dead, "run", "-c", cfg, "-o", replayed, "--gateway", "replay", filepath.Join(suite, "pass"))
	if exit != 0 {
		t.Fatalf("replay: exit %d\n%s", exit, out)
	}
	rec, rep := readBackendSummary(t, recorded), readBackendSummary(t, replayed)
	texts := func(s backendSummary) map[string]string {
		m := map[string]string{}
		for _, tr := range s.Tests {
			var ts []string
			for _, turn := range tr.Turns {
				ts = append(ts, turn.Text)
			}
			m[tr.ID] = tr.Status + ": " + strings.Join(ts, " | ")
		}
		return m
	}
	if a, b := texts(rec), texts(rep); len(a) != 4 || !equalMaps(a, b) {
		t.Errorf("recorded %v\nreplayed %v\nwant the same four verdicts and texts", a, b)
	}
	for id, v := range texts(rec) {
		if !strings.HasPrefix(v, "pass: ") {
			t.Errorf("%s: %s, want a pass", id, v)
		}
	}
	for _, s := range []backendSummary{rec, rep} {
		for _, tr := range s.Tests {
			if tr.ID != "retry" || len(tr.Turns) == 0 {
				continue
			}
			ms := tr.Turns[0].ModelCalls
			if len(ms) != 3 || ms[0].Status != 429 || ms[0].Fault == "" || ms[1].Status != 200 {
				t.Errorf("retry: model calls %+v, want the 429 fault, then the agent's retry and its answer", ms)
			}
		}
	}
	for mode, s := range map[string]backendSummary{"record": rec, "replay": rep} {
		for _, tr := range s.Tests {
			for _, m := range tr.modelCalls() {
				if m.Mode != mode {
					t.Errorf("%s: a model call in mode %q in the %s run", tr.ID, m.Mode, mode)
				}
			}
			// The gateway asks for usage on the agent's streamed requests.
			if tr.Usage == nil || tr.Usage.Tokens.Total == nil || *tr.Usage.Tokens.Total == 0 {
				t.Errorf("%s (%s): usage %+v, want the gateway's tokens", tr.ID, mode, tr.Usage)
			}
		}
	}

	changed := t.TempDir()
	exit, out = b.run(t, dead, "run", "-c", cfg, "-o", changed, "--gateway", "replay", filepath.Join(suite, "changed"))
	if exit != 2 {
		t.Errorf("a prompt never recorded: exit %d, want 2\n%s", exit, out)
	}
	s := readBackendSummary(t, changed)
	if len(s.Tests) != 1 || s.Tests[0].Status != "error" || !strings.Contains(s.Tests[0].Reason, "closest") || !strings.Contains(s.Tests[0].Reason, "B-2") {
		t.Errorf("a prompt never recorded: %+v, want an error showing the closest recorded request and the diff", s.Tests)
	}
}

// backendSummary is the part of summary.json the backend checks read.
type backendSummary struct {
	Tests    []backendTest `json:"tests"`
	Warnings []struct {
		Message string `json:"message"`
	} `json:"warnings"`
}

type backendTest struct {
	ID       string `json:"id"`
	Status   string `json:"status"`
	Reason   string `json:"reason"`
	Warnings []struct {
		Rule    string `json:"rule"`
		Message string `json:"message"`
	} `json:"warnings"`
	Usage *struct {
		Tokens struct {
			Total *int `json:"total_tokens"`
		} `json:"tokens"`
	} `json:"usage"`
	Turns []struct {
		Text      string `json:"text"`
		ToolCalls []struct {
			Name   string `json:"name"`
			Args   string `json:"args"`
			Source string `json:"source"`
			Served *struct {
				Tool       string `json:"tool"`
				Answer     string `json:"answer"`
				Unanswered bool   `json:"unanswered"`
			} `json:"served"`
		} `json:"tool_calls"`
		ModelCalls []backendModelCall `json:"model_calls"`
	} `json:"turns"`
}

type backendModelCall struct {
	Status int    `json:"status"`
	Fault  string `json:"fault"`
	Mode   string `json:"mode"`
}

func readBackendSummary(t *testing.T, reports string) backendSummary {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(reports, "summary.json"))
	if err != nil {
		t.Fatalf("read summary: %v", err)
	}
	var s backendSummary
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("decode summary: %v", err)
	}
	return s
}

func (tr backendTest) modelCalls() []backendModelCall {
	var out []backendModelCall
	for _, turn := range tr.Turns {
		out = append(out, turn.ModelCalls...)
	}
	return out
}

func warningsOf(s backendSummary, id string) string {
	var b strings.Builder
	for _, tr := range s.Tests {
		if tr.ID == id {
			for _, w := range tr.Warnings {
				b.WriteString(w.Message + "\n")
			}
		}
	}
	return b.String()
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// freePort is a TCP port nothing listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// copyDir copies the files of src (recursively) into dst.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func logOnFailure(t *testing.T, out string) {
	if t.Failed() {
		t.Logf("ananke output:\n%s", out)
	}
}
