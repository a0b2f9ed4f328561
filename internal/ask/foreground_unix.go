//go:build unix

package ask

import (
	"os"

	"golang.org/x/sys/unix"
)

// inForeground reports whether f is the controlling terminal of askuser
// and askuser runs in its foreground process group: a person typed the
// command at that terminal and is looking at it. A job sent to the
// background, or a program handed a terminal that is not its own, is not.
func inForeground(f *os.File) bool {
	// A nil f's Fd is -1, whose ioctl fails.
	pgrp, err := unix.IoctlGetInt(int(f.Fd()), unix.TIOCGPGRP)
	return err == nil && pgrp == unix.Getpgrp()
}
