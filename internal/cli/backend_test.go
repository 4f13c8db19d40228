package cli

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ananke/action/internal/agui/aguitest"
	"github.com/ananke/action/internal/backend"
	"github.com/ananke/action/internal/doubles"
	"github.com/ananke/action/internal/doubles/decl"
	"github.com/ananke/action/internal/spec"
	"github.com/ananke/action/internal/trace"
)

// backendTarget is a config's start: an AG-UI target at endpoint.
func backendTarget(endpoint string) string {
	return "version: \"1.0\"\ntarget:\n  type: agui\n  endpoint: \"" + endpoint + "\"\n  agentId: a\n"
}

// TestBackendValidate: the doubles' problems in the config, in a result
// file and in a test file — an input schema that is not a JSON Schema,
// results that do not match the tool's output schema, answers to tools
// the config does not declare — are printed all at once, each at its
// file:line:col, and validate exits 3.
func TestBackendValidate(t *testing.T) {
	cfg := backendTarget("http://127.0.0.1:1/agent") + `doubles:
  listen: "127.0.0.1:0"
  tools:
    - name: check_stock
      input_schema:
        type: object
        properties:
          sku: {type: strng}
      output_schema:
        type: object
        properties: {sku: {type: string}, in_stock: {type: integer}}
        required: [sku, in_stock]
      result: {sku: A-1, in_stock: "four"}
      match:
        - args: {sku: C-3}
          result_file: fixtures/c3.json
    - name: place_order
`
	dir := suiteOf(t, map[string]string{
		"ananke.config.yaml": cfg,
		"fixtures/c3.json":   "{\n  \"sku\": \"C-3\",\n  \"in_stock\": -1.5\n}\n",
		"order.ananke.yaml": `version: "1.0"
name: order
doubles:
  check_stok: {result: x}
turns:
  - user: hi
    doubles:
      place_ordr: {result: y}
`,
	})
	want := []string{
		`ananke.config.yaml:13:23: doubles.tools[0].input_schema is not a valid JSON Schema: at /properties/sku/type: value must be one of 'array', 'boolean', 'integer', 'null', 'number', 'object', 'string'`,
		`ananke.config.yaml:18:36: doubles.tools[0].result does not match the output schema of check_stock: at /in_stock: got string, want integer`,
		`fixtures/c3.json:3:15: doubles.tools[0].match[0].result_file does not match the output schema of check_stock: at /in_stock: got number, want integer`,
		`order.ananke.yaml:4:3: doubles.check_stok: tool "check_stok" is not declared in the config's doubles.tools (did you mean "check_stock"?)`,
		`order.ananke.yaml:8:7: turns[0].doubles.place_ordr: tool "place_ordr" is not declared in the config's doubles.tools (did you mean "place_order"?)`,
	}
	for _, args := range [][]string{{"validate"}, {"run", "-o", filepath.Join(t.TempDir(), "r")}} {
		t.Run(args[0], func(t *testing.T) {
			r := run(t, dir, nil, args...)
			if r.code != ExitInvalid {
				t.Errorf("exit %d, want %d", r.code, ExitInvalid)
			}
			for _, w := range want {
				if !strings.Contains(r.out, w+"\n") {
					t.Errorf("stdout lacks\n%s", w)
				}
			}
			if n := strings.Count(r.out, "\n"); n != 6 || !strings.Contains(r.errOut, "ananke: 6 problems found; nothing was run") {
				t.Errorf("%d lines; stdout:\n%s\nstderr:\n%s", n, r.out, r.errOut)
			}
		})
	}
}

