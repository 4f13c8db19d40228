package engine_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package when a goroutine outlives the tests: runs,
// hooks, servers and their HTTP connections must all end with Run.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
