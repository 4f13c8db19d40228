//go:build unix

package hooks

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// setProcessGroup makes the hook the leader of a new process group, so that
// killGroup reaches everything it started, including background
// grandchildren.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup sends SIGKILL to the hook's whole process group (its pgid is its
// pid, see setProcessGroup). It returns os.ErrProcessDone when the group is
// already gone, which tells os/exec not to report a cancellation that did
// not happen.
func killGroup(p *os.Process) error {
	err := syscall.Kill(-p.Pid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return os.ErrProcessDone
	}
	return err
}