// TestBackendRunInvalid: a run whose backend cannot start as asked — a
// corrupt gateway recording, an unknown --gateway mode, --gateway without
// a gateway: section, a missing recordings directory, an unset variable
// in an address — stops before anything is sent: a clear message at its
// place, exit 3 (invalid input, as a broken test file or --replay's
// recording is), no report, no request to the agent.
func TestBackendRunInvalid(t *testing.T) {
	agent := aguitest.New(t, textAgentCLI)
	base := backendTarget(agent.Endpoint())
	gateway := base + "gateway:\n  listen: \"127.0.0.1:0\"\n  upstream: \"http://127.0.0.1:1/v1\"\n  recordings: recs\n"
	doubles := base + "doubles:\n  listen: \"127.0.0.1:0\"\n  tools: [{name: check_stock}]\n"
	header := `{"format":"ananke.gateway/v1","test":"t"}` + "\n"
	corrupt := map[string]string{
		// cut off in the middle of its second line
		"recs/t.jsonl": header + `{"attempt":1,"turn":0,"request":{"model":"m"` + "\n",
		"recs/u.jsonl": `{"format":"ananke.other/v1","test":"u"}` + "\n",
	}
	corruptLines := []string{
		"ananke: recs/t.jsonl:2:45: the exchange is not valid: the line ends in the middle of its JSON (a cut-off file?)",
		`recs/u.jsonl:1:1: not a gateway recording: its format is "ananke.other/v1", not "ananke.gateway/v1"`,
	}
	tests := []struct {
		name   string
		config string
		files  map[string]string
		args   []string
		want   []string // lines of stderr
	}{
		{"corrupt recordings", gateway, corrupt, []string{"--gateway", "replay"}, corruptLines},
		{"corrupt recordings, replay in the config", strings.Replace(gateway, "  recordings:", "  mode: replay\n  recordings:", 1), corrupt, nil, corruptLines},
		{"no recordings directory", gateway, nil, []string{"--gateway", "replay"}, []string{
			"ananke: gateway: replay: there is no recordings directory recs; record the tests first (ananke run --gateway record)",
		}},
		{"an unknown mode", gateway, nil, []string{"--gateway", "bogus"}, []string{
			`ananke: --gateway: unknown mode "bogus"; the modes are passthrough, record and replay`,
		}},
		{"an unknown mode, no gateway", doubles, nil, []string{"--gateway", "bogus"}, []string{
			`ananke: --gateway: unknown mode "bogus"; the modes are passthrough, record and replay`,
		}},
		{"--gateway, no backend", base, nil, []string{"--gateway", "record"}, []string{
			"ananke: --gateway record: the config has no gateway: section (docs/gateway.md)",
		}},
		{"--gateway, doubles but no gateway", doubles, nil, []string{"--gateway", "record"}, []string{
			"ananke: --gateway record: the config has no gateway: section (docs/gateway.md)",
		}},
		{"an unset variable in doubles.listen", strings.Replace(doubles, `"127.0.0.1:0"`, `"${ENV.ANANKE_H6_UNSET}"`, 1), nil, nil, []string{
			"ananke: ananke.config.yaml:7:11: doubles.listen: environment variable ANANKE_H6_UNSET is not set (referenced as ${ENV.ANANKE_H6_UNSET})",
		}},
		{"an unset variable in gateway.upstream", strings.Replace(gateway, `"http://127.0.0.1:1/v1"`, `"${ENV.ANANKE_H6_UNSET}/v1"`, 1), nil, []string{"--gateway", "record"}, []string{
			"ananke: ananke.config.yaml:8:13: gateway.upstream: environment variable ANANKE_H6_UNSET is not set (referenced as ${ENV.ANANKE_H6_UNSET})",
		}},
		// A dry run listens on nothing, and says the same.
		{"a dry run, an unset variable in gateway.upstream beside the doubles",
			doubles + "gateway:\n  listen: \"127.0.0.1:0\"\n  upstream: \"${ENV.ANANKE_H6_UNSET}/v1\"\n", nil, []string{"--dry-run"}, []string{
				"ananke: ananke.config.yaml:11:13: gateway.upstream: environment variable ANANKE_H6_UNSET is not set (referenced as ${ENV.ANANKE_H6_UNSET})",
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{"ananke.config.yaml": tt.config, "t.ananke.yaml": "version: \"1.0\"\nname: t\nturns:\n  - user: hi\n"}
			for name, body := range tt.files {
				files[name] = body
			}
			dir := suiteOf(t, files)
			report := filepath.Join(t.TempDir(), "r")
			before := len(agent.Requests())
			r := run(t, dir, nil, append([]string{"run", "-o", report}, tt.args...)...)
			if r.code != ExitInvalid || r.out != "" || r.errOut != strings.Join(tt.want, "\n")+"\n" {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s\nwant stderr:\n%s", r.code, ExitInvalid, r.out, r.errOut, strings.Join(tt.want, "\n"))
			}
			if n := len(agent.Requests()) - before; n != 0 {
				t.Errorf("the agent got %d requests", n)
			}
			if _, err := os.Stat(report); !os.IsNotExist(err) {
				t.Errorf("a report was written: %v", err)
			}
		})
	}
}

