//go:build race

package html_test

// raceEnabled: this test binary runs under the race detector.
const raceEnabled = true
