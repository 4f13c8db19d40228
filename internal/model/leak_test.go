package model_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package when a goroutine outlives the tests: fake
// servers, their connections and hung requests must all end.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
