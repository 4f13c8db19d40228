package reportdir_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/report/reporttest"
	"github.com/ananke/action/reporters/reportdir"
)

// TestReadRoundTrip: a directory read back and written again is the same,
// byte for byte — every trace and index.html included.
func TestReadRoundTrip(t *testing.T) {
	first, second := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	if err := reportdir.Write(first, reporttest.Report()); err != nil {
		t.Fatal(err)
	}
	r, err := reportdir.Read(first)
	if err != nil {
		t.Fatal(err)
	}
	if err := reportdir.Write(second, r); err != nil {
		t.Fatal(err)
	}
	files := 0
	filepath.WalkDir(first, func(p string, d os.DirEntry, walkErr error) error {
		if walkErr != nil {
			return walkErr
		}
		if d.IsDir() {
			return nil
		}
		files++
		rel, _ := filepath.Rel(first, p)
		a, _ := os.ReadFile(p)
		b, err := os.ReadFile(filepath.Join(second, rel))
		if err != nil || string(a) != string(b) {
			t.Errorf("%s differs after a round trip (%v)", rel, err)
		}
		return nil
	})
	if files != 21 {
		t.Errorf("%d files compared, want 21", files)
	}
}

func TestReadRefuses(t *testing.T) {
	for _, tc := range []struct {
		name, summary, want string
	}{
		{"no summary", "", "summary.json: no such file"},
		{"not JSON", "{", "summary.json: unexpected end of JSON input"},
		{"other schema", `{"schema":"ananke.report/v9"}`, `has schema "ananke.report/v9"`},
		{"escaping trace", `{"schema":"ananke.report/v1","tests":[{"id":"x","trace_file":"../../etc/passwd","attempts":[]}]}`, `trace file "../../etc/passwd" is not inside`},
		{"missing trace", `{"schema":"ananke.report/v1","tests":[{"id":"x","trace_file":"tests/x.trace.json","attempts":[]}]}`, "no such file"},
		{"bad shown", `{"schema":"ananke.report/v1","tests":[{"id":"x","shown_attempt":2,"attempts":[{"trace_file":"t.json"}]}]}`, "shown_attempt 2 is not one of its 1 attempts"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.summary != "" {
				os.WriteFile(filepath.Join(dir, "summary.json"), []byte(tc.summary), 0o644)
			}
			os.WriteFile(filepath.Join(dir, "t.json"), []byte(`{"schema":"ananke.trace/v2","turns":[]}`), 0o644)
			_, err := reportdir.Read(dir)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Read err = %v; want %q", err, tc.want)
			}
		})
	}
}
