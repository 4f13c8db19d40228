package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestValidateReportsEveryReference: a ${VAR} no hook can set is an error
// when the suite loads, in every kind's patterns — memory and scheduler
// regexes as much as text.must_match — so validate and run stop before
// anything is sent (exit 3), naming file:line:col.
func TestValidateReportsEveryReference(t *testing.T) {
	for _, tc := range []struct {
		name, assert, want string
	}{
		{"text.must_match", `{text: {must_match: "${NOPE}"}}`, "t.ananke.yaml:4:29: unknown variable ${NOPE}"},
		{"memory.reads", `{memory: {reads: [{content_match: "${NOPE}"}]}}`, "t.ananke.yaml:4:43: unknown variable ${NOPE}"},
		{"memory.forbid", `{memory: {forbid: [{path_match: "x${NOPE}"}]}}`, "t.ananke.yaml:4:43: unknown variable ${NOPE}"},
		{"scheduler.outbound", `{scheduler: {outbound: {count: 1, match: "${NOPE}"}}}`, "t.ananke.yaml:4:50: unknown variable ${NOPE}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{
				"ananke.config.yaml": "version: \"1.0\"\ntarget: {type: agui, endpoint: \"http://127.0.0.1:1/agent\", agentId: a}\n",
				"t.ananke.yaml":      "version: \"1.0\"\nname: refs\nturns: [{user: hi}]\nassert: " + tc.assert + "\n",
			}
			for name, content := range files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for _, args := range [][]string{{"validate", "."}, {"run", "--color", "never", "-o", filepath.Join(dir, "report"), "."}} {
				r := run(t, dir, nil, args...)
				if r.code != ExitInvalid || !strings.Contains(r.out+r.errOut, tc.want) || !strings.Contains(r.errOut, "nothing was run") {
					t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit %d and %q", args[0], r.code, r.out, r.errOut, ExitInvalid, tc.want)
				}
			}
		})
	}
}