// TestBackendReplayNeedsNoKey: replay forwards nothing, so a gateway
// whose upstream and key come from variables this machine does not set
// (a CI job with no model and no key) replays all the same.
func TestBackendReplayNeedsNoKey(t *testing.T) {
	agent := aguitest.New(t, textAgentCLI)
	cfg := backendTarget(agent.Endpoint()) + `gateway:
  listen: "127.0.0.1:0"
  upstream: "${ENV.ANANKE_H6_UPSTREAM}/v1"
  api_key: "${ENV.ANANKE_H6_KEY}"
  recordings: recs
`
	dir := suiteOf(t, map[string]string{
		"ananke.config.yaml": cfg,
		"t.ananke.yaml":      "version: \"1.0\"\nname: t\nturns:\n  - user: hi\n    assert: {text: {contains: \"you said: hi\"}}\n",
		"recs/t.jsonl":       `{"format":"ananke.gateway/v1","test":"t"}` + "\n",
	})
	r := run(t, dir, nil, "run", "--gateway", "replay", "-o", filepath.Join(t.TempDir(), "r"))
	if r.code != ExitPass || !strings.Contains(r.out, "1 passed") {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.out, r.errOut)
	}
	if n := len(agent.Requests()); n != 1 {
		t.Errorf("the agent got %d requests, want 1", n)
	}
}

// hangGuard bounds what a test waits for: only a hang meets it.
const hangGuard = time.Minute

// mcpAgent is an AG-UI agent that takes its tool from the doubles named
// by the request that starts its run, as an agent in a service container
// does: it connects to the Ananke-Doubles-Url with the Go SDK's
// streamable client, forwards Ananke-Test on every request, calls
// check_stock with the SKU the user names and streams the result's text.
type mcpAgent struct {
	mu      sync.Mutex
	headers []http.Header
	users   []string
}

var skuPattern = regexp.MustCompile(`[A-Z]-[0-9]`)

func (m *mcpAgent) handle(r *aguitest.Request) aguitest.Response {
	user := ""
	for _, msg := range r.Input.Messages {
		if msg.Role == "user" {
			user, _ = msg.TextContent()
		}
	}
	m.mu.Lock()
	m.headers = append(m.headers, r.Header)
	m.users = append(m.users, user)
	m.mu.Unlock()
	text, err := m.callStock(r.Header, skuPattern.FindString(user))
	if err != nil {
		text = "the inventory failed: " + err.Error()
	}
	return aguitest.Response{Events: aguitest.Run(r.Input, aguitest.Text("m-"+r.Input.RunID, text)...)}
}

func (m *mcpAgent) callStock(h http.Header, sku string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: forwardTest{token: h.Get(backend.Header), next: tr}}
	c := sdk.NewClient(&sdk.Implementation{Name: "shop-agent", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: h.Get(backend.DoublesURLHeader), HTTPClient: hc, DisableStandaloneSSE: true, MaxRetries: -1}, nil)
	if err != nil {
		return "", err
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "check_stock", Arguments: map[string]any{"sku": sku}})
	if err != nil {
		return "", err
	}
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, ""), nil
}

