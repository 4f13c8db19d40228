package assertion_test

import (
	"testing"

	"github.com/ananke/action/internal/assertion"
	"github.com/ananke/action/internal/target"
)

// TestListToolsCallName: the tools_list checks look for the call name the
// MCP session records a listing as.
func TestListToolsCallName(t *testing.T) {
	if got := assertion.ListToolsCall; got != target.ListToolsCall {
		t.Errorf("assertion looks for %q, target records %q", got, target.ListToolsCall)
	}
}
