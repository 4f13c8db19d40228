package history

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse: whatever the bytes, Parse returns a history or an error,
// never panics; a history it returns is written as a file the published
// schema accepts, and read back unchanged.
func FuzzParse(f *testing.F) {
	sampleFile, err := os.ReadFile(filepath.Join("testdata", "sample.history.json"))
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{
		string(sampleFile),
		`{"schema":"ananke.history/v1","runs":[],"tests":[]}`,
		`{"schema":"ananke.history/v1","runs":[{"id":"1","started_at":"2026-03-01T09:00:00Z","status":"pass"}],"tests":[{"id":"a","statuses":"P","runs":[3],"passed_runs":[2],"tokens":[null],"cost_usd":[0.5]}]}`,
		`{"schema":"ananke.history/v1","runs":[{"id":"1","started_at":"2026-03-01T09:00:00Z","status":"fail"}],"tests":[{"id":"a","statuses":"."}]}`,
		`{"schema":"ananke.history/v1","runs":null,"tests":[{"id":"a","statuses":""}]}`,
		`{"schema":"ananke.history/v1","runs":[{"id":"1","started_at":"2026-03-01T09:00:00Z","status":"error"}],"tests":[{"id":"a","statuses":"\u00e9"}]}`,
	} {
		f.Add([]byte(seed))
	}
	s := compileSchema(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := Parse(data)
		if err != nil {
			return
		}
		out, err := Marshal(h)
		if err != nil {
			t.Fatalf("a history read cannot be written: %v", err)
		}
		if err := validate(s, out); err != nil {
			t.Fatalf("a history written does not match the schema: %v\n%s", err, out)
		}
		back, err := Parse(out)
		if err != nil {
			t.Fatalf("a history written cannot be read: %v\n%s", err, out)
		}
		again, err := Marshal(back)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("written twice, the files differ: %v\n%s\n%s", err, out, again)
		}
	})
}