// forwardTest sends the Ananke-Test header the agent's run was started
// with on each of its MCP client's requests.
type forwardTest struct {
	token string
	next  http.RoundTripper
}

func (f forwardTest) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(backend.Header, f.token)
	return f.next.RoundTrip(r)
}

// TestBackendDoublesRun: an agent that takes the doubles' URL from the
// request that starts its run and forwards Ananke-Test reaches the doubles
// the run serves; each test's call is answered from that test's answers
// (two tests at once: backend.forward_test_header) and is in its trace
// with its served record, though the agent streamed no tool call. The
// URL the requests carry is the one run -v prints, and the one
// target.server and the hooks find in $ANANKE_DOUBLES_URL.
func TestBackendDoublesRun(t *testing.T) {
	m := &mcpAgent{}
	agent := aguitest.New(t, m.handle)
	cfg := backendTarget(agent.Endpoint()) + `  server:
    command: [sh, -c, 'printf "%s %s\n" "$ANANKE_DOUBLES_URL" "$FROM_CONFIG" > server-env.txt; echo ready; exec sleep 600']
    env: {FROM_CONFIG: "${ENV.ANANKE_DOUBLES_URL}"}
    ready_log: ready
doubles:
  listen: "127.0.0.1:0"
  tools:
    - name: check_stock
      input_schema: {type: object, properties: {sku: {type: string}}, required: [sku]}
      output_schema:
        type: object
        properties: {sku: {type: string}, in_stock: {type: integer}}
        required: [sku, in_stock]
      result: {sku: A-1, in_stock: 4}
backend:
  forward_test_header: true
`
	hook := `hooks: [{cmd: [sh, -c, 'printf "{\"HOOK_URL\":\"%s\"}" "$ANANKE_DOUBLES_URL"']}]` + "\n"
	test := func(name, sku, answers string, inStock string) string {
		return "version: \"1.0\"\nname: " + name + "\n" + hook + answers + `turns:
  - user: "Is ` + sku + ` in stock? (${HOOK_URL})"
    assert:
      text: {contains: '"in_stock":` + inStock + `'}
      tools:
        require: [{name: check_stock, count: {exact: 1}, args_match: {sku: "^` + sku + `$"}}]
`
	}
	dir := suiteOf(t, map[string]string{
		"ananke.config.yaml": cfg,
		"a.ananke.yaml":      test("a", "A-1", "", "4"),
		"b.ananke.yaml":      test("b", "B-2", "doubles:\n  check_stock: {match: [{args: {sku: B-2}, result: {sku: B-2, in_stock: 0}}]}\n", "0"),
	})
	report := filepath.Join(t.TempDir(), "r")
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	r := runContext(ctx, t, dir, nil, "run", "-v", "--parallel", "2", "-o", report)
	if r.code != ExitPass || !strings.Contains(r.out, "2 passed") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.out, r.errOut)
	}
	url := regexp.MustCompile(`(?m)^tool doubles: (http://127\.0\.0\.1:[0-9]+/mcp)$`).FindStringSubmatch(r.errOut)
	if url == nil {
		t.Fatalf("run -v names no doubles URL; stderr:\n%s", r.errOut)
	}
	// The requests that started the runs named the doubles and the attempt.
	m.mu.Lock()
	defer m.mu.Unlock()
	tokens := map[string]bool{}
	for i, h := range m.headers {
		if got := h.Get(backend.DoublesURLHeader); got != url[1] {
			t.Errorf("request %d: %s %q, want %q", i, backend.DoublesURLHeader, got, url[1])
		}
		token := h.Get(backend.Header)
		if !regexp.MustCompile(`^ananke-[0-9a-f]{12}-r1$`).MatchString(token) {
			t.Errorf("request %d: %s %q; want the attempt's token, ananke-<test hash>-r1", i, backend.Header, token)
		}
		tokens[token] = true
		if !strings.HasSuffix(m.users[i], "in stock? ("+url[1]+")") {
			t.Errorf("request %d: the user said %q; want the URL the hook found in $ANANKE_DOUBLES_URL", i, m.users[i])
		}
	}
	if len(m.headers) != 2 || len(tokens) != 2 || tokens[""] {
		t.Errorf("%d requests with the tokens %v; want two requests, each naming its attempt", len(m.headers), tokens)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "server-env.txt")); err != nil || string(b) != url[1]+" "+url[1]+"\n" {
		t.Errorf("target.server's environment: %q, %v; want %s twice", b, err, url[1])
	}
	// Each test's trace holds its own call, served by the doubles.
	calls := summaryCalls(t, report)
	for id, want := range map[string]string{"a": `{"sku":"A-1"}`, "b": `{"sku":"B-2"}`} {
		c := calls[id]
		if len(c) != 1 || c[0]["name"] != "check_stock" || c[0]["args"] != want {
			t.Errorf("test %s: calls %v; want check_stock %s", id, c, want)
			continue
		}
		served, _ := c[0]["served"].(map[string]any)
		answer := map[string]string{"a": "config", "b": "test.match[0]"}[id]
		if served["by"] != "doubles" || served["tool"] != "check_stock" || served["answer"] != answer {
			t.Errorf("test %s: served %v; want by doubles, answer %s", id, served, answer)
		}
	}
}

