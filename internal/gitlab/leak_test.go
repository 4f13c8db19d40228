package gitlab_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package when a goroutine outlives the tests: the
// fakes and their HTTP connections must all end with the tests.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
