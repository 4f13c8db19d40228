package cli

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/agui/aguitest"
	"github.com/ananke/action/internal/model/modeltest"
)

// everything is a run's console output and every file of its report
// directory, as one string.
func everything(t *testing.T, r result, reportDir string) string {
	t.Helper()
	all := r.out + r.errOut
	err := filepath.WalkDir(reportDir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, rerr := os.ReadFile(p)
			all += string(b)
			return rerr
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return all
}

// TestModelEndpointFromEnv: a model endpoint read from ${ENV.…} fills a
// URL field, so model errors name it rather than "***"; the API key, also
// from the environment, is in no output.
func TestModelEndpointFromEnv(t *testing.T) {
	agent := aguitest.New(t, func(r *aguitest.Request) aguitest.Response {
		return aguitest.Response{Events: aguitest.Run(r.Input, aguitest.Text("m", "Hello.")...)}
	})
	// A server error that quotes the key, answered at once on each retry.
	srv := modeltest.New(t, func(w http.ResponseWriter, r *http.Request) {
		msg, _ := json.Marshal("bad credentials: " + r.Header.Get("Authorization"))
		modeltest.Respond(500, `{"error": {"message": `+string(msg)+`}}`, "Retry-After", "0")(w, r)
	})
	dir := modelSuite(t, agent.Endpoint(), "${ENV.CLI_MODEL_URL}", "turns: [{user: hi, assert: {judge: {criteria: [polite], severity: critical}}}]\n")
	out := filepath.Join(dir, "report")
	r := run(t, dir, map[string]string{"CLI_MODEL_KEY": modelKey, "CLI_MODEL_URL": srv.URL}, "run", "--report-dir", out)
	want := "the judge gave no verdict: model m at " + srv.URL + ": server error (500) after 3 attempts: bad credentials: Bearer ***"
	if r.code != ExitError || !strings.Contains(r.out, want) {
		t.Fatalf("exit %d; want 2 and %q:\n%s%s", r.code, want, r.out, r.errOut)
	}
	if all := everything(t, r, out); strings.Contains(all, modelKey) {
		t.Error("the model's API key is in the output")
	}
}

// TestKeyInURLQuery: in a URL field only the URL's password and query
// values are secrets — whether a ${ENV.…} fills the whole URL or only the
// key in its query, the key is in no output while the endpoint's host and
// path are shown.
func TestKeyInURLQuery(t *testing.T) {
	const key, password = "sk-mcp-0123456789abcdef", "pw-0123456789"
	for _, tc := range []struct {
		name, endpoint string
		env            map[string]string
		shown          string
	}{
		{"the whole URL from the environment", "${ENV.MCP_URL}",
			map[string]string{"MCP_URL": "http://127.0.0.1:1/mcp?key=" + key}, "http://127.0.0.1:1/mcp?key=***"},
		{"the key from the environment", "http://127.0.0.1:1/mcp?key=${ENV.MCP_KEY}",
			map[string]string{"MCP_KEY": key}, "http://127.0.0.1:1/mcp?key=***"},
		{"a password and a key written in the config", "http://ops:" + password + "@127.0.0.1:1/mcp?key=" + key,
			nil, "http://ops:***@127.0.0.1:1/mcp?key=***"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, body := range map[string]string{
				"ananke.config.yaml": "version: \"1.2\"\ntarget: {type: mcp, transport: http, endpoint: \"" + tc.endpoint + "\", timeout_ms: 120000}\n",
				"t.ananke.yaml":      "version: \"1.2\"\nname: t\nturns: [{type: \"mcp:call\", tool: echo, arguments: {message: hi}}]\n",
			} {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			out := filepath.Join(dir, "report")
			r := run(t, dir, tc.env, "run", "--report-dir", out)
			if r.code != ExitError || !strings.Contains(r.out, "mcp: initialize "+tc.shown+": ") {
				t.Errorf("exit %d; want 2 and the endpoint shown as %s:\n%s%s", r.code, tc.shown, r.out, r.errOut)
			}
			all := everything(t, r, out)
			for _, s := range []string{key, password} {
				if strings.Contains(all, s) {
					t.Errorf("%q is in the output", s)
				}
			}
		})
	}
}
