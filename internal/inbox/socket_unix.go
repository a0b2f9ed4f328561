//go:build unix

package inbox

import (
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"syscall"
)

// fileOwner returns the user id of a file's owner, -1 where the system
// does not tell.
func fileOwner(fi os.FileInfo) int {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return -1
	}
	return int(st.Uid)
}

// openDirNoFollow opens the directory dir, and fails where dir is a link.
func openDirNoFollow(dir string) (*os.File, error) {
	return os.OpenFile(dir, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW, 0)
}

// umaskMu keeps listenPrivate's umask from meeting itself.
var umaskMu sync.Mutex

// listenPrivate listens on a new Unix socket at path, made 0600 as it is
// bound: the umask, which the system applies at bind, keeps the mode from
// ever being wider, and no chmod by path can follow a link someone put
// there. The umask is the process's: nothing else makes files while the
// inbox starts.
func listenPrivate(path string) (net.Listener, error) {
	umaskMu.Lock()
	defer umaskMu.Unlock()
	old := syscall.Umask(0o177)
	defer syscall.Umask(old)
	return net.Listen("unix", path)
}

// lockAddress takes the lock file beside the socket at path, waiting while
// another inbox holds it, and returns what lets it go. The file stays; the
// lock goes with the process, however it ends. A link there, or a file of
// another user's, is refused, as the directory would be.
func lockAddress(path string) (unlock func(), err error) {
	name := path + ".lock"
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
	if errors.Is(err, syscall.ELOOP) {
		return nil, fmt.Errorf("the inbox's lock file %s is a symbolic link: remove it, or set %s to a path in a directory of your own", name, EnvAddr)
	}
	if err != nil {
		return nil, fmt.Errorf("the inbox's lock file: %w", err)
	}
	if err := ownFile(f); err != nil {
		_ = f.Close()
		return nil, err
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

// ownFile refuses an open lock file that is not a plain file of this user's.
func ownFile(f *os.File) error {
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("the inbox's lock file: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("the inbox's lock file %s is not a plain file: remove it, or set %s to a path in a directory of your own", f.Name(), EnvAddr)
	}
	if uid := fileOwner(fi); uid >= 0 && uid != os.Getuid() {
		return fmt.Errorf("the inbox's lock file %s belongs to another user (%s): remove it, or set %s to a path in a directory of your own", f.Name(), userName(uid), EnvAddr)
	}
	return nil
}
