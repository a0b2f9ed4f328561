package inbox

import (
	"errors"
	"net"

	"golang.org/x/sys/unix"
)

// peerCred asks the system who is at the other end of a connection to a
// Unix socket (SO_PEERCRED).
func peerCred(c net.Conn) (credentials, error) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return credentials{}, errors.New("not a Unix socket")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return credentials{}, err
	}
	var cred *unix.Ucred
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		cred, credErr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil {
		return credentials{}, err
	}
	if credErr != nil {
		return credentials{}, credErr
	}
	return credentials{Known: true, UID: int(cred.Uid)}, nil
}
