package agui_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestVendoredDataMatchesShared keeps the repository's copies of the
// conformance corpus and the JUnit XSD (testdata/) identical to the
// project's shared copy, when that copy exists next to the repository (on
// a development machine; a bare clone may not have it).
func TestVendoredDataMatchesShared(t *testing.T) {
	vendored := filepath.Dir(corpusDir())
	shared := filepath.Join(vendored, "..", "..", "shared", "testdata")
	if _, err := os.Stat(shared); err != nil {
		t.Logf("no shared copy at %s: nothing to compare", shared)
		return
	}
	n := 0
	for _, dir := range []string{"agui-conformance", "junit"} {
		files, _ := os.ReadDir(filepath.Join(shared, dir))
		for _, f := range files {
			want, _ := os.ReadFile(filepath.Join(shared, dir, f.Name()))
			got, err := os.ReadFile(filepath.Join(vendored, dir, f.Name()))
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s/%s differs from the shared copy (%v)", dir, f.Name(), err)
			}
			n++
		}
	}
	if n < 17 {
		t.Errorf("compared %d files; want the whole corpus and the XSD", n)
	}
}
