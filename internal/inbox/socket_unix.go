//go:build unix

package inbox

import (
	"fmt"
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

// lockAddress takes the lock file beside the socket at path, waiting while
// another inbox holds it, and returns what lets it go. The file stays; the
// lock goes with the process, however it ends.
func lockAddress(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("the inbox's lock file: %w", err)
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("lock %s: %w", f.Name(), err)
	}
	return func() { _ = f.Close() }, nil
}
