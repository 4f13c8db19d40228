// Package decltest reads the doubles' YAML files for tests of the file
// model (internal/doubles/decl) and of the server (internal/doubles).
package decltest

import (
	"os"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
)

// ParseFile parses a YAML file into its root node.
func ParseFile(t testing.TB, path string, diags *diag.Diagnostics) (*decode.Decoder, *yaml.Node) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d := &decode.Decoder{File: path, Diags: diags}
	root := d.ParseBytes(data)
	if root == nil {
		t.Fatalf("%s does not parse: %v", path, *diags)
	}
	return d, root
}

// Member is a mapping's value for key (nil when absent).
func Member(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}