// doublesSuite writes a suite whose doubles listen at listen: check_stock
// answers every test from the config, and test b answers B-2 itself;
// extra are more files, or more of the config.
func doublesSuite(t *testing.T, listen string, extra map[string]string) string {
	t.Helper()
	files := map[string]string{
		"ananke.config.yaml": backendTarget("http://127.0.0.1:1/agent") + `doubles:
  listen: "` + listen + `"
  tools:
    - name: check_stock
      description: Stock level of a product
      input_schema: {type: object, properties: {sku: {type: string}}, required: [sku]}
      result: {sku: A-1, in_stock: 4}
    - name: place_order
backend:
  forward_test_header: true
`,
		"a.ananke.yaml": "version: \"1.0\"\nname: a\nturns: [{user: hi}]\n",
		"b.ananke.yaml": "version: \"1.0\"\nname: b\ndoubles:\n  check_stock: {match: [{args: {sku: B-2}, result: {sku: B-2, in_stock: 0}}]}\nturns: [{user: hi}]\n",
	}
	for name, body := range extra {
		files[name] += body
	}
	return suiteOf(t, files)
}

// servedDoubles serves the doubles of the suite in dir in this process,
// on hs (not started yet), with attempts of tests a and b bound: what
// `ananke run` would serve while those attempts play.
func servedDoubles(t *testing.T, dir string, hs *httptest.Server) (a, b *backend.Binding) {
	t.Helper()
	suite, err := spec.Load(spec.Options{ConfigPath: filepath.Join(dir, "ananke.config.yaml"),
		Paths: []string{filepath.Join(dir, "a.ananke.yaml"), filepath.Join(dir, "b.ananke.yaml")}})
	if err != nil {
		t.Fatal(err)
	}
	board := backend.NewBoard(true, func(string) bool { return true }).WithDoubles()
	plans := map[string]*decl.Plan{}
	for _, tc := range suite.Tests {
		if tc.Doubles != nil {
			plans[tc.ID] = tc.Doubles
		}
	}
	srv := doubles.NewServer(suite.Config.Doubles, board, plans, doubles.Options{Now: steadyClock()})
	hs.Config.Handler = srv.Handler()
	hs.Start()
	t.Cleanup(func() {
		srv.Close()
		hs.Close()
	})
	a, b = board.Bind("a"), board.Bind("b")
	t.Cleanup(a.Release)
	t.Cleanup(b.Release)
	return a, b
}

