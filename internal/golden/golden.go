// Package golden compares test output with golden files. Run the tests with
// -update to rewrite the files; review the diff like code.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files with the current output")

// Updating reports whether the test binary runs with -update: a test that
// keeps recorded data other than a golden file (a recording to replay)
// makes it anew then.
func Updating() bool { return *update }

// Assert compares got with the file at path, or rewrites the file when the
// test binary runs with -update.
func Assert(t testing.TB, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file (run with -update to create it): %v", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the output (-update rewrites it)\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}
