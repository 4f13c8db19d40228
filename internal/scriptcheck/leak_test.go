package scriptcheck

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package when a goroutine outlives the tests: every
// script run must end with Evaluate.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
