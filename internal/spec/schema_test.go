package spec

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ananke/action/internal/golden"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"
)

// TestSchemaCommitted keeps schema/*.json equal to what `ananke schema`
// prints (go test ./internal/spec -run TestSchemaCommitted -update).
func TestSchemaCommitted(t *testing.T) {
	for _, kind := range SchemaKinds {
		b, err := Schema(kind)
		if err != nil {
			t.Fatal(err)
		}
		golden.Assert(t, filepath.Join(repoRoot(t), "schema", SchemaFile(kind)), string(b))
	}
}

func compileSchema(t *testing.T, kind string) *jsonschema.Schema {
	t.Helper()
	b, _ := Schema(kind)
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	url := SchemaBaseURL + SchemaFile(kind)
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatalf("compile %s schema: %v", kind, err)
	}
	return s
}

// yamlAsJSON decodes a YAML file into the JSON data model.
func yamlAsJSON(t *testing.T, path string) any {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := yaml.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	js, _ := json.Marshal(v)
	out, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSchemaMatchesExamples: the published schemas accept every valid
// example and reject the broken field examples, as the loader does.
func TestSchemaMatchesExamples(t *testing.T) {
	root := repoRoot(t)
	schemas := map[string]*jsonschema.Schema{"config": compileSchema(t, "config"), "test": compileSchema(t, "test")}
	kindOf := func(p string) string {
		if strings.HasSuffix(p, "ananke.config.yaml") {
			return "config"
		}
		return "test"
	}
	valid, _ := filepath.Glob(filepath.Join(root, "examples", "*", "*.yaml"))
	if len(valid) == 0 {
		t.Fatal("no examples")
	}
	for _, p := range valid {
		if err := schemas[kindOf(p)].Validate(yamlAsJSON(t, p)); err != nil {
			t.Errorf("%s rejected by the schema: %v", p, err)
		}
	}
	for _, name := range []string{"fields/typos.ananke.yaml", "fields/types.ananke.yaml", "versions/major.ananke.yaml", "tools/tools.ananke.yaml", "config/ananke.config.yaml"} {
		p := filepath.Join(root, "examples", "broken", name)
		if err := schemas[kindOf(p)].Validate(yamlAsJSON(t, p)); err == nil {
			t.Errorf("%s accepted by the schema; the loader rejects it", name)
		}
	}
}
