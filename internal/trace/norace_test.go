//go:build !race

package trace_test

// raceEnabled: this test binary runs under the race detector.
const raceEnabled = false
