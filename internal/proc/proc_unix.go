//go:build unix

package proc

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// SetGroup makes the command the leader of a new process group, so that
// Signal reaches everything it starts.
func SetGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

// Signal sends sig to the whole process group led by p (see SetGroup). It
// returns os.ErrProcessDone when the group is already gone, which tells
// os/exec not to report a cancellation that did not happen.
func Signal(p *os.Process, sig os.Signal) error {
	s, ok := sig.(syscall.Signal)
	if !ok {
		return p.Signal(sig)
	}
	err := syscall.Kill(-p.Pid, s)
	if errors.Is(err, syscall.ESRCH) {
		return os.ErrProcessDone
	}
	return err
}

// Kill sends SIGKILL to the whole process group led by p.
func Kill(p *os.Process) error { return Signal(p, syscall.SIGKILL) }

// Terminate asks the whole group to stop (SIGTERM).
func Terminate(p *os.Process) error { return Signal(p, syscall.SIGTERM) }
