package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/agui/aguitest"
)

// TestServerLogMasked: target.server's output, shown with -v, has the
// suite's secrets masked like every other output — a key the server reads
// from the environment and a redact pattern's match — while the rest of
// the line stays readable.
func TestServerLogMasked(t *testing.T) {
	const key = "sk-live-server-0123456789"
	agent := aguitest.New(t, textAgentCLI)
	dir := t.TempDir()
	cfg := fmt.Sprintf(`version: "1.0"
redact: ["acct-[0-9]+"]
target:
  type: agui
  endpoint: %q
  agentId: a
  server:
    command: [sh, -c, 'echo "using key $KEY for acct-42"; echo listening; exec sleep 300']
    env: {KEY: "${ENV.SERVER_KEY}"}
    ready_log: listening
`, agent.Endpoint())
	os.WriteFile(filepath.Join(dir, "ananke.config.yaml"), []byte(cfg), 0o644)
	os.WriteFile(filepath.Join(dir, "a.ananke.yaml"), []byte("version: \"1.0\"\nname: a\nturns: [{user: hi}]\n"), 0o644)
	r := run(t, dir, map[string]string{"SERVER_KEY": key}, "run", "-v", "--report-dir", filepath.Join(dir, "out"))
	if r.code != ExitPass {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.out, r.errOut)
	}
	if strings.Contains(r.out+r.errOut, key) || strings.Contains(r.out+r.errOut, "acct-42") {
		t.Fatalf("a secret is printed:\n%s", r.errOut)
	}
	if !strings.Contains(r.errOut, "using key *** for ***") || !strings.Contains(r.errOut, "listening") {
		t.Fatalf("want the server's lines, masked, on stderr; got:\n%s", r.errOut)
	}
}
