//go:build unix

package inbox

import (
	"os"
	"runtime"
	"syscall"
)

// maxSocketPath is the longest path a Unix socket's address holds: 108
// bytes with the final NUL on Linux, 104 on the BSDs and macOS.
var maxSocketPath = func() int {
	if runtime.GOOS == "linux" {
		return 107
	}
	return 103
}()

// fileOwner returns the user id of a file's owner.
func fileOwner(fi os.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}
