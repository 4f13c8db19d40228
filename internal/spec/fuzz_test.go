package spec

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoad feeds arbitrary bytes to both file decoders: loading must never
// panic, and a rejected file must say why with a position.
func FuzzLoad(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join(repoRoot(f), "examples", "*", "*.yaml"))
	more, _ := filepath.Glob(filepath.Join(repoRoot(f), "examples", "*", "*", "*.yaml"))
	for _, p := range append(seeds, more...) {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("a: &a [*a]"))
	f.Add([]byte("version: \"1.0\"\nname: x\nturns: [{user: \"${\"}]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, kind := range []string{"config", "test"} {
			var diags Diagnostics
			l := &loader{file: "fuzz.yaml", diags: &diags}
			doc := l.parseBytes(data)
			if doc == nil {
				if len(diags) == 0 {
					t.Fatalf("%s: nil document without a diagnostic", kind)
				}
				continue
			}
			if kind == "config" {
				resolveExtends(l.config(doc), nil, &diags)
			} else {
				test := l.test(doc)
				resolveExtends(&Config{}, []*Test{test}, &diags)
			}
			for _, d := range diags {
				if d.Pos.File != "fuzz.yaml" || d.Message == "" {
					t.Fatalf("%s: diagnostic without position or message: %+v", kind, d)
				}
			}
		}
	})
}
