//go:build linux || darwin || freebsd

package inbox

import (
	"errors"
	"net"
)

// peerCred asks the system which user is at the other end of a connection
// to a Unix socket (peerUID).
func peerCred(c net.Conn) (uid int, _ error) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return 0, errors.New("not a Unix socket")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return 0, err
	}
	var uidErr error
	if err := raw.Control(func(fd uintptr) { uid, uidErr = peerUID(int(fd)) }); err != nil {
		return 0, err
	}
	return uid, uidErr
}
