package examples

import (
	"io/fs"
	"os"
	"strings"
	"testing"
)

func TestGoVersion(t *testing.T) {
	b, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "go "); ok {
			if v != GoVersion {
				t.Errorf("GoVersion = %q; go.mod says go %s: change GoVersion with it", GoVersion, v)
			}
			return
		}
	}
	t.Fatal("go.mod has no go line")
}

// TestFS checks the embedded files are the ones the copy needs: the
// quickstart's config and snapshots and the agent's main package, and no binary.
func TestFS(t *testing.T) {
	for _, name := range []string{"quickstart/ananke.config.yaml", "quickstart/hooks/city.sh", "quickstart/__snapshots__/weather.ananke.snap.yaml", "agent/main.go", "agent/doc.go"} {
		if _, err := fs.Stat(FS, name); err != nil {
			t.Errorf("embedded %s: %v", name, err)
		}
	}
	if _, err := fs.Stat(FS, "agent/agent"); err == nil {
		t.Error("the example agent's binary is embedded")
	}
}
