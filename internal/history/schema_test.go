package history

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ananke/action/schema"
)

// compileSchema compiles the published schema of the history file.
func compileSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema.History))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	const url = "https://raw.githubusercontent.com/ananke/action/main/schema/ananke.history.schema.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func validate(s *jsonschema.Schema, data []byte) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return s.Validate(v)
}

// TestFileMatchesSchema: the files Marshal writes — every kind of result,
// a bounded large one, an empty one — validate against the published
// schema, whose objects are closed, so a field added to the file without
// the schema fails here; and the schema refuses what Parse refuses.
func TestFileMatchesSchema(t *testing.T) {
	s := compileSchema(t)
	long := sample(t)
	long.Tests[0].Name = strings.Repeat("é", 500) // as Add cuts it
	long.Tests[0].Name = short(long.Tests[0].Name)
	for name, h := range map[string]*History{"sample": sample(t), "large": large(t, 3, 50), "empty": {}, "long name": long} {
		data, err := Marshal(h)
		if err != nil {
			t.Fatal(err)
		}
		if err := validate(s, data); err != nil {
			t.Errorf("%s: the file does not match the schema: %v", name, err)
		}
	}
	data, _ := Marshal(sample(t))
	for _, tc := range []struct{ name, old, new string }{
		{"unknown field", `"statuses"`, `"extra":1,"statuses"`},
		{"status", `"statuses":"ppsff"`, `"statuses":"ppSff"`},
		{"run status", `"status":"pass"`, `"status":"skipped"`},
		{"negative count", `"runs":[1,1,0,1,10]`, `"runs":[1,1,-1,1,10]`},
		{"negative cost", `0.0125]`, `-0.0125]`},
		{"schema", `"ananke.history/v1"`, `"ananke.history/v2"`},
	} {
		bad := strings.Replace(string(data), tc.old, tc.new, 1)
		if bad == string(data) {
			t.Fatalf("%s: the file has no %s", tc.name, tc.old)
		}
		if validate(s, []byte(bad)) == nil {
			t.Errorf("the schema accepts a bad %s: %s", tc.name, tc.new)
		}
		if _, err := Parse([]byte(bad)); err == nil && tc.name != "unknown field" {
			t.Errorf("Parse accepts a bad %s: %s", tc.name, tc.new)
		}
	}
}

// TestDocsExample: the history file docs/history.md shows is one Marshal
// writes, byte for byte, and the schema accepts.
func TestDocsExample(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "history.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(doc), "```json\n")
	block, _, ok2 := strings.Cut(block, "```")
	if !ok || !ok2 {
		t.Fatal("docs/history.md shows no history file")
	}
	h, err := Parse([]byte(block))
	if err != nil {
		t.Fatalf("the example does not read: %v", err)
	}
	out, err := Marshal(h)
	if err != nil || string(out) != block {
		t.Errorf("the example is not as Marshal writes it: %v\n%s", err, out)
	}
	if err := validate(compileSchema(t), []byte(block)); err != nil {
		t.Errorf("the example does not match the schema: %v", err)
	}
}
