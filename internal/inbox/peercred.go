//go:build linux || darwin || freebsd

package inbox

import (
	"errors"
	"net"
)

// peerCred asks the system who is at the other end of a connection to a
// Unix socket (peerUID).
func peerCred(c net.Conn) (credentials, error) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return credentials{}, errors.New("not a Unix socket")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return credentials{}, err
	}
	var uid int
	var uidErr error
	if err := raw.Control(func(fd uintptr) { uid, uidErr = peerUID(int(fd)) }); err != nil {
		return credentials{}, err
	}
	if uidErr != nil {
		return credentials{}, uidErr
	}
	return credentials{Known: true, UID: uid}, nil
}
