//go:build !unix

package proc

import (
	"os"
	"os/exec"
)

// SetGroup does nothing here: process groups are a unix concept. Windows
// would need a job object to reach grandchildren; Ananke's CI and action
// image run on Linux, so this fallback only keeps the package building.
func SetGroup(*exec.Cmd) {}

// Signal signals only the process itself; see SetGroup.
func Signal(p *os.Process, sig os.Signal) error { return p.Signal(sig) }

// Kill kills only the process itself; see SetGroup.
func Kill(p *os.Process) error { return p.Kill() }

// Terminate kills the process: there is no SIGTERM on every platform.
func Terminate(p *os.Process) error { return p.Kill() }