// doublesServe runs `ananke doubles serve` with args in this process, in
// dir, with exactly environ, its stdin and stdout connected to an MCP
// client — as an agent that spawned it would be. Closing the session ends
// its stdin; wait returns what the command ended with.
func doublesServe(t *testing.T, dir string, environ []string, args ...string) (cs *sdk.ClientSession, wait func() result) {
	t.Helper()
	t.Chdir(dir)
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var errOut bytes.Buffer
	done := make(chan int, 1)
	a := &app{Stdio: Stdio{In: inR, Out: outW, Err: &errOut}, environ: environ, getwd: func() (string, error) { return filepath.Abs(".") }, now: steadyClock()}
	go func() {
		code := a.main(ctx, append([]string{"doubles", "serve"}, args...))
		outW.Close()
		done <- code
	}()
	wait = func() result {
		inW.Close()
		code := <-done
		cancel()
		return result{code: code, errOut: errOut.String()}
	}
	c := sdk.NewClient(&sdk.Implementation{Name: "agent", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &sdk.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		r := wait()
		t.Fatalf("connect to doubles serve: %v; exit %d, stderr:\n%s", err, r.code, r.errOut)
	}
	return cs, wait
}

// TestBackendDoublesServe: `ananke doubles serve` serves the doubles of a
// running `ananke run` on stdio, whichever way it finds them — --url, the
// $ANANKE_DOUBLES_URL a run gives target.server, the config's
// doubles.listen — and sends the attempt's token (--test, else
// $ANANKE_TEST) with every call: the agent lists the doubles' tools,
// gets the answer of that attempt's test, and the call is recorded in
// that attempt's binding, not in the other one bound at the time.
func TestBackendDoublesServe(t *testing.T) {
	tests := []struct {
		name    string
		environ func(url, token string) []string
		args    func(url, token string) []string
		extra   map[string]string
	}{
		{"--url and --test, over the environment",
			func(string, string) []string {
				return []string{envDoublesURL + "=http://127.0.0.1:1/mcp", backend.Var + "=ananke-no-such-attempt"}
			},
			func(url, token string) []string { return []string{"--url", url, "--test", token} }, nil},
		{"the environment a run gives target.server",
			func(url, token string) []string {
				return []string{envDoublesURL + "=" + url, backend.Var + "=" + token}
			},
			func(string, string) []string { return nil }, nil},
		{"the config's doubles.listen",
			func(string, string) []string { return nil },
			func(_, token string) []string { return []string{"--config", "ananke.config.yaml", "--test", token} }, nil},
		// Stdout is the agent's MCP stream: nothing but MCP is written
		// there, and the tests, which the bridge does not need, are not
		// read.
		{"the config's doubles.listen, a warning in the config, a broken test",
			func(string, string) []string { return nil },
			func(_, token string) []string { return []string{"--test", token} },
			map[string]string{
				"ananke.config.yaml": "quarantine: [{test: no-such-test, reason: gone}]\n",
				"c.ananke.yaml":      "version: \"1.0\"\nname: c\nturns: [{usr: hi}]\n",
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hs := httptest.NewUnstartedServer(nil)
			dir := doublesSuite(t, hs.Listener.Addr().String(), tt.extra)
			a, b := servedDoubles(t, dir, hs)
			url := hs.URL + "/mcp"
			cs, wait := doublesServe(t, dir, tt.environ(url, b.Token), tt.args(url, b.Token)...)
			tools, err := cs.ListTools(t.Context(), nil)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tool := range tools.Tools {
				names = append(names, tool.Name)
			}
			if len(names) != 2 || names[0] != "check_stock" || names[1] != "place_order" || tools.Tools[0].Description != "Stock level of a product" {
				t.Errorf("tools %v, the first %+v; want check_stock and place_order as declared", names, tools.Tools[0])
			}
			res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "check_stock", Arguments: map[string]any{"sku": "B-2"}})
			if err != nil {
				t.Fatal(err)
			}
			if text := res.Content[0].(*sdk.TextContent).Text; res.IsError || text != `{"sku":"B-2","in_stock":0}` {
				t.Errorf("check_stock B-2: isError %v, %q; want test b's answer", res.IsError, text)
			}
			cs.Close()
			if r := wait(); r.code != ExitPass || r.errOut != "" {
				t.Errorf("doubles serve: exit %d, stderr:\n%s", r.code, r.errOut)
			}
			calls, _ := b.Take(0)
			if len(calls) != 1 || calls[0].Name != "check_stock" || calls[0].Args != `{"sku":"B-2"}` || calls[0].Served == nil ||
				*calls[0].Served != (trace.Served{By: "doubles", Tool: "check_stock", Answer: "test.match[0]"}) {
				t.Errorf("attempt b recorded %+v", calls)
			}
			if other, _ := a.Take(0); len(other) != 0 {
				t.Errorf("attempt a recorded %+v", other)
			}
		})
	}
}

