//go:build race

package cli

// raceEnabled: this test binary runs under the race detector.
const raceEnabled = true
