package cli

// Exit codes (design §5, after seed 004 §17). Only this package maps
// outcomes to them.
const (
	// ExitPass: every test passed (or there was nothing to judge).
	ExitPass = 0
	// ExitFail: at least one test failed an assertion.
	ExitFail = 1
	// ExitError: at least one test errored (hook, transport or Ananke
	// problem) and none failed: the agent's behaviour could not be judged.
	ExitError = 2
	// ExitInvalid: invalid config or test files, or invalid flags.
	ExitInvalid = 3
)
