//go:build unix

package testutil

import (
	"os/exec"
	"syscall"
)

// Detach starts cmd in a session of its own, without a controlling
// terminal, as agent harnesses start commands: what it does then does not
// depend on whether the tests run in a terminal.
func Detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}
