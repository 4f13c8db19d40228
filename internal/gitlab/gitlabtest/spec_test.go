package gitlabtest

import (
	"bytes"
	"maps"
	"os"
	"slices"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

const specFile = "testdata/gitlab.openapi.trimmed.yaml"

// TestSpecValidates: the committed description loads, is valid OpenAPI,
// and holds exactly the operations Ananke calls, each with a handler.
func TestSpecValidates(t *testing.T) {
	onDisk, err := os.ReadFile(specFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(onDisk, specYAML) {
		t.Fatalf("embedded description differs from %s", specFile)
	}
	doc, err := openapi3.NewLoader().LoadFromData(onDisk)
	if err != nil {
		t.Fatalf("load %s: %v", specFile, err)
	}
	if err := doc.Validate(t.Context()); err != nil {
		t.Fatalf("doc.Validate: %v", err)
	}
	wantPaths := []string{
		"/api/v4/projects/{id}/jobs/artifacts/{ref_name}/download",
		"/api/v4/projects/{id}/merge_requests/{noteable_id}/notes",
		"/api/v4/projects/{id}/merge_requests/{noteable_id}/notes/{note_id}",
	}
	if got := slices.Sorted(slices.Values(doc.Paths.InMatchingOrder())); !slices.Equal(got, wantPaths) {
		t.Errorf("paths = %q, want %q", got, wantPaths)
	}
	var ops []string
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			ops = append(ops, op.OperationID)
			if len(op.Responses.Map()) != 1 || op.Responses.Default() == nil {
				t.Errorf("%s keeps responses other than the stripped default", op.OperationID)
			}
		}
	}
	slices.Sort(ops)
	if want := slices.Sorted(maps.Keys(handlers)); !slices.Equal(ops, want) {
		t.Errorf("operations = %q; the fake handles %q", ops, want)
	}
	if doc.Components != nil && len(doc.Components.Schemas) != 0 {
		t.Error("components left in the trimmed description")
	}
}
