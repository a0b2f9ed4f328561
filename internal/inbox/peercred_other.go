//go:build !linux && !darwin && !freebsd

package inbox

import "net"

// peerCred cannot ask the system who is at the other end of a socket here.
func peerCred(net.Conn) (int, error) { return 0, errNoPeerCred }
