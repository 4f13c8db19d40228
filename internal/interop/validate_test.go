//go:build unix

package interop

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ananke/action/schema"
)

// validateReports checks a report directory against the published formats:
// summary.json against its JSON Schema, junit.xml against junit-10.xsd
// (with xmllint, which CI installs; a missing one fails the test).
func validateReports(t *testing.T, dir string) {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema.Report))
	if err != nil {
		t.Fatal(err)
	}
	const url = "https://raw.githubusercontent.com/ananke/action/main/schema/ananke.report.schema.json"
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	v, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(v); err != nil {
		t.Errorf("summary.json does not match its schema: %v", err)
	}
	xsd := filepath.Join("..", "..", "testdata", "junit", "junit-10.xsd")
	if out, err := exec.Command("xmllint", "--noout", "--schema", xsd, filepath.Join(dir, "junit.xml")).CombinedOutput(); err != nil {
		t.Errorf("junit.xml does not validate against junit-10.xsd: %v\n%s", err, out)
	}
}