// TestBackendDoublesServeInvalid: `ananke doubles serve` that cannot know
// where the doubles are, or cannot reach them, says so and exits.
func TestBackendDoublesServeInvalid(t *testing.T) {
	tests := []struct {
		name    string
		dir     func(t *testing.T) string
		environ []string
		args    []string
		code    int
		want    string
	}{
		{"no --url, no $ANANKE_DOUBLES_URL, a free port in the config", func(t *testing.T) string { return doublesSuite(t, "127.0.0.1:0", nil) }, nil, nil, ExitInvalid,
			"ananke doubles serve: doubles.listen 127.0.0.1:0 picks a free port when the run starts: pass --url, or run the agent from target.server, which gets $ANANKE_DOUBLES_URL\n"},
		{"an empty $ANANKE_DOUBLES_URL is none", func(t *testing.T) string { return doublesSuite(t, "127.0.0.1:0", nil) }, []string{envDoublesURL + "="}, nil, ExitInvalid,
			"ananke doubles serve: doubles.listen 127.0.0.1:0 picks a free port when the run starts: pass --url, or run the agent from target.server, which gets $ANANKE_DOUBLES_URL\n"},
		{"a broken config: its problems on stderr, none on the MCP stream",
			func(t *testing.T) string {
				return doublesSuite(t, "127.0.0.1:4390", map[string]string{"ananke.config.yaml": "no_such_field: 1\n"})
			}, nil, nil, ExitInvalid,
			"ananke.config.yaml:16:1: unknown field \"no_such_field\" in config"},
		{"a config without doubles", func(t *testing.T) string { return suiteOf(t, map[string]string{}) }, nil, nil, ExitInvalid,
			"ananke doubles serve: ananke.config.yaml declares no doubles: (docs/doubles.md)\n"},
		{"no config", func(t *testing.T) string { return t.TempDir() }, nil, nil, ExitInvalid, "no ananke.config.yaml found"},
		{"doubles that do not answer", func(t *testing.T) string { return t.TempDir() }, nil, []string{"--url", "http://127.0.0.1:1/mcp"}, ExitError,
			"ananke doubles serve: doubles bridge: connect to http://127.0.0.1:1/mcp: "},
		{"an argument", func(t *testing.T) string { return t.TempDir() }, nil, []string{"--url", "http://127.0.0.1:1/mcp", "extra"}, ExitInvalid,
			"ananke doubles serve: unexpected argument \"extra\"\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(tt.dir(t))
			var out, errOut bytes.Buffer
			a := &app{Stdio: Stdio{In: strings.NewReader(""), Out: &out, Err: &errOut}, environ: tt.environ, getwd: func() (string, error) { return filepath.Abs(".") }, now: steadyClock()}
			ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
			defer cancel()
			code := a.main(ctx, append([]string{"doubles", "serve"}, tt.args...))
			if code != tt.code || out.Len() != 0 || !strings.Contains(errOut.String(), tt.want) {
				t.Errorf("exit %d, want %d\nstdout: %q\nstderr:\n%s\nwant in stderr:\n%s", code, tt.code, out.String(), errOut.String(), tt.want)
			}
		})
	}
}
