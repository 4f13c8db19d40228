//go:build !unix

package hooks

import (
	"os"
	"os/exec"
)

// setProcessGroup does nothing here: process groups are a unix concept.
// Windows would need a job object to reach grandchildren; Ananke's CI and
// action image run on Linux, so this fallback only keeps the package
// building and kills the hook itself.
func setProcessGroup(*exec.Cmd) {}

// killGroup kills only the hook's own process; see setProcessGroup.
func killGroup(p *os.Process) error {
	return p.Kill()
}
