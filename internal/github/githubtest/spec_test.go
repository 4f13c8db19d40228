package githubtest

import (
	"bytes"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
)

const specFile = "testdata/api.github.com.trimmed.json"

func TestSpecValidates(t *testing.T) {
	start := time.Now()
	doc, err := openapi3.NewLoader().LoadFromFile(specFile)
	loaded := time.Since(start)
	if err != nil {
		t.Fatalf("load %s: %v", specFile, err)
	}
	t.Logf("%s loads in %v", specFile, loaded)
	if err := doc.Validate(t.Context()); err != nil {
		t.Fatalf("doc.Validate: %v", err)
	}

	wantPaths := []string{
		"/repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}",
		"/repos/{owner}/{repo}/actions/runs/{run_id}",
		"/repos/{owner}/{repo}/actions/runs/{run_id}/artifacts",
		"/repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs",
		"/repos/{owner}/{repo}/check-runs",
		"/repos/{owner}/{repo}/check-runs/{check_run_id}",
		"/repos/{owner}/{repo}/check-runs/{check_run_id}/annotations",
		"/repos/{owner}/{repo}/issues/comments/{comment_id}",
		"/repos/{owner}/{repo}/issues/{issue_number}/comments",
	}
	if got := doc.Paths.InMatchingOrder(); !slices.Equal(slices.Sorted(slices.Values(got)), wantPaths) {
		t.Errorf("paths = %q, want %q", slices.Sorted(slices.Values(got)), wantPaths)
	}
	var ops []string
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			ops = append(ops, op.OperationID)
		}
	}
	slices.Sort(ops)
	wantOps := []string{
		"actions/download-artifact", "actions/get-workflow-run", "actions/list-workflow-run-artifacts", "actions/list-workflow-runs",
		"checks/create", "checks/list-annotations", "checks/update",
		"issues/create-comment", "issues/list-comments", "issues/update-comment",
	}
	if !slices.Equal(ops, wantOps) {
		t.Errorf("operations = %q, want %q", ops, wantOps)
	}
	if len(doc.Components.Schemas) != 0 || doc.Extensions["x-webhooks"] != nil {
		t.Errorf("components or x-webhooks left in the trimmed description")
	}
}

// TestEmbeddedSpec checks that the fake serves the committed file and that
// it routes every operation to a handler.
func TestEmbeddedSpec(t *testing.T) {
	onDisk, err := os.ReadFile(specFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(onDisk, specJSON) {
		t.Fatalf("embedded description differs from %s", specFile)
	}
	sp, err := loadSpec()
	if err != nil {
		t.Fatalf("loadSpec: %v", err)
	}
	t.Logf("loadSpec (embedded, parse + router) took %v", specLoadTime)
	for id := range sp.ops {
		if handlers[id] == nil {
			t.Errorf("operation %s has no handler", id)
		}
	}
	for id := range handlers {
		if sp.ops[id] == nil {
			t.Errorf("handler %s has no operation in the description", id)
		}
	}
}
